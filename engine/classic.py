"""Classic Carcassonne, the 2011 base game with farmers (RULES.md Part 2), and La Fiesta."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from meeple.engine.edition import (
    Edition,
    Expansion,
    Figure,
    Look,
    Payment,
    Term,
    Vocabulary,
    sides_present,
)

if TYPE_CHECKING:
    from meeple.engine.realms import Realm
    from meeple.engine.state import GameState

#: CL-5: a completed cloister scores 9 (itself and its 8 neighbours)
CLOISTER_POINTS = 9
#: CL-6: a farm scores 3 per completed city it borders
FARM_POINTS_PER_CITY = 3

#: how classic games are drawn and told (``meeple.cli.pictures`` renders it)
LOOK = Look(
    realm_words={"road": "road", "city": "city", "cloister": "cloister", "field": "farm"},
    plurals={"city": "cities"},
    legend_words={"road": "road", "city": "city", "cloister": "cloister", "field": "field"},
    reasons={"farm": "{where}, 3 per completed city it borders: {formula}"},
    reason_words={"farm": "at the end"},
    reason_nouns={"farm": "farm"},
    glyphs={"cloister": "C", "pennant": "*"},
    styles={"pennant": "bold blue", "cloister": "bold red", "road": "white",
            "city": "dark_orange3", "field": "green4"},
    svg_defs=(
        (40, '<g id="sym-pennant"><path d="M-6,-6 H6 V1 Q6,6 0,8 Q-6,6 -6,1 Z" fill="#1e40af" '
             'stroke="#fff" stroke-width="1.2"/><path d="M-2.5,-3 H2.5 V2 L0,4 L-2.5,2 Z" '
             'fill="#fff"/></g>'),
        (41, '<g id="cloister"><rect x="-11" y="-6" width="22" height="17" fill="#e7dcc0" '
             'stroke="#5b4636" stroke-width="1.2"/><path d="M-14,-5 L0,-17 L14,-5 Z" '
             'fill="#b3261e" stroke="#5b4636" stroke-width="1.2"/><rect x="-3" y="2" width="6" '
             'height="9" fill="#5b4636"/></g>'),
    ),
    svg_style=(
        (20, ".city{fill:#c8a46a;stroke:#6b4a24;stroke-width:2.5}"),
        (21, ".road{fill:none;stroke:#f4efe1;stroke-width:7;stroke-linecap:round}"),
        (22, ".road-edge{fill:none;stroke:#8a7a5a;stroke-width:9;stroke-linecap:round}"),
    ),
    svg_kinds={"road": '<path class="road-edge" d="{d}"/><path class="road" d="{d}"/>',
               "city": '<path class="city" d="{d}"/>',
               "cloister": '<use href="#cloister" x="50" y="52"><title>cloister</title></use>'},
    svg_hub=("#8a7a5a", "#f4efe1"),
    symbol_names={"pennant": "pennant"},
    svg_legend={
        "city": ('<rect class="city" x="-11" y="-9" width="22" height="18"/>', "city"),
        "cloister": ('<use href="#cloister" transform="translate(0,3) scale(0.75)"/>',
                     "cloister"),
        "field": ('<rect x="-11" y="-9" width="22" height="18" fill="#6a9a3c" stroke="#4c7429"/>',
                  "field"),
    },
)


class Classic(Edition):
    """CL-1 to CL-6: followers all alike, majorities instead of battles, farms at the end."""

    name = "classic"
    title = "Carcassonne (2011 base game)"
    colours = ("red", "green", "blue", "yellow", "black")
    figures = (Figure("small", 7),)  # CL-2: followers, all alike
    figure = "follower"
    symbols = "pennants"
    roles = {"road": "thief", "city": "knight", "cloister": "monk", "field": "farmer"}  # CL-4
    look = LOOK
    take_back_mark = "festival symbol"  # CL-7
    vocabulary = Vocabulary(("field", "road", "city"), "road", "city", "cloister", "field", "CL-1")
    tileset = "classic"
    #: seven followers a player: one in reserve is worth about a short road's points
    reserve_worth = 2.0
    tileset_sha256 = {
        "classic": "396cd3d42b3d96a2c50cf15da7c7edf9bff1dd4ea73075fba0417b0a61d77c35",
        "classic+la-fiesta": "f504511ac6153f5a47548368e730cb8535638273990cb565703194fe7b091a63",
    }
    score_columns = {"farm": "farms"}
    rules = {
        "players": "CL-2", "place": "CL-3", "draw": "CL-3", "unplaceable": "CL-3",
        "meeple": "CL-4", "target": "CL-4", "reserve": "CL-2", "tiles": "CL-1",
        "start": "CL-1", "chance": "CL-3", "attack": "CL-4", "dice": "CL-3", "resolve": "CL-5",
        "contest": "CL-5", "take-back": "CL-7",
        "complete": "CL-5", "final": "CL-6", "end": "CL-6", "winners": "CL-6",
    }
    target_syntax = ("targets are road:E, city:N (edge N, E, S or W as the tile lies), cloister, "
                     "field:Nw (an edge half: Nw Ne En Es Se Sw Ws Wn) or field:inner")

    def completed_points(self, realm: Realm) -> tuple[int, int, int]:
        """CL-5: road 1 per tile; city 2 per tile + 2 per pennant, a 2-tile city 1 + 1;
        cloister 9.

        >>> from meeple.engine.realms import Realm
        >>> city = Realm.new("city", (0, 0), "pennant", 0, 0)
        >>> city.tiles.add((0, 1))
        >>> Classic().completed_points(city)
        (3, 2, 1)
        """
        symbols = realm.symbol_count()
        if realm.kind == "cloister":
            return CLOISTER_POINTS, CLOISTER_POINTS, 0
        tiles = len(realm.tiles)
        if realm.kind == "city":
            if tiles == 2:
                return tiles + symbols, tiles, symbols
            return 2 * tiles + 2 * symbols, tiles, symbols
        return tiles, tiles, 0

    def final_points(self, realm: Realm, neighbours: int) -> tuple[int, int, int]:
        """CL-6: road 1 per tile; city 1 per tile + 1 per pennant; cloister 1 + 1 per neighbour."""
        symbols = realm.symbol_count()
        tiles = 1 + neighbours if realm.kind == "cloister" else len(realm.tiles)
        return tiles + symbols, tiles, symbols

    def terms(self, reason: str, kind: str, tiles: int, symbols: int, dice: int,
              cities: int) -> tuple[Term, ...]:
        """CL-5 (completed: a 2-tile city 1 per tile and pennant), CL-6 (the end; a farm 3 per
        completed city it borders).

        >>> from meeple.engine.edition import formula
        >>> formula(Classic().terms("realm", "city", 5, 1, 0, 0))
        '5 tiles x 2 + 1 pennant x 2 = 12'
        """
        if reason == "farm":
            return (Term(cities, FARM_POINTS_PER_CITY, "completed city", "completed cities"),)
        if kind == "cloister":
            if reason == "realm":
                return (Term(1, CLOISTER_POINTS, "cloister", "cloisters"),)
            return (Term(tiles, 1, "tile (the cloister and its neighbours)",
                         "tiles (the cloister and its neighbours)"),)
        per = 2 if kind == "city" and reason == "realm" and tiles != 2 else 1
        base = Term(tiles, per, "tile", "tiles")
        return (base, Term(symbols, per, "pennant", "pennants")) if symbols else (base,)

    def would_score(self, holders: Mapping[str, int], side: str) -> bool:
        """CL-5: a side among those with the most followers scores the realm."""
        return bool(holders) and holders.get(side, 0) == max(holders.values())

    def final_payment(self, state: GameState, realm: Realm, neighbours: int) -> Payment | None:
        """CL-6: roads, cities and cloisters first (``final_points``), then the farms worth
        points: 3 per completed city each borders."""
        if realm.kind != self.vocabulary.field:
            return super().final_payment(state, realm, neighbours)
        points, cities = farm_points(state, realm)
        if not points:
            return None
        return Payment(1, points, "farm", len(realm.tiles), cities=cities)

    def scorers(self, realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
        """CL-5: every side with the most followers in the realm; ties score in full."""
        meeples = realm.meeples
        if len(meeples) == 1:  # (the most frequent case)
            return [side_of[meeples[0][0]]]
        counts: dict[str, int] = {}
        for colour, _, _ in meeples:
            counts[side_of[colour]] = counts.get(side_of[colour], 0) + 1
        if not counts:
            return []
        top = max(counts.values())
        return [side for side in sides_present(realm, side_of, sides) if counts[side] == top]


def farm_points(state: GameState, realm: Realm) -> tuple[int, int]:
    """CL-6: (points, cities) for a farm: 3 per completed city it borders, each city once."""
    realms = state.realms
    data = realms.data
    seen = set()
    cities = 0
    for root in realms.roots(realm.cities or ()):
        if root not in seen:
            seen.add(root)
            if data[root].open == 0:
                cities += 1
    return FARM_POINTS_PER_CITY * cities, cities


class LaFiesta(Expansion):
    """CL-7: 10 festival tiles; after placing one, a follower may be taken back."""

    name = "la-fiesta"
    title = "La Fiesta"
    edition = "classic"
    tileset = "la-fiesta"
    rule = "CL-7"
