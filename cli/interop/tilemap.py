"""The classic tiles as other programs name them, and each follower spot as they name it
(CL-1, CL-4), computed from meeple's own tile data.

A tile's features are read from the bundled tile set (``meeple.events.tileset``): roads and
cities by the sides they reach, fields by the edge halves they touch (``Nw Ne En Es Se Sw Ws
Wn``, clockwise from the north-west corner), the cloister at the centre. Turning a tile a
quarter clockwise moves a side one place along ``NESW`` and an edge half two places along
the halves. Meeple names a feature by the first side (``N E S W``) or half it reaches as the
tile lies; JCloisterZone names it by all of them (``locations``).
"""

from __future__ import annotations

from functools import cache

from meeple.events.tileset import TileDef, TileSetDef, bundled

SIDES = "NESW"
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
#: JCloisterZone's field halves, L and R as seen from the tile's centre looking out: looking
#: north the left is west, looking east it is north, and so on; the same order as ``HALVES``
JCZ_HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")

#: JCloisterZone 5's ids of the base game's tiles (tile set ``basic:1``), drawn in the same
#: rotation as meeple's letters; also written in the classic tile set's ``sources``
JCZ_BASE = {
    "BA/LR": "A", "BA/L": "B", "BA/Cccc+": "C", "BA/RCr": "D", "BA/C": "E", "BA/CFc+": "F",
    "BA/CFc.1": "G", "BA/CFC.2": "H", "BA/CC.2": "I", "BA/CRr": "J", "BA/RrC": "K",
    "BA/CRRR": "L", "BA/Cc+": "M", "BA/Cc.1": "N", "BA/CcRr+": "O", "BA/CcRr": "P",
    "BA/Ccc+": "Q", "BA/Ccc": "R", "BA/CccR+": "S", "BA/CccR": "T", "BA/RFr": "U",
    "BA/Rr": "V", "BA/RRR": "W", "BA/RRRR": "X",
}
#: La Fiesta's tiles (JCloisterZone's tile set ``festival``): the same names, ``/`` for
#: ``-``; matched by id, since FE/CRr and FE/RrC have the layouts of base J and K
JCZ_FIESTA = {f"FE/{name}": f"FE-{name}" for name in (
    "CCc", "CcCc", "CFR", "CR", "CRCR", "CRr", "LRR", "RC", "RrC", "RrRr")}
JCZ_TILES = {**JCZ_BASE, **JCZ_FIESTA}
JCZ_OF = {letter: jcz for jcz, letter in JCZ_TILES.items()}
#: tiles JCloisterZone draws turned from meeple's: JCloisterZone's unturned tile is meeple's
#: turned this many degrees clockwise (checked against JCloisterZone's tile definitions by
#: tests/interop/test_tile_layouts.py)
JCZ_TURNED = {"FE-CcCc": 90, "FE-RrRr": 90}

#: Board Game Arena's tile types 1-24 (CarcassonneLab's), by meeple's letter
BGA_TYPES = "TSNMPOGFIHEKJLDUVWXBACRQ"
#: types drawn a quarter turn (clockwise) from meeple's letter: turning meeple's tile by this
#: many degrees gives Board Game Arena's unturned tile
BGA_TURNED = {"U": 90}


def bga_type(letter: str) -> int:
    """Board Game Arena's type (1-24) of a classic letter."""
    return BGA_TYPES.index(letter) + 1


def jcz_sides(sides: frozenset[str]) -> str:
    """JCloisterZone's name of a road or city reaching ``sides`` (its ``Location``): one side
    by its letter, two or four by their letters in ``N W S E`` order read from N, three as
    ``_X``, X the side missing."""
    if len(sides) == 3:
        return "_" + next(s for s in SIDES if s not in sides)
    if len(sides) == 4:
        return "NWSE"
    if sides == {"E", "W"}:
        return "WE"
    return "".join(s for s in "NSWE" if s in sides) if len(sides) == 2 else next(iter(sides))


