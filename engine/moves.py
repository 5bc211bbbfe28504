"""What the player to move may do: the one listing the CLI, the
library and bots share. It is built from the same board and realm code the rules check a
move with (``meeple.engine.board``, ``meeple.engine.deciding``), not a second judgement.
"""

from __future__ import annotations

import msgspec

from meeple.engine.deciding import legal_targets, moves_with_targets
from meeple.engine.flow import awaiting
from meeple.engine.state import GameState


class Move(msgspec.Struct, frozen=True):
    """A legal placement of the drawn tile, the meeple targets it allows and the figures the
    player may put there: ``PlaceMeeple(target, figure)`` for any pair
    of them."""

    x: int
    y: int
    rotation: int
    targets: tuple[str, ...]
    figures: tuple[str, ...] = ()


def legal_moves(state: GameState) -> list[Move]:
    """In the placement step, every legal placement with the targets it allows, sorted; in the
    meeple step, the placement made with its legal targets; else nothing. Targets and figures
    are empty when the player has no figure left."""
    waiting = awaiting(state)
    figures = tuple(name for name, left in state.reserve[state.player].items() if left)
    if waiting == "place":
        tile = state.in_hand
        return [Move(x, y, r, tuple(t) if figures and t else (), figures if t else ())
                for x, y, r, t in sorted(moves_with_targets(state, tile))]
    if waiting == "meeple":
        x, y = state.placed_cell
        targets = tuple(legal_targets(state)) if figures else ()
        return [Move(x, y, state.board[(x, y)].r * 90, targets, figures if targets else ())]
    return []
