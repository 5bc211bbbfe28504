"""What the player to move may do: the one listing the CLI, the
library and bots share. It is built from the same board and realm code the rules check a
move with (``meeple.engine.board``, ``meeple.engine.deciding``), not a second judgement.
"""

from __future__ import annotations

import msgspec

from meeple.engine.board import placements
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, SkipMeeple, TakeBack
from meeple.engine.deciding import followers_to_take_back, legal_targets, moves_with_targets
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


def move_options(state: GameState) -> list[Command]:
    """The moves a search considers: every legal placement; then every figure on every free
    target, skipping, and where the tile lets one, taking a figure back.
    The same as the legal moves, in a fixed order."""
    waiting = awaiting(state)
    if waiting == "place":
        tile = state.in_hand
        return [PlaceTile(x, y, r) for x, y, r in placements(state, tile)]
    if waiting == "meeple":
        moves: list[Command] = [SkipMeeple()]
        figures = [name for name, left in state.reserve[state.player].items() if left]
        if figures:
            moves += [PlaceMeeple(target, figure) for target in legal_targets(state)
                      for figure in figures]
        moves += [TakeBack(spot.x, spot.y, spot.feature)
                  for spot in followers_to_take_back(state)]
        return moves
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


def step_after(state: GameState, placement: PlaceTile) -> tuple:
    """What names the figure step that follows ``placement`` from ``state`` (a bot that chose
    the placement keeps its step by it): the game's set-up, the step's ``seq`` and the
    placement. ``step_key`` of the state waiting for that step matches it."""
    return (state.setup, state.next_seq + 1, placement.x, placement.y, placement.rotation % 360)


def step_key(state: GameState) -> tuple | None:
    """``step_after`` as seen from a state waiting for a figure step; None otherwise."""
    if awaiting(state) != "meeple" or state.placed_at is None:
        return None
    x, y = state.placed_at
    return (state.setup, state.next_seq, x, y, state.board[(x, y)].r * 90)


def same_step(kept: tuple, state: GameState) -> bool:
    """Whether ``kept`` (``step_after``) names the figure step ``state`` waits for: the same
    game (its set-up object), ``seq`` and placement."""
    key = step_key(state)
    return key is not None and kept[0] is key[0] and kept[1:] == key[1:]
