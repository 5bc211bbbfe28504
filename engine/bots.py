"""Bots that choose moves: ``random`` and ``greedy`` (best immediate score gain).

Their choices come from the game's seed (stream ``bot``, indexed by the next
``seq``), so a bot game replays identically. Pure: they only read the state.
"""

from __future__ import annotations

from meeple.engine import chance
from meeple.engine.board import placements
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, SkipMeeple
from meeple.engine.decide import legal_targets
from meeple.engine.flow import awaiting
from meeple.engine.state import GameState


def _pick(state: GameState, what: str, n: int) -> int:
    return chance.below(state.seed, f"bot-{what}", state.next_seq, n)


def random_move(state: GameState) -> Command:
    """A uniformly random legal placement; then a meeple on a random target half the time."""
    waiting = awaiting(state)
    if waiting == "place":
        tile = state.tileset.types[state.drawn]  # type: ignore[index]
        options = placements(state, tile)
        x, y, rotation = options[_pick(state, "place", len(options))]
        return PlaceTile(x, y, rotation)
    if waiting == "meeple":
        small, large = state.reserve[state.player]
        targets = legal_targets(state) if small or large else []
        if not targets or _pick(state, "deploy", 2) == 0:
            return SkipMeeple()
        target = targets[_pick(state, "target", len(targets))]
        use_large = bool(large) and (not small or _pick(state, "size", 4) == 0)
        return PlaceMeeple(target, use_large)
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")
