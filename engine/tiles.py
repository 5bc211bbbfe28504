"""Tile sets: validation of a definition and its compiled, rotated form (SW-1.1 to SW-1.4).

The file format is ``meeple.events.tileset.TileSetDef`` (documented in the
README). ``compile_tileset`` checks it and precomputes, for every tile type and
rotation, the edge kinds, which feature holds each port, and the canonical
meeple target of each feature, so placement and realm tracking are lookups.
"""

from __future__ import annotations

import msgspec

from meeple.engine.errors import TileSetError
from meeple.engine.geometry import ROTATIONS, SIDE_INDEX, SIDES, turned
from meeple.events.tileset import TileSetDef, content_hash

EDGE_KINDS = ("space", "route", "asteroid")
FEATURE_KINDS = ("route", "asteroid", "planet")
FACTIONS = ("rebel", "empire", "bounty_hunter")


class Feature(msgspec.Struct, frozen=True):
    """One feature of a tile type as printed: kind, printed sides, symbol, name."""

    index: int
    kind: str
    sides: tuple[int, ...]
    symbol: str | None
    name: str | None


class Oriented(msgspec.Struct, frozen=True):
    """A tile type turned by one rotation: everything placement and realms look up."""

    rotation: int
    edges: tuple[str, str, str, str]
    #: feature index holding each of the 12 ports, or -1
    ports: tuple[int, ...]
    #: for each feature, the sides it reaches as the tile lies
    feature_sides: tuple[tuple[int, ...], ...]
    #: for each feature, its canonical target: ``route:E``, ``asteroid:N``, ``planet``
    targets: tuple[str, ...]
    #: for each feature, a bit per side it reaches (N=1, E=2, S=4, W=8)
    masks: tuple[int, ...]
    #: targets free when the sides in a bit mask lead to occupied realms, memoised
    free_memo: dict[int, list[str]] = msgspec.field(default_factory=dict)

    def free(self, held: int) -> list[str]:
        """Targets of features reaching none of the ``held`` sides (SW-4.2); planets always."""
        found = self.free_memo.get(held)
        if found is None:
            found = self.free_memo[held] = [
                t for t, m in zip(self.targets, self.masks, strict=True) if not m & held
            ]
        return found


class TileType(msgspec.Struct):
    """A tile type with its four orientations and a memo of which fit a neighbourhood."""

    id: str
    count: int
    features: tuple[Feature, ...]
    orientations: tuple[Oriented, Oriented, Oriented, Oriented]
    planet: int  # feature index of the planet, or -1
    fits_memo: dict[tuple, tuple[int, ...]] = msgspec.field(default_factory=dict)

    def fits(self, need: tuple) -> tuple[int, ...]:
        """Rotation indexes (0-3) whose edges match ``need`` (a kind or None per side, SW-3.1)."""
        found = self.fits_memo.get(need)
        if found is None:
            found = tuple(
                r
                for r, o in enumerate(self.orientations)
                if all(k is None or k == e for k, e in zip(need, o.edges, strict=True))
            )
            self.fits_memo[need] = found
        return found


class TileSet(msgspec.Struct):
    """A validated tile set: its definition, content hash and compiled tile types."""

    definition: TileSetDef
    sha256: str
    types: dict[str, TileType]
    start: str

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def status(self) -> str:
        return self.definition.status

    def total(self) -> int:
        return sum(t.count for t in self.types.values())


def _orient(features: tuple[Feature, ...], edges: tuple[str, ...], rotation: int) -> Oriented:
    quarter = rotation // 90
    lying = tuple(edges[(s - quarter) % 4] for s in range(4))
    ports = [-1] * 12
    feature_sides = []
    targets = []
    for f in features:
        sides = tuple(sorted(turned(s, rotation) for s in f.sides))
        feature_sides.append(sides)
        for s in sides:
            if f.kind == "route":
                ports[s * 3 + 1] = f.index
            else:
                ports[s * 3] = ports[s * 3 + 1] = ports[s * 3 + 2] = f.index
        targets.append("planet" if f.kind == "planet" else f"{f.kind}:{SIDES[sides[0]]}")
    masks = tuple(sum(1 << side for side in sides) for sides in feature_sides)
    return Oriented(rotation, lying, tuple(ports), tuple(feature_sides), tuple(targets),  # type: ignore[arg-type]
                    masks)


_COMPILED: dict[str, TileSet] = {}