def _read_sides(text: str) -> frozenset[str] | None:
    if text == "NWSE":
        return frozenset(SIDES)
    if len(text) == 2 and text[0] == "_" and text[1] in SIDES:
        return frozenset(SIDES) - {text[1]}
    if 1 <= len(text) <= 2 and all(c in SIDES for c in text) and len(set(text)) == len(text):
        found = frozenset(text)
        return found if jcz_sides(found) == text else None
    return None


class Spot:
    """One follower spot of a tile as it lies: its kind (``road city field cloister``), the
    sides or halves it reaches, meeple's target and JCloisterZone's feature and location."""

    __slots__ = ("kind", "atoms", "target")

    def __init__(self, kind: str, atoms: tuple[str, ...]):
        self.kind = kind
        self.atoms = atoms
        if kind == "cloister":
            self.target = "cloister"
        elif not atoms:
            self.target = f"{kind}:inner"
        else:
            self.target = f"{kind}:{atoms[0]}"

    @property
    def jcz_feature(self) -> str:
        return {"road": "Road", "city": "City", "field": "Field", "cloister": "Monastery"}[self.kind]

    @property
    def jcz_location(self) -> str:
        if self.kind == "cloister" or not self.atoms:
            return "I"
        if self.kind == "field":
            return ".".join(JCZ_HALVES[HALVES.index(h)] for h in self.atoms)
        return jcz_sides(frozenset(self.atoms))


def turn_side(side: str, rotation: int) -> str:
    return SIDES[(SIDES.index(side) + rotation // 90) % 4]


def turn_half(half: str, rotation: int) -> str:
    return HALVES[(HALVES.index(half) + rotation // 45) % 8]


def spots(tile: TileDef, rotation: int) -> list[Spot]:
    """The follower spots of ``tile`` turned ``rotation`` degrees clockwise, in the order of
    the tile's features (CL-4: roads, cities, the cloister and fields hold followers)."""
    found = []
    for feature in tile.features:
        if feature.kind == "cloister":
            found.append(Spot("cloister", ()))
        elif feature.kind == "field":
            halves = {turn_half(h, rotation) for h in feature.ports}
            found.append(Spot("field", tuple(h for h in HALVES if h in halves)))
        else:
            sides = {turn_side(s, rotation) for s in feature.edges}
            found.append(Spot(feature.kind, tuple(s for s in SIDES if s in sides)))
    return found


def read_location(feature: str, location: str) -> tuple[str, frozenset[str]] | None:
    """The kind and the sides or halves a JCloisterZone ``feature`` and ``location`` name,
    or None for a name JCloisterZone would not write for the classic game."""
    kind = {"Road": "road", "City": "city", "Field": "field", "Monastery": "cloister"}.get(feature)
    if kind is None:
        return None
    if kind == "cloister" or location == "I":
        return (kind, frozenset()) if location == "I" and kind in ("cloister", "field") else None
    if kind == "field":
        parts = location.split(".")
        if not parts or any(p not in JCZ_HALVES for p in parts) or len(set(parts)) != len(parts):
            return None
        atoms = [HALVES[JCZ_HALVES.index(p)] for p in parts]
        if atoms != sorted(atoms, key=HALVES.index):
            return None
        return kind, frozenset(atoms)
    sides = _read_sides(location)
    return None if sides is None else (kind, sides)


@cache
def classic_tiles(fiesta: bool = False) -> dict[str, TileDef]:
    """The classic tile types by id (with La Fiesta's), from the bundled tile sets; checked
    against the JCloisterZone ids the classic set's ``sources`` record."""
    base: TileSetDef = bundled("classic")
    tiles = {tile.id: tile for tile in base.tiles}
    recorded = base.sources.get("jcz", "")
    for jcz, letter in JCZ_BASE.items():
        assert f"{letter}={jcz}" in recorded.split(), f"{letter}={jcz} is not in the tile data"
    if fiesta:
        tiles.update({tile.id: tile for tile in bundled("la-fiesta").tiles})
    return tiles
