"""JCloisterZone 5 saves (``.jcz``, JSON), read into and written from a classic game (CL-1 to
CL-6; README, "Games from elsewhere").

A save holds the set-up, the players and ``replay``, the players' messages: ``PLACE_TILE``,
``DEPLOY_MEEPLE``, ``PASS``, ``COMMIT`` (which ends a turn and carries the random value of the
next draw), ``UNDO``. JCloisterZone draws ``floor(random * n)``-th of the ``n`` tiles left,
sorted by id, the random number moving on by a linear congruential step after each use; a
save's ``gameAnnotations.drawOrder`` (local games) draws listed tiles first. Its y axis grows
south, meeple's north.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

from meeple.cli.interop.moves import (
    COLOURS,
    Refused,
    Turn,
    draw,
    follower_choices,
    new_table_game,
    place,
    play_turn,
)
from meeple.cli.interop.tilemap import JCZ_BASE, JCZ_OF, classic_tiles, read_location, spots
from meeple.engine import Game

#: the largest save read, in bytes, and the most messages in its replay
MAX_SAVE = 8 << 20
MAX_MESSAGES = 20_000
MAX_NAME = 64
#: JCloisterZone refuses saves older than this
OLDEST = (5, 7, 0)
WRITTEN_VERSION = "5.10.0"
ROTATIONS = {"R0": 0, "R90": 90, "R180": 180, "R270": 270}
START = {"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}

#: JCloisterZone's linear congruential step (``RandomGenerator``): after each use the random
#: number becomes the next of x -> a x + c mod 2^48 on the low 48 bits of its IEEE 754 bits
_M = (1 << 48) - 1
_A = 25214903917
_C = 11


def next_random(value: float) -> float:
    bits = int.from_bytes(_double_bytes(value), "big") & _M
    return ((_A * bits + _C) & _M) / float(_M + 1)


def _double_bytes(value: float) -> bytes:
    import struct

    return struct.pack(">d", value)


class Pack:
    """JCloisterZone's tile pack for the classic game: the tiles left sorted by id, a forced
    draw order first if the save has one, ``limit`` draws at most if it sets one."""

    def __init__(self, draw_order: list[str], limit: int | None):
        counts = {jcz: classic_tiles()[letter].count for jcz, letter in JCZ_BASE.items()}
        counts["BA/RCr"] -= 1  # the start tile is taken from the pack
        self.tiles = sorted(jcz for jcz, n in counts.items() for _ in range(n))
        self.queue = list(draw_order)
        self.limit = limit

    def empty(self) -> bool:
        return not self.tiles or self.limit is not None and self.limit <= 0

    def draw(self, random: float) -> tuple[str, float]:
        """The tile drawn with ``random``, and the random number after it."""
        if self.queue:
            tile = self.queue.pop(0)
            if tile not in self.tiles:
                raise Refused(f"drawOrder names {tile!r}, which is not left in the pack")
        else:
            tile = self.tiles[int(random * len(self.tiles))]
            random = next_random(random)
        self.tiles.remove(tile)
        if self.limit is not None:
            self.limit -= 1
        return tile, random


def _version(text: object) -> tuple[int, ...]:
    if not isinstance(text, str) or not re.fullmatch(r"\d{1,4}(\.\d{1,4}){0,3}([-+].{0,40})?", text):
        raise Refused("appVersion: not a JCloisterZone version")
    return tuple(int(p) for p in re.split(r"[-+]", text)[0].split("."))


def _obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(f"{where}: not a JSON object")
    return value


def parse(data: bytes) -> dict[str, Any]:
    """The save's JSON object, bounded and checked to be a JCloisterZone game save."""
    if len(data) > MAX_SAVE:
        raise Refused(f"larger than the limit of {MAX_SAVE:,} bytes")
    try:
        save = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise Refused(f"not JSON: {str(exc)[:80]}") from None
    save = _obj(save, "the file")
    if "appVersion" not in save or "setup" not in save:
        raise Refused("not a JCloisterZone save: no appVersion or setup")
    if _version(save["appVersion"]) < OLDEST:
        raise Refused(f"appVersion {save['appVersion']}: JCloisterZone opens saves from 5.7.0 on")
    for key in ("players", "initialRandom", "replay", "clock", "gameId"):
        if save.get(key) is None:
            raise Refused(f"a set-up only, with no game: {key} is missing")
    return save


