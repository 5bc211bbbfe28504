"""Points for realms (SW-6, SW-7; CL-5, CL-6), who scores them, and dice for battles (SW-5.2).

All functions read a realm's data and the board; none changes anything.
"""

from __future__ import annotations

from meeple.engine.board import neighbours_placed
from meeple.engine.realms import Realm
from meeple.engine.state import GameState

MAX_DICE = 3  # SW-5.2


CENTRES = ("planet", "cloister")


def complete(state: GameState, realm: Realm) -> bool:
    """SW-6.2 / CL-5: a route, road, asteroid field or city with no open end left; a planet or
    cloister with all 8 neighbours placed; a farm never."""
    if realm.kind in CENTRES:
        (x, y), = realm.tiles
        return neighbours_placed(state, x, y) == 8
    if realm.kind == "field":
        return False
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
    if realm.kind == "cloister":
        return 9, 9, 0
    tiles = len(realm.tiles)
    if realm.kind == "city":
        if tiles == 2:  # CL-5: the 2-tile city
            return tiles + symbols, tiles, symbols
        return 2 * tiles + 2 * symbols, tiles, symbols
    if realm.kind == "road":
        return tiles, tiles, 0
    per_tile = 2 if realm.kind == "asteroid" else 1
    return per_tile * tiles + 2 * symbols, tiles, symbols


def final_points(state: GameState, realm: Realm) -> tuple[int, int, int]:
    """SW-7.2 / CL-6: (points, tiles, symbols) for an incomplete realm at the end of the game;
    a classic pennant counts 1, a faction symbol 2."""
    symbols = realm.symbol_count()
    per_symbol = 1 if realm.kind in ("city", "road", "cloister") else 2
    if realm.kind in CENTRES:
        (x, y), = realm.tiles
        tiles = 1 + neighbours_placed(state, x, y)
        return tiles + per_symbol * symbols, tiles, symbols
    tiles = len(realm.tiles)
    return tiles + per_symbol * symbols, tiles, symbols


def farm_points(state: GameState, realm: Realm) -> tuple[int, int]:
    """CL-6: (points, cities) for a farm: 3 per completed city it borders, each city once."""
    find = state.realms.find
    data = state.realms.data
    roots = {find(node) for node in realm.cities or ()}
    cities = sum(1 for root in roots if data[root].open == 0)  # type: ignore[union-attr]
    return 3 * cities, cities


def scorers(state: GameState, realm: Realm) -> list[str]:
    """Who scores a realm, in seating order: in Star Wars the one side left holding it
    (battles come first, SW-5); in the classic game every side with the most followers
    in it, ties scoring in full (CL-5)."""
    if not state.classic:
        return battle_sides(state, realm)
    counts: dict[str, int] = {}
    for colour, _, _ in realm.meeples:
        side = state.side_of[colour]
        counts[side] = counts.get(side, 0) + 1
    if not counts:
        return []
    top = max(counts.values())
    return [side for side in state.sides if counts.get(side) == top]


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