def compile_tileset(definition: TileSetDef) -> TileSet:
    """Check a tile set definition and compile it; compiled sets are kept by content hash,
    so their placement memos stay warm across games.

    :raises TileSetError: naming the tile and what is inconsistent (SW-1.1 to SW-1.4).
    """
    sha = content_hash(definition)
    cached = _COMPILED.get(sha)
    if cached is None:
        cached = _COMPILED[sha] = _compile(definition, sha)
    return cached


def _compile(definition: TileSetDef, sha: str) -> TileSet:
    if definition.edition != "star-wars":
        raise TileSetError(
            f"tile set edition is {definition.edition!r}; this engine plays 'star-wars'",
            rule="SW-1.1",
        )
    types: dict[str, TileType] = {}
    for tile in definition.tiles:
        where = f"tile {tile.id!r}"
        if not tile.id or tile.id in types:
            raise TileSetError(f"{where}: ids must be unique and non-empty", rule="SW-1.1")
        if tile.count < 1:
            raise TileSetError(f"{where}: count must be at least 1", rule="SW-1.1")
        edges = (tile.edges.N, tile.edges.E, tile.edges.S, tile.edges.W)
        for letter, kind in zip(SIDES, edges, strict=True):
            if kind not in EDGE_KINDS:
                raise TileSetError(
                    f"{where}: edge {letter} is {kind!r}", rule="SW-1.2",
                    legal="edges are " + ", ".join(EDGE_KINDS),
                )
        features = []
        covered: dict[int, int] = {}
        planets = 0
        for index, fd in enumerate(tile.features):
            fwhere = f"{where} feature {index + 1} ({fd.kind})"
            if fd.kind not in FEATURE_KINDS:
                raise TileSetError(f"{fwhere}: unknown kind", rule="SW-1.3",
                                   legal="kinds are " + ", ".join(FEATURE_KINDS))
            if fd.symbol is not None and fd.symbol not in FACTIONS:
                raise TileSetError(f"{fwhere}: unknown symbol {fd.symbol!r}", rule="SW-1.4",
                                   legal="symbols are " + ", ".join(FACTIONS))
            sides = []
            for letter in fd.edges:
                if letter not in SIDE_INDEX:
                    raise TileSetError(f"{fwhere}: edge {letter!r} is not N, E, S or W",
                                       rule="SW-1.3")
                side = SIDE_INDEX[letter]
                if edges[side] != fd.kind:
                    raise TileSetError(
                        f"{fwhere}: reaches edge {letter}, which is {edges[side]}", rule="SW-1.3"
                    )
                if side in covered:
                    raise TileSetError(f"{fwhere}: edge {letter} already belongs to feature "
                                       f"{covered[side] + 1}", rule="SW-1.3")
                covered[side] = index
                sides.append(side)
            if fd.kind == "planet":
                planets += 1
                if sides:
                    raise TileSetError(f"{fwhere}: a planet sits at the centre and reaches "
                                       "no edge", rule="SW-1.3")
            elif not sides:
                raise TileSetError(f"{fwhere}: reaches no edge", rule="SW-1.3")
            elif fd.kind == "route" and len(sides) > 2:
                raise TileSetError(f"{fwhere}: a route segment joins at most two edges; "
                                   "an intersection is one route per edge", rule="SW-1.3")
            features.append(Feature(index, fd.kind, tuple(sides), fd.symbol, fd.name))
        if planets > 1:
            raise TileSetError(f"{where}: at most one planet per tile", rule="SW-1.3")
        for side, kind in enumerate(edges):
            if kind != "space" and side not in covered:
                raise TileSetError(f"{where}: edge {SIDES[side]} is {kind} but no feature "
                                   "reaches it", rule="SW-1.3")
        routes = [f for f in features if f.kind == "route"]
        stoppers = planets or any(f.kind == "asteroid" for f in features) or len(routes) >= 3
        if any(len(f.sides) == 1 for f in routes) and not stoppers:
            raise TileSetError(f"{where}: a route ends on the tile with nothing to stop it "
                               "(an intersection, asteroid field or planet)", rule="SW-1.3")
        feats = tuple(features)
        planet = next((f.index for f in feats if f.kind == "planet"), -1)
        types[tile.id] = TileType(
            tile.id, tile.count, feats,
            tuple(_orient(feats, edges, r) for r in ROTATIONS),  # type: ignore[arg-type]
            planet,
        )
    if definition.start not in types:
        raise TileSetError(f"start tile {definition.start!r} is not in the set", rule="SW-2.1")
    return TileSet(definition, sha, types, definition.start)