def _check_setup(save: dict[str, Any]) -> bool:
    """Refuses what meeple does not have; True when the save keeps JCloisterZone's default
    4-point two-tile city (the 2011 rule, ``"2"``, gives 2)."""
    setup = _obj(save["setup"], "setup")
    sets = _obj(setup.get("sets", {}), "setup.sets")
    other = sorted(str(k)[:40] for k in sets if k != "basic:1")
    if other:
        raise Refused("setup.sets: meeple has no " + ", ".join(other))
    if sets.get("basic:1") != 1:
        raise Refused("setup.sets: one copy of basic:1 is the classic game")
    elements = _obj(setup.get("elements", {}), "setup.elements")
    other = sorted(str(k)[:40] for k in elements if k not in ("small-follower", "farmers"))
    if other:
        raise Refused("setup.elements: meeple has no " + ", ".join(other))
    if elements.get("small-follower") != 7 or elements.get("farmers") is not True:
        raise Refused("setup.elements: the classic game has 7 followers and farmers")
    rules = _obj(setup.get("rules", {}), "setup.rules")
    other = sorted(f"{str(k)[:40]}" for k in rules if k != "tiny-city-scoring")
    if other:
        raise Refused("setup.rules: meeple has no rule " + ", ".join(other))
    if rules.get("tiny-city-scoring", "4") not in ("2", "4"):
        raise Refused("setup.rules: tiny-city-scoring is 2 or 4")
    start = setup.get("start", [START])
    if start != [START]:
        raise Refused("setup.start: the classic start tile is BA/RCr at 0,0 unturned")
    return rules.get("tiny-city-scoring", "4") != "2"


