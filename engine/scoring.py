"""Points for realms (SW-6, SW-7) and dice for battles (SW-5.2).

All functions read a realm's data and the board; none changes anything.
"""

from __future__ import annotations

from meeple.engine.board import neighbours_placed
from meeple.engine.realms import Realm
from meeple.engine.state import GameState

MAX_DICE = 3  # SW-5.2


def complete(state: GameState, realm: Realm) -> bool:
    """SW-6.2: a route or field with no open end left; a planet with all 8 neighbours placed."""
    if realm.kind == "planet":
        (x, y), = realm.tiles
        return neighbours_placed(state, x, y) == 8
    return realm.open == 0


def completed_points(realm: Realm) -> tuple[int, int, int]:
    """SW-6.3: (points, tiles, symbols) for a completed realm.

    >>> from meeple.engine.realms import Realm
    >>> completed_points(Realm("asteroid", (0, 0), "empire", 0, 0))
    (4, 1, 1)
    """
    symbols = realm.symbol_count()
    if realm.kind == "planet":
        return 9 + 2 * symbols, 9, symbols
    tiles = len(realm.tiles)
    per_tile = 2 if realm.kind == "asteroid" else 1
    return per_tile * tiles + 2 * symbols, tiles, symbols


def final_points(state: GameState, realm: Realm) -> tuple[int, int, int]:
    """SW-7.2: (points, tiles, symbols) for an incomplete realm at the end of the game."""
    symbols = realm.symbol_count()
    if realm.kind == "planet":
        (x, y), = realm.tiles
        tiles = 1 + neighbours_placed(state, x, y)
        return tiles + 2 * symbols, tiles, symbols
    tiles = len(realm.tiles)
    return tiles + 2 * symbols, tiles, symbols


def dice_for(state: GameState, realm: Realm, side: str) -> int:
    """SW-5.2 / SW-8.3: 1 per small meeple, 2 per large, +1 for a symbol of the side's faction, at most 3."""
    side_of = state.side_of
    dice = sum(2 if large else 1 for colour, large, _ in realm.meeples if side_of[colour] == side)
    if realm.symbols.get(state.faction[side]):
        dice += 1
    return min(dice, MAX_DICE)


def battle_sides(state: GameState, realm: Realm) -> list[str]:
    """The sides holding meeples in a realm, in seating order (SW-5.1, SW-8.2)."""
    present = {state.side_of[colour] for colour, _, _ in realm.meeples}
    return [side for side in state.sides if side in present]
