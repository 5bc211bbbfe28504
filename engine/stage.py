"""Where a game stands, as one tagged value that carries what belongs to it (the library's
view; ``meeple.engine.flow.awaiting`` names it only): a match on ``Game.stage`` gets the
tile in hand only where there is one, the cell of the placement only in the figure step,
the dice owed only in a battle, the winners only at the end, and mypy checks that a match
forgets no stage (``typing.assert_never``).

The referee's own state keeps these as plain fields (``GameState``): the rules change them
on every event, and a plain field is what an interpreter reads fastest; a stage is made
when asked, from them.
"""

from __future__ import annotations

import msgspec

from meeple.engine.flow import awaiting
from meeple.engine.state import GameState
from meeple.events.model import Spot


class Drawing(msgspec.Struct, frozen=True, tag="draw"):
    """A draw to be entered (table mode), or made by every seat's reveals (remote games)."""

    player: str


class Placing(msgspec.Struct, frozen=True, tag="place"):
    """``player`` places ``tile``, the tile in hand."""

    player: str
    tile: str


class Deploying(msgspec.Struct, frozen=True, tag="meeple"):
    """``player`` places a figure on ``tile``, just placed at ``cell``, or skips."""

    player: str
    tile: str
    cell: tuple[int, int]


class Rolling(msgspec.Struct, frozen=True, tag="dice"):
    """A battle over ``realm`` waits for its dice: how many each side rolls."""

    player: str
    realm: Spot
    dice: dict[str, int]


class Resolving(msgspec.Struct, frozen=True, tag="resolve"):
    """The rules have consequences to write before anyone acts (``Game.resolve``)."""

    player: str


class Over(msgspec.Struct, frozen=True, tag="over"):
    """The game is over: the final scores and the sides sharing the victory."""

    scores: dict[str, int]
    winners: tuple[str, ...]


Stage = Drawing | Placing | Deploying | Rolling | Resolving | Over


def stage_of(state: GameState) -> Stage:
    """The stage of ``state``."""
    player = state.player
    match awaiting(state):
        case "place":
            return Placing(player, state.in_hand.id)
        case "meeple":
            cell = state.placed_cell
            return Deploying(player, state.board[cell].tile.id, cell)
        case "draw":
            return Drawing(player)
        case "dice":
            battle = state.battle
            assert battle is not None
            return Rolling(player, battle.spot, {s: battle.dice[s] for s in battle.active})
        case "over":
            return Over(dict(state.scores), tuple(state.winners or ()))
        case None:
            return Resolving(player)


__all__ = ["Deploying", "Drawing", "Over", "Placing", "Resolving", "Rolling", "Stage",
           "stage_of"]
