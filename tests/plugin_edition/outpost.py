"""Outpost: a small edition that meeple does not ship, registered as a plug-in.

It differs from the bundled editions in its figures (scouts, and one captain that weighs 3),
in one feature kind (a ``beacon`` at the centre of a tile, with its own word, glyph and
SVG look) and in its scoring: the sides with the most strength in a realm score it (OP-5),
a completed route pays 3 a tile and a completed beacon 5 (OP-6).
"""

from __future__ import annotations

from importlib import resources

from meeple.engine.edition import Edition, Figure, Look, Term, Vocabulary

#: OP-6: a completed route pays this much a tile, a completed beacon this much
ROUTE_POINTS = 3
BEACON_POINTS = 5

LOOK = Look(
    realm_words={"route": "route", "asteroid": "asteroid belt", "beacon": "signal beacon"},
    legend_words={"route": "route", "asteroid": "asteroid belt", "beacon": "signal beacon"},
    glyphs={"beacon": "B"},
    styles={"route": "white", "asteroid": "grey50", "beacon": "bold green"},
    svg_style=((50, ".beacon{fill:#1f9d55;stroke:#d8ffe6;stroke-width:2}"),
               (51, ".trail{fill:none;stroke:#e2d7a7;stroke-width:6}"),
               (52, ".belt{fill:#7a6f63;stroke:#3f3830;stroke-width:1.5}")),
    svg_ground='<rect width="100" height="100" fill="#20243a"/>',
    svg_kinds={"route": '<path class="trail" d="{d}"/>',
               "asteroid": '<path class="belt" d="{d}"/>',
               "beacon": '<circle class="beacon" cx="50" cy="50" r="14"/>'},
    svg_hub=("#20243a", "#e2d7a7"),
    svg_legend={"asteroid": ('<rect class="belt" x="-11" y="-9" width="22" height="18"/>',
                             "asteroid belt"),
                "beacon": ('<circle class="beacon" r="9"/>', "signal beacon")},
)


class Outpost(Edition):
    """OP-1 to OP-7: scouts and a captain, beacons, the strongest side scores."""

    name = "outpost"
    title = "Outpost (a plug-in edition)"
    colours = ("red", "blue", "green")
    figures = (Figure("scout", 3), Figure("captain", 1, strength=3))  # OP-2
    figure = "agent"
    players = (2, 3)
    vocabulary = Vocabulary(("space", "route", "asteroid"), "route", "asteroid", "beacon", None,
                            "OP-1")
    tileset = "outpost"
    look = LOOK
    rules = {
        "players": "OP-2", "place": "OP-3", "draw": "OP-3", "unplaceable": "OP-3",
        "meeple": "OP-4", "target": "OP-4", "reserve": "OP-2", "tiles": "OP-1",
        "start": "OP-1", "chance": "OP-3", "attack": "OP-4", "dice": "OP-5", "resolve": "OP-5",
        "complete": "OP-6", "final": "OP-7", "end": "OP-7", "winners": "OP-7", "contest": "OP-5",
        "take-back": "OP-4",
    }
    target_syntax = "targets are route:E, asteroid:N (edge N, E, S or W as the tile lies), beacon"

    def tileset_file(self) -> bytes:
        return resources.files(__package__).joinpath("outpost.json").read_bytes()

    def rulebook(self) -> str:
        return resources.files(__package__).joinpath("rules.toml").read_text(encoding="utf-8")

    def completed_points(self, realm) -> tuple[int, int, int]:
        """OP-6: a route 3 a tile, an asteroid belt 2 a tile, a beacon 5."""
        if realm.kind == "beacon":
            return BEACON_POINTS, 1, 0
        tiles = len(realm.tiles)
        return (ROUTE_POINTS if realm.kind == "route" else 2) * tiles, tiles, 0

    def final_points(self, realm, neighbours: int) -> tuple[int, int, int]:
        """OP-7: 1 a tile (a beacon: itself and its neighbours)."""
        tiles = 1 + neighbours if realm.kind == "beacon" else len(realm.tiles)
        return tiles, tiles, 0

    def scorers(self, realm, side_of, sides) -> list[str]:
        """OP-5: every side with the most strength in the realm (a captain weighs 3)."""
        strength: dict[str, int] = {}
        for colour, figure, _ in realm.meeples:
            side = side_of[colour]
            strength[side] = strength.get(side, 0) + self.strengths[figure]
        if not strength:
            return []
        top = max(strength.values())
        return [side for side in sides if strength.get(side) == top]

    def would_score(self, holders, side) -> bool:
        return bool(holders) and holders.get(side, 0) == max(holders.values())

    def terms(self, reason, kind, tiles, symbols, dice, cities) -> tuple[Term, ...]:
        if reason == "realm" and kind == "beacon":
            return (Term(1, BEACON_POINTS, "beacon", "beacons"),)
        per = (ROUTE_POINTS if kind == "route" else 2) if reason == "realm" else 1
        return (Term(tiles, per, "tile", "tiles"),)
