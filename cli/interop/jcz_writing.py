"""Writing JCloisterZone 5 saves (``.jcz``) of a classic game (CL-1 to CL-7; docs/guide/interop.md):
the 2011 two-tile city, each draw fixed twice (``drawOrder``, and the
random number of each ``COMMIT`` that draws the same tile), ``PASS`` only where
JCloisterZone offers a follower move. ``meeple.cli.interop.jcz`` reads them back."""

from __future__ import annotations

import json
import math
from typing import Any

from meeple.cli.interop.jcz import START, WRITTEN_VERSION, Board
from meeple.cli.interop.moves import Refused, Turn, follower_choices, new_table_game, play_turn
from meeple.cli.interop.tilemap import JCZ_OF, JCZ_TURNED, Spot, spots
from meeple.engine import Game


def random_for(index: int, count: int) -> float:
    """A random number JCloisterZone turns into ``index`` of ``count`` tiles."""
    value = (index + 0.5) / count
    assert int(value * count) == index
    return value


def write_save(game: Game, turns: list[Turn], game_id: str, fiesta: bool) -> str:
    """A JCloisterZone save of ``turns`` played by ``game``'s players (the 2011 two-tile city,
    the draws fixed by each COMMIT's random and by ``drawOrder``; a follower passed only
    where JCloisterZone offers one)."""
    names = [player.name for player in game.setup.players]
    replay = new_table_game(names, fiesta=fiesta)
    colours: list[str] = [player.colour for player in replay.setup.players]
    pack = sorted(JCZ_OF[letter] for letter, n in dict(replay.state.remaining).items()
                  for _ in range(n))
    followers = Followers(len(names))
    board = Board(fiesta)
    randoms = []
    messages: list[dict[str, Any]] = []
    for number, turn in enumerate(turns):
        tile = JCZ_OF[turn.tile]
        randoms.append(random_for(pack.index(tile), len(pack)))
        pack.remove(tile)
        seat = number % len(names)
        turned = (turn.rotation - JCZ_TURNED.get(turn.tile, 0)) % 360
        board.cells[(turn.x, turn.y)] = (turn.tile, turn.rotation)
        messages.append({"type": "PLACE_TILE", "payload": {
            "tileId": tile, "rotation": f"R{turned}", "position": [turn.x, -turn.y]},
            "player": seat})
        play_turn(replay, Turn(turn.tile, turn.x, turn.y, turn.rotation), f"turn {number + 1}",
                  done=False)
        choices = replay.phase == "meeple" and follower_choices(replay)
        mark = len(replay.events)
        if turn.back is not None:
            bx, by, target = turn.back
            spot = _spot(board, (bx, by), target)
            messages.append({"type": "RETURN_MEEPLE", "payload": {"source": "FESTIVAL", "pointer": {
                "position": [bx, -by], "feature": spot.jcz_feature,
                "location": spot.jcz_location, "meepleId": followers.back(seat, turn.back)}},
                "player": seat})
        elif turn.target is not None:
            spot = _spot(board, (turn.x, turn.y), turn.target)
            messages.append({"type": "DEPLOY_MEEPLE", "payload": {
                "pointer": {"position": [turn.x, -turn.y], "feature": spot.jcz_feature,
                            "location": spot.jcz_location},
                "meepleId": followers.deploy(seat, (turn.x, turn.y, turn.target))},
                "player": seat})
        elif choices:
            messages.append({"type": "PASS", "payload": {}, "player": seat})
        finish(replay, turn, number)
        followers.returned(replay.events[mark:], colours)
        messages.append({"type": "COMMIT", "payload": {"random": 0.0}, "player": seat})
    for message in messages:  # the client adds up each player's time from the messages' clocks
        message["clock"] = 0
    for number, message in enumerate(m for m in messages if m["type"] == "COMMIT"):
        if number + 1 < len(randoms):
            message["payload"]["random"] = randoms[number + 1]
    sets: dict[str, int] = {"basic:1": 1, **({"festival": 1} if fiesta else {})}
    elements: dict[str, Any] = {"small-follower": 7, "farmers": True,
                                **({"festival": True} if fiesta else {})}
    save = {
        "appVersion": WRITTEN_VERSION,
        "gameId": game_id,
        "name": "",
        "initialRandom": randoms[0] if randoms else 0.0,
        "created": "1970-01-01T00:00:00.000Z",
        "clock": 0,
        "setup": {"sets": sets, "elements": elements, "rules": {"tiny-city-scoring": "2"},
                  "timer": None, "start": [START], "options": {}},
        "players": [{"name": name, "slot": i} for i, name in enumerate(names)],
        "replay": messages,
        "gameAnnotations": {"drawOrder": [JCZ_OF[t.tile] for t in turns]},
    }
    assert all(math.isfinite(r) for r in randoms)
    return json.dumps(save, indent=2, ensure_ascii=False) + "\n"


def _spot(board: Board, cell: tuple[int, int], target: str) -> Spot:
    letter, rotation = board.cells[cell]
    return next(s for s in spots(board.tiles[letter], rotation) if s.target == target)


class Followers:
    """Which of each seat's followers (JCloisterZone's ``<seat>.small.<n>``, n from 1 to 7)
    stands where: a deploy takes the lowest one in the supply."""

    def __init__(self, seats: int):
        self.out: list[dict[tuple[int, int, str], int]] = [{} for _ in range(seats)]

    def deploy(self, seat: int, where: tuple[int, int, str]) -> str:
        used = set(self.out[seat].values())
        number = min(n for n in range(1, 8) if n not in used)
        self.out[seat][where] = number
        return f"{seat}.small.{number}"

    def back(self, seat: int, where: tuple[int, int, str]) -> str:
        return f"{seat}.small.{self.out[seat].pop(where)}"

    def returned(self, events: tuple, colours: list[str]) -> None:
        from meeple.events.model import MeepleReturned

        for event in events:
            if isinstance(event, MeepleReturned):
                spot = event.spot
                self.out[colours.index(event.player)].pop((spot.x, spot.y, spot.feature), None)


def finish(game: Game, turn: Turn, number: int) -> None:
    """The rest of ``turn`` on ``game``, whose tile is placed: its follower placed, taken
    back or skipped."""
    from meeple.engine import PlaceMeeple, RulesError, SkipMeeple, TakeBack

    if game.phase != "meeple":
        return
    try:
        if turn.back is not None:
            game.push(TakeBack(*turn.back))
        else:
            game.push(PlaceMeeple(turn.target) if turn.target is not None else SkipMeeple())
    except RulesError as exc:
        raise Refused(f"turn {number + 1}: {exc}") from None
