"""Bots that choose moves: ``random`` and ``greedy`` (best immediate score gain).

Their choices come from the game's seed (stream ``bot``, indexed by the next
``seq``), so a bot game replays identically. Pure: they only read the state.
"""

from __future__ import annotations

from meeple.engine import chance
from meeple.engine.board import placements
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, SkipMeeple, TakeBack
from meeple.engine.deciding import followers_to_take_back, legal_targets
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.engine.flow import awaiting
from meeple.engine.playing import play, settle
from meeple.engine.preview import gain, meeple_gain
from meeple.engine.state import GameState


def _pick(state: GameState, what: str, n: int) -> int:
    return chance.below(state.seed, f"bot-{what}", state.next_seq, n)


def random_move(state: GameState) -> Command:
    """A uniformly random legal placement; then a meeple on a random target half the time
    (after a festival tile, a follower taken back a quarter of the time, CL-7)."""
    waiting = awaiting(state)
    if waiting == "place":
        tile = state.tileset.types[state.drawn]  # type: ignore[index]
        options = placements(state, tile)
        x, y, rotation = options[_pick(state, "place", len(options))]
        return PlaceTile(x, y, rotation)
    if waiting == "meeple":
        left = state.reserve[state.player]
        small, large = left["small"], left.get("large", 0)
        mine = followers_to_take_back(state)
        if mine and _pick(state, "take-back", 4) == 0:
            spot = mine[_pick(state, "follower", len(mine))]
            return TakeBack(spot.x, spot.y, spot.feature)
        targets = legal_targets(state) if small or large else []
        if not targets or _pick(state, "deploy", 2) == 0:
            return SkipMeeple()
        target = targets[_pick(state, "target", len(targets))]
        use_large = bool(large) and (not small or _pick(state, "size", 4) == 0)
        return PlaceMeeple(target, "large" if use_large else "small")
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


def greedy_move(state: GameState) -> Command:
    """The placement and meeple choice with the best immediate score gain for the player's side,
    ties broken by the seeded stream. Battles are left to chance and count for nothing."""

    waiting = awaiting(state)
    if waiting == "place":
        tile = state.tileset.types[state.drawn]  # type: ignore[index]
        scored = [(gain(state, tile, x, y, r // 90), (x, y, r)) for x, y, r in placements(state, tile)]
        best = max(points for points, _ in scored)
        top = [move for points, move in scored if points == best]
        x, y, rotation = top[_pick(state, "place", len(top))]
        return PlaceTile(x, y, rotation)
    if waiting == "meeple":

        left = state.reserve[state.player]
        small = left["small"]
        if not any(left.values()):
            return SkipMeeple()
        options = [(meeple_gain(state, t), t) for t in legal_targets(state)]
        best = max((points for points, _ in options), default=0)
        if best <= 0:
            return SkipMeeple()
        targets = [t for points, t in options if points == best]
        return PlaceMeeple(targets[_pick(state, "target", len(targets))],
                           "small" if small else "large")
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


BOTS = {"random": random_move, "greedy": greedy_move}


def run_turns(state: GameState, bot: str, turns: int | None):
    """Let a bot play ``turns`` turns (None: to the end). Returns the state and the events."""

    if bot not in BOTS:
        raise InvalidCommand(f"unknown bot {bot!r}", legal="bots: random, greedy")
    if not state.digital:
        raise InvalidCommand("bots play digital games only: in table mode the draws and dice "
                             "come from the table")
    if not state.chance_known:

        raise IllegalMove("bots take their choices, like the draws and dice, from the game's "
                          "seed, which in this sealed game only its holder has",
                          rule=state.rule("chance"))
    choose = BOTS[bot]
    state, written = settle(state)
    start_turn = state.turn
    while awaiting(state) != "over" and (turns is None or state.turn < start_turn + turns):
        state, events = play(state, choose(state))
        written += events
    return state, written