def _players(save: dict[str, Any]) -> list[str]:
    players = save["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= 8:
        raise Refused("players: a list of 2 to 5 players")
    names = []
    for i, player in enumerate(players):
        name = _obj(player, f"players[{i}]").get("name")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise Refused(f"players[{i}].name: a name of 1 to {MAX_NAME} characters")
        names.append(name)
    return names


def _messages(save: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The replay's messages with their index, ``UNDO`` followed: each takes back the
    message before it, within the turn."""
    replay = save["replay"]
    if not isinstance(replay, list) or len(replay) > MAX_MESSAGES:
        raise Refused(f"replay: a list of at most {MAX_MESSAGES:,} messages")
    kept: list[tuple[int, dict[str, Any]]] = []
    for i, message in enumerate(replay):
        message = _obj(message, f"replay[{i}]")
        kind = message.get("type")
        if kind == "UNDO":
            if not kept or kept[-1][1].get("type") == "COMMIT":
                raise Refused(f"replay[{i}]: UNDO with nothing in the turn to take back")
            kept.pop()
        elif kind in ("PLACE_TILE", "DEPLOY_MEEPLE", "PASS", "COMMIT"):
            _obj(message.get("payload", {}), f"replay[{i}].payload")
            kept.append((i, message))
        else:
            raise Refused(f"replay[{i}]: meeple has no message {str(kind)[:40]!r}")
    return kept


def _int(value: object, where: str) -> int:
    if type(value) is not int or not -1000 <= value <= 1000:
        raise Refused(f"{where}: not a board coordinate")
    return value


def _position(value: object, where: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise Refused(f"{where}: a position is [x, y]")
    return _int(value[0], where), _int(value[1], where)


def _random(payload: dict[str, Any], where: str) -> float:
    value = payload.get("random")
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1:
        raise Refused(f"{where}: random is a number from 0 to 1")
    return float(value)


def _turns(messages: list[tuple[int, dict[str, Any]]]) -> Iterator[list[tuple[int, dict]]]:
    turn: list[tuple[int, dict]] = []
    for item in messages:
        turn.append(item)
        if item[1]["type"] == "COMMIT":
            yield turn
            turn = []
    if turn:
        yield turn


def _turn(game: Game, tile: str, messages: list[tuple[int, dict]], seat: int) -> Turn:
    """A turn of a save's messages in meeple's terms (y flipped); the tile JCloisterZone
    drew is ``tile`` (its id)."""
    i, place = messages[0]
    where = f"replay[{i}]"
    if place["type"] != "PLACE_TILE":
        raise Refused(f"{where}: a turn begins with PLACE_TILE, not {place['type']}")
    payload = place["payload"]
    if payload.get("tileId") != tile:
        raise Refused(f"{where}: places {str(payload.get('tileId'))[:40]!r}, but the save "
                      f"draws {tile} there")
    x, y = _position(payload.get("position"), where)
    turned = payload.get("rotation")
    rotation = ROTATIONS.get(turned) if isinstance(turned, str) else None
    if rotation is None:
        raise Refused(f"{where}: rotation is R0, R90, R180 or R270")
    letter = JCZ_BASE[tile]
    target = None
    for j, message in messages[1:]:
        where = f"replay[{j}]"
        if "player" in message and message["player"] != seat:
            raise Refused(f"{where}: player {str(message['player'])[:8]} moves in seat {seat}'s turn")
        if message["type"] == "DEPLOY_MEEPLE":
            if target is not None:
                raise Refused(f"{where}: a second follower in one turn")
            target = _deploy(message["payload"], letter, (x, y), rotation, seat, where)
        elif message["type"] == "PLACE_TILE":
            raise Refused(f"{where}: a second tile in one turn")
    return Turn(letter, x, -y, rotation, target)


def _deploy(payload: dict, letter: str, at: tuple[int, int], rotation: int, seat: int,
            where: str) -> str:
    meeple = payload.get("meepleId")
    if not isinstance(meeple, str) or not re.fullmatch(rf"{seat}\.small\.\d{{1,2}}", meeple):
        raise Refused(f"{where}: meepleId {str(meeple)[:20]!r} is not a follower of seat {seat}")
    pointer = _obj(payload.get("pointer"), f"{where}.pointer")
    if _position(pointer.get("position"), where) != at:
        raise Refused(f"{where}: a follower goes on the tile just placed")
    feature, location = pointer.get("feature"), pointer.get("location")
    read = read_location(str(feature)[:20], str(location)[:40])
    if read is None:
        raise Refused(f"{where}: {str(feature)[:20]} {str(location)[:40]} names no classic feature")
    for spot in spots(classic_tiles()[letter], rotation):
        if spot.kind == read[0] and frozenset(spot.atoms) == read[1]:
            return spot.target
    raise Refused(f"{where}: {feature} {location} names no feature of {JCZ_OF[letter]} there")


def read_save(data: bytes) -> tuple[Game, dict[str, Any]]:
    """The classic table game a save holds, every move checked; and the save's JSON.

    :raises Refused: what meeple cannot take, naming it and where.
    """
    save = parse(data)
    later_tiny_cities = _check_setup(save)
    names = _players(save)
    messages = _messages(save)
    annotations = _obj(save.get("gameAnnotations", {}), "gameAnnotations")
    order = annotations.get("drawOrder", [])
    if not isinstance(order, list) or not all(isinstance(t, str) and t in JCZ_BASE for t in order):
        raise Refused("gameAnnotations.drawOrder: a list of the classic tile ids")
    limit = annotations.get("endTurn")
    if limit is not None and (type(limit) is not int or not 0 <= limit <= 71):
        raise Refused("gameAnnotations.endTurn: a number of draws")
    random = save["initialRandom"]
    if not isinstance(random, (int, float)) or isinstance(random, bool) or not 0 <= random < 1:
        raise Refused("initialRandom: a number from 0 to 1")
    random = float(random)
    pack = Pack(order, limit)
    game = new_table_game(names, fiesta=False)
    for number, turn in enumerate(_turns(messages)):
        seat = number % len(names)
        where = f"replay[{turn[0][0]}]"
        while True:  # JCloisterZone sets aside a tile no one can place and draws again
            if pack.empty():
                raise Refused(f"{where}: a move after the last tile")
            tile, random = pack.draw(random)
            if draw(game, JCZ_BASE[tile], where):
                break
        played = _turn(game, tile, turn, seat)
        committed = turn[-1][1]["type"] == "COMMIT"
        place(game, played, where, done=committed)
        if committed:
            random = _random(turn[-1][1]["payload"], f"replay[{turn[-1][0]}]")
    if later_tiny_cities:
        _check_no_tiny_city(game)
    assert COLOURS
    return game, save


def _check_no_tiny_city(game: Game) -> None:
    """A save on JCloisterZone's default rule is the same game in meeple unless a two-tile
    city was completed (4 points there, 2 in the 2011 rules, CL-5)."""
    from meeple.events.model import PointsScored

    for event in game.events:
        if (isinstance(event, PointsScored) and event.reason == "realm" and event.tiles == 2
                and event.realm.feature.startswith("city")):
            raise Refused("setup.rules: the save scores a two-tile city 4 points "
                          "(JCloisterZone's default); the 2011 rules meeple plays give 2, and "
                          f"this game completes one (its line {event.seq + 1})")


def random_for(index: int, count: int) -> float:
    """A random number JCloisterZone turns into ``index`` of ``count`` tiles."""
    value = (index + 0.5) / count
    assert int(value * count) == index
    return value


def write_save(game: Game, turns: list[Turn], game_id: str) -> str:
    """A JCloisterZone save of ``turns`` played by ``game``'s players (the 2011 two-tile city,
    the draws fixed by each COMMIT's random and by ``drawOrder``)."""
    names = [player.name for player in game.setup.players]
    replay = new_table_game(names, fiesta=False)
    pack = sorted(JCZ_OF[letter] for letter, n in _left(replay).items() for _ in range(n))
    randoms = []
    messages: list[dict[str, Any]] = []
    for number, turn in enumerate(turns):
        tile = JCZ_OF[turn.tile]
        randoms.append(random_for(pack.index(tile), len(pack)))
        pack.remove(tile)
        seat = number % len(names)
        messages.append({"type": "PLACE_TILE", "payload": {
            "tileId": tile, "rotation": f"R{turn.rotation}", "position": [turn.x, -turn.y]},
            "player": seat})
        play_turn(replay, Turn(turn.tile, turn.x, turn.y, turn.rotation), f"turn {number + 1}",
                  done=False)
        choices = replay.phase == "meeple" and follower_choices(replay)
        if turn.target is not None:
            spot = next(s for s in spots(classic_tiles()[turn.tile], turn.rotation)
                        if s.target == turn.target)
            count = 7 - replay.reserve(replay.player).get("small", 0) + 1
            messages.append({"type": "DEPLOY_MEEPLE", "payload": {
                "pointer": {"position": [turn.x, -turn.y], "feature": spot.jcz_feature,
                            "location": spot.jcz_location},
                "meepleId": f"{seat}.small.{count}"}, "player": seat})
        elif choices:
            messages.append({"type": "PASS", "payload": {}, "player": seat})
        finish(replay, turn, number)
        messages.append({"type": "COMMIT", "payload": {"random": 0.0}, "player": seat})
    for number, message in enumerate(m for m in messages if m["type"] == "COMMIT"):
        if number + 1 < len(randoms):
            message["payload"]["random"] = randoms[number + 1]
    save = {
        "appVersion": WRITTEN_VERSION,
        "gameId": game_id,
        "name": "",
        "initialRandom": randoms[0] if randoms else 0.0,
        "created": "1970-01-01T00:00:00.000Z",
        "clock": 0,
        "setup": {"sets": {"basic:1": 1}, "elements": {"small-follower": 7, "farmers": True},
                  "rules": {"tiny-city-scoring": "2"}, "timer": None, "start": [START],
                  "options": {}},
        "players": [{"name": name, "slot": i} for i, name in enumerate(names)],
        "replay": messages,
        "gameAnnotations": {"drawOrder": [JCZ_OF[t.tile] for t in turns]},
    }
    assert all(math.isfinite(r) for r in randoms)
    return json.dumps(save, indent=2, ensure_ascii=False) + "\n"


def _left(game: Game) -> dict[str, int]:
    return dict(game.state.remaining)


def finish(game: Game, turn: Turn, number: int) -> None:
    """The rest of ``turn`` on ``game``, whose tile is placed."""
    from meeple.engine import PlaceMeeple, RulesError, SkipMeeple

    if game.phase != "meeple":
        return
    try:
        game.push(PlaceMeeple(turn.target) if turn.target is not None else SkipMeeple())
    except RulesError as exc:
        raise Refused(f"turn {number + 1}: {exc}") from None
