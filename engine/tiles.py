"""Tile sets: validation of a definition and its compiled, rotated form.

The file format is ``meeple.events.tileset.TileSetDef`` (documented in the
docs/tilesets.md). ``build_tileset`` checks it and precomputes, for every tile type and
rotation, the edge kinds, which feature holds each port, and the canonical
meeple target of each feature, so placement and realm tracking are lookups.

Every edition shares one model. Each side has three ports, left, middle and
right: a path holds the middle port, an area all three, a field the left or right
half of a side (``Nw`` is the west half of the north side); a centre feature and an
inner field hold none.
"""

# No `from __future__ import annotations` here: msgspec would evaluate each struct's
# annotations from strings when a decoder of them is built, at every command's start.

from typing import cast

import msgspec

from meeple.engine.edition import Edition, Vocabulary
from meeple.engine.editions import EDITIONS, EditionNotInstalled, edition_named
from meeple.engine.errors import TileSetError
from meeple.engine.geometry import FACING, ROTATIONS, SIDE_INDEX, SIDES, turned
from meeple.events.tileset import TileSetDef

#: the content hash of each tile set (and combination) the bundled editions pin
#: (``Edition.tileset_sha256``)
BUNDLED_SHA256 = {name: sha for e in EDITIONS.values() for name, sha in e.tileset_sha256.items()}


def pinned_sha256(name: str) -> str | None:
    """The content hash a registered edition pins for a set of this name: a set that carries
    the name with another hash is someone's modified copy, and is shown as one."""
    for edition in EDITIONS.values():
        found = edition.tileset_sha256.get(name)
        if found is not None:
            return found
    return None


#: port index of each edge half a field may hold: side * 3 + position (0 left, 2 right, seen from inside)
HALF_PORTS = {"Nw": 0, "Ne": 2, "En": 3, "Es": 5, "Se": 6, "Sw": 8, "Ws": 9, "Wn": 11}
PORT_HALVES = {port: name for name, port in HALF_PORTS.items()}


class Feature(msgspec.Struct, frozen=True):
    """One feature of a tile type as printed: kind, printed sides, symbol (a faction, or
    ``pennant``), name; a field's printed ports and the cities it borders (feature indices)."""

    index: int
    kind: str
    sides: tuple[int, ...]
    symbol: str | None
    name: str | None
    ports: tuple[int, ...] = ()
    cities: tuple[int, ...] = ()


class Oriented(msgspec.Struct, frozen=True):
    """A tile type turned by one rotation: everything placement and realms look up."""

    rotation: int
    edges: tuple[str, str, str, str]
    #: feature index holding each of the 12 ports, or -1
    ports: tuple[int, ...]
    #: for each feature, the sides it reaches as the tile lies
    feature_sides: tuple[tuple[int, ...], ...]
    #: for each feature, its canonical target: ``route:E``, ``asteroid:N``, ``planet``,
    #: ``road:E``, ``city:N``, ``cloister``, ``field:Nw``, ``field:inner``
    targets: tuple[str, ...]
    #: for each feature, a bit per port it holds (bit ``side * 3 + position``)
    masks: tuple[int, ...]
    #: every name of each feature (any edge or half it reaches) -> feature index
    aliases: dict[str, int]
    #: what each side asks of the cell across it, as a frontier need (see ``need_bits``):
    #: the edge kind's code shifted to the facing side of that cell
    offers: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: for each side, (the port facing it on the tile across, feature index) of its ports that
    #: a feature holds, in port order
    side_ports: tuple[tuple[tuple[int, int], ...], ...] = ()
    #: the features but the centre one by the first side they reach as the tile lies, N, E,
    #: S, W, inner ones last (the order a turn's realms are settled in)
    turn_order: tuple[int, ...] = ()
    #: what the tile shows an empty cell whose side ``side`` touches it, for each side of that
    #: cell: (a bit per port of the cell, this tile's feature there) for each feature of the
    #: tile at the ports that decide whether a feature is free (``probe_positions``)
    faces: tuple[tuple[tuple[int, int], ...], ...] = ()
    #: ``free``'s answers, by its argument
    free_memo: dict[int, tuple[str, ...]] = msgspec.field(default_factory=dict)

    def free(self, touching: int) -> tuple[str, ...]:
        """The targets whose realm, once the tile lies, holds no meeple.

        ``touching`` says what touches the tile's ports, ``PORTS`` bits a field: the first
        field has a bit for each port that touches a realm holding a meeple; each further
        field is the ports where one realm touches at two or more, whose features of this
        tile become one realm (two fields of the tile that border one farm are one farm), so
        one of them held holds them all. Centres are always free. Memoised (up to
        ``FREE_MEMO_LIMIT`` answers).
        """
        found = self.free_memo.get(touching)
        if found is None:
            found = self._free(touching)
            if len(self.free_memo) < FREE_MEMO_LIMIT:
                self.free_memo[touching] = found
        return found

    def _free(self, touching: int) -> tuple[str, ...]:
        held = touching & _ALL_PORTS
        group = list(range(len(self.targets)))  # union-find over this tile's features

        def top(f: int) -> int:
            while group[f] != f:
                f = group[f]
            return f

        for shift in range(PORTS, touching.bit_length(), PORTS):
            mask = touching >> shift & _ALL_PORTS
            joined = [f for port, f in enumerate(self.ports) if f >= 0 and mask >> port & 1]
            for f in joined[1:]:
                group[top(f)] = top(joined[0])
        busy = {top(f) for f, m in enumerate(self.masks) if m & held}
        return tuple(t for f, t in enumerate(self.targets) if top(f) not in busy)


#: the most answers each orientation's ``free`` keeps
FREE_MEMO_LIMIT = 4096
#: ports of a tile, three a side
PORTS = 12
_ALL_PORTS = (1 << PORTS) - 1

#: bits per side in a frontier need: an edge kind's code, 1 to 7, or 0 where no tile touches
NEED_BITS = 3


def need_bits(side: int, code: int) -> int:
    """The part of a frontier need that says side ``side`` must be edge kind ``code``.

    A need is an int holding a code per side (``NEED_BITS`` each, N lowest), so the
    frontier's needs are compared, counted and looked up as small integers.
    """
    return code << (NEED_BITS * side)


def fit_table(orientations: tuple[Oriented, ...],
              codes: dict[str, int]) -> dict[int, tuple[int, ...]]:
    """Every frontier need a tile type fits, with the rotation indexes (0-3) that fit it:
    for each rotation, each non-empty set of its sides that neighbours touch."""
    table: dict[int, list[int]] = {}
    needs = [0] * 16  # by the bit set of the sides touched: each is a smaller set's need + one side
    for r, o in enumerate(orientations):
        mine = [need_bits(side, codes[o.edges[side]]) for side in range(4)]
        for touched in range(1, 16):
            need = needs[touched] = needs[touched & (touched - 1)] \
                + mine[(touched & -touched).bit_length() - 1]
            found = table.setdefault(need, [])
            if r not in found:
                found.append(r)
    table[0] = [0, 1, 2, 3]  # the first tile, touched by none
    return {need: tuple(rs) for need, rs in table.items()}


def probe_positions(vocabulary: Vocabulary) -> tuple[int, ...]:
    """The port positions whose neighbours decide whether a feature is free: the middle one
    in an edition without fields, all three in one with fields (they hold the halves)."""
    return (1,) if vocabulary.field is None else (0, 1, 2)


def edge_codes(vocabulary: Vocabulary) -> dict[str, int]:
    """The code of each edge kind in a frontier need, 1 up (0 is "no tile touches")."""
    assert len(vocabulary.edges) < 1 << NEED_BITS
    return {kind: index + 1 for index, kind in enumerate(vocabulary.edges)}


class TileType(msgspec.Struct):
    """A tile type with its four orientations and which of them fit each frontier need."""

    id: str
    count: int
    features: tuple[Feature, ...]
    orientations: tuple[Oriented, Oriented, Oriented, Oriented]
    centre: int  # feature index of the centre feature, or -1
    festival: bool = False
    #: frontier need -> the rotation indexes that fit it; needs absent fit no rotation
    fitting: dict[int, tuple[int, ...]] = msgspec.field(default_factory=dict)
    #: whether a field of the tile borders a city
    farms: bool = False
    #: ``fitting`` in degrees
    degrees: dict[int, tuple[int, ...]] = msgspec.field(default_factory=dict)
    #: how many rotations fit each need of ``fitting``
    widths: dict[int, int] = msgspec.field(default_factory=dict)
    #: the most rotations that fit any need but the empty board's (``sample_placement``)
    most_rotations: int = 1
    #: its centre feature is one the edition lets meeples attack from around it
    attackable: bool = False

    def __post_init__(self) -> None:
        turns = _DEGREES
        self.degrees = {need: turns.get(rs) or tuple(r * 90 for r in rs)
                        for need, rs in self.fitting.items()}
        self.widths = widths = {need: len(rs) for need, rs in self.fitting.items()}
        self.most_rotations = max((n for need, n in widths.items() if need), default=1)


#: each set of rotation indexes a need can fit, in degrees (``TileType.degrees``)
_DEGREES = {tuple(r for r in range(4) if subset >> r & 1):
            tuple(r * 90 for r in range(4) if subset >> r & 1) for subset in range(1, 16)}


class TileSet(msgspec.Struct):
    """A validated tile set: its definition, content hash and compiled tile types."""

    definition: TileSetDef
    sha256: str
    types: dict[str, TileType]
    start: str
    vocabulary: Vocabulary
    tiles_total: int = -1

    @property
    def name(self) -> str:
        """The set's name as shown: a bundled name on other content reads as a modified copy
        (``NAME (modified, sha256 1a2b3c4d5e6f)``)."""
        name = self.definition.name
        bundled = pinned_sha256(name)
        if bundled is not None and bundled != self.sha256:
            return f"{name} (modified, sha256 {self.sha256[:12]})"
        return name

    @property
    def status(self) -> str:
        return self.definition.status

    def total(self) -> int:
        """How many tiles the set holds, the start tile included."""
        if self.tiles_total < 0:
            self.tiles_total = sum(t.count for t in self.types.values())
        return self.tiles_total


def _orient(features: tuple[Feature, ...], edges: tuple[str, ...], rotation: int,
            vocabulary: Vocabulary, codes: dict[str, int]) -> Oriented:
    quarter = rotation // 90
    lying = tuple(edges[(s - quarter) % 4] for s in range(4))
    ports = [-1] * 12
    feature_sides = []
    targets = []
    masks = []
    aliases: dict[str, int] = {}
    for f in features:
        sides = tuple(sorted(turned(s, rotation) for s in f.sides))
        feature_sides.append(sides)
        if f.kind == vocabulary.field:
            held = sorted(((p // 3 + quarter) % 4) * 3 + p % 3 for p in f.ports)
            names = [PORT_HALVES[p] for p in held] or ["inner"]
            targets.append(f"{f.kind}:{names[0]}")
            for name in names:
                aliases[f"{f.kind}:{name}"] = f.index
        elif f.kind == vocabulary.centre:
            held = []
            targets.append(f.kind)
            aliases[f.kind] = f.index
        else:
            positions = (1,) if f.kind == vocabulary.path else (0, 1, 2)
            held = [s * 3 + pos for s in sides for pos in positions]
            targets.append(f"{f.kind}:{SIDES[sides[0]]}")
            for s in sides:
                aliases[f"{f.kind}:{SIDES[s]}"] = f.index
        for port in held:
            ports[port] = f.index
        masks.append(sum(1 << port for port in held))
        feature_sides[-1] = tuple(sorted(set(sides) | {p // 3 for p in held}))
    offers = tuple(need_bits((side + 2) % 4, codes[lying[side]]) for side in range(4))
    order = sorted((feature_sides[f.index][0] if feature_sides[f.index] else 4, f.index)
                   for f in features if f.kind != vocabulary.centre)
    probes = probe_positions(vocabulary)
    faces = []
    for side in range(4):
        bits: dict[int, int] = {}  # feature -> the cell's ports facing it
        for port in range(side * 3, side * 3 + 3):
            feature = ports[FACING[port]]
            if port % 3 in probes and feature >= 0:
                bits[feature] = bits.get(feature, 0) | 1 << port
        faces.append(tuple((mask, feature) for feature, mask in bits.items()))
    # (the tuples have one entry per feature, four offers: their lengths are the format's)
    return Oriented(rotation, cast(tuple[str, str, str, str], lying), tuple(ports),
                    tuple(feature_sides), tuple(targets),
                    tuple(masks), aliases, cast(tuple[int, int, int, int], offers),
                    tuple(tuple((FACING[port], ports[port]) for port in range(side * 3, side * 3 + 3)
                                if ports[port] >= 0) for side in range(4)),
                    tuple(index for _, index in order), tuple(faces))


def build_tileset(definition: TileSetDef, sha: str) -> TileSet:
    """Check a tile set definition whose content hash is ``sha`` and compile it (what
    ``meeple.engine.compiled.compile_tileset`` does when it has no compiled copy).

    :raises TileSetError: naming the tile and what is inconsistent.
    """
    try:
        edition = edition_named(definition.edition)
    except EditionNotInstalled as exc:
        raise TileSetError(f"tile set edition is {definition.edition!r}: {exc.message}",
                           legal=exc.legal) from None
    vocabulary = edition.vocabulary
    rule = vocabulary.rule
    types: dict[str, TileType] = {}
    codes = edge_codes(vocabulary)
    for tile in definition.tiles:
        where = f"tile {tile.id!r}"
        if not tile.id or tile.id in types:
            raise TileSetError(f"{where}: ids must be unique and non-empty", rule=rule)
        if tile.count < 1:
            raise TileSetError(f"{where}: count must be at least 1", rule=rule)
        edges = (tile.edges.N, tile.edges.E, tile.edges.S, tile.edges.W)
        for letter, kind in zip(SIDES, edges, strict=True):
            if kind not in vocabulary.edges:
                raise TileSetError(
                    f"{where}: edge {letter} is {kind!r}", rule=rule,
                    legal="edges are " + ", ".join(vocabulary.edges),
                )
        features = _features(tile, edges, edition, where)
        feats = tuple(features)
        centre = next((f.index for f in feats if f.kind == vocabulary.centre), -1)
        if tile.cloister != (vocabulary.field is not None and centre >= 0):
            if vocabulary.field is not None:
                raise TileSetError(f"{where}: 'cloister' is {str(tile.cloister).lower()} but the "
                                   "tile has " + ("a" if centre >= 0 else "no") + " cloister "
                                   "feature", rule=rule)
            raise TileSetError(f"{where}: 'cloister' belongs to tile sets of an edition with "
                               "fields", rule=rule)
        a, b, c, d = (_orient(feats, edges, r, vocabulary, codes) for r in ROTATIONS)
        orientations = (a, b, c, d)
        types[tile.id] = TileType(tile.id, tile.count, feats, orientations,
                                  centre, tile.festival,
                                  fit_table(orientations, codes),
                                  any(f.cities for f in feats),
                                  attackable=centre >= 0 and feats[centre].kind == edition.attack)
    if definition.start not in types:
        raise TileSetError(f"start tile {definition.start!r} is not in the set",
                           rule=edition.rule("start"))
    return TileSet(definition, sha, types, definition.start, vocabulary)


def _features(tile, edges: tuple[str, ...], edition: Edition, where: str) -> list[Feature]:
    """Check a tile's features against its edges and the edition's words, and build them."""
    vocabulary = edition.vocabulary
    rule = vocabulary.rule
    fields = vocabulary.field is not None
    features = []
    covered: dict[int, int] = {}
    halves: dict[int, int] = {}
    centres = 0
    for index, fd in enumerate(tile.features):
        fwhere = f"{where} feature {index + 1} ({fd.kind})"
        if fd.kind not in vocabulary.kinds:
            raise TileSetError(f"{fwhere}: unknown kind", rule=rule,
                               legal="kinds are " + ", ".join(vocabulary.kinds))
        if fields and (fd.symbol is not None or fd.name is not None):
            raise TileSetError(f"{fwhere}: tiles of an edition with fields carry pennants, not "
                               "symbols or names",
                               rule=rule)
        if fd.symbol is not None and fd.symbol not in edition.tile_symbols:
            raise TileSetError(f"{fwhere}: unknown symbol {fd.symbol!r}",
                               rule=edition.rules.get("symbols", rule),
                               legal="symbols are " + (", ".join(edition.tile_symbols) or "none"))
        if fd.pennant and fd.kind != vocabulary.area or not fields and fd.pennant:
            raise TileSetError(f"{fwhere}: only an area of an edition with fields carries a "
                               "pennant", rule=rule)
        if fd.kind != vocabulary.field and (fd.ports or fd.cities):
            raise TileSetError(f"{fwhere}: only a field has ports and cities", rule=rule)
        sides = []
        for letter in fd.edges:
            if letter not in SIDE_INDEX:
                raise TileSetError(f"{fwhere}: edge {letter!r} is not N, E, S or W", rule=rule)
            side = SIDE_INDEX[letter]
            if edges[side] != fd.kind:
                raise TileSetError(
                    f"{fwhere}: reaches edge {letter}, which is {edges[side]}", rule=rule
                )
            if side in covered:
                raise TileSetError(f"{fwhere}: edge {letter} already belongs to feature "
                                   f"{covered[side] + 1}", rule=rule)
            covered[side] = index
            sides.append(side)
        ports = []
        if fd.kind == vocabulary.field:
            if sides:
                raise TileSetError(f"{fwhere}: a field is given by its 'ports' (edge halves), "
                                   "not 'edges'", rule=rule)
            for name in fd.ports:
                port = HALF_PORTS.get(name)
                if port is None:
                    raise TileSetError(f"{fwhere}: port {name!r} is not an edge half", rule=rule,
                                       legal="ports are " + " ".join(HALF_PORTS))
                if edges[port // 3] not in (vocabulary.field, vocabulary.path):
                    raise TileSetError(f"{fwhere}: port {name} lies on a {edges[port // 3]} edge; "
                                       "fields touch only field and road edges", rule=rule)
                if port in halves:
                    raise TileSetError(f"{fwhere}: port {name} already belongs to feature "
                                       f"{halves[port] + 1}", rule=rule)
                halves[port] = index
                ports.append(port)
            for city in fd.cities:
                if not (0 <= city < len(tile.features)
                        and tile.features[city].kind == vocabulary.area):
                    raise TileSetError(f"{fwhere}: cities lists {city}, which is not the index of "
                                       "a city on this tile", rule=rule)
        elif fd.kind == vocabulary.centre:
            centres += 1
            if sides:
                raise TileSetError(f"{fwhere}: a {fd.kind} sits at the centre and reaches "
                                   "no edge", rule=rule)
        elif not sides:
            raise TileSetError(f"{fwhere}: reaches no edge", rule=rule)
        elif fd.kind == vocabulary.path and len(sides) > 2:
            raise TileSetError(f"{fwhere}: a {fd.kind} segment joins at most two edges; "
                               "a crossing is one segment per edge", rule=rule)
        symbol = "pennant" if fd.pennant else fd.symbol
        features.append(Feature(index, fd.kind, tuple(sides), symbol, fd.name, tuple(ports),
                                tuple(fd.cities)))
    if centres > 1:
        raise TileSetError(f"{where}: at most one {vocabulary.centre} per tile", rule=rule)
    for side, kind in enumerate(edges):
        if kind not in (vocabulary.edges[0],) and side not in covered:
            raise TileSetError(f"{where}: edge {SIDES[side]} is {kind} but no feature "
                               "reaches it", rule=rule)
    if fields:
        for side, kind in enumerate(edges):
            for pos in (0, 2):
                if kind != vocabulary.area and side * 3 + pos not in halves:
                    raise TileSetError(f"{where}: edge half {PORT_HALVES[side * 3 + pos]} "
                                       f"({kind} edge) belongs to no field", rule=rule)
    paths = [f for f in features if f.kind == vocabulary.path]
    stoppers = centres or any(f.kind == vocabulary.area for f in features) or len(paths) >= 3
    if any(len(f.sides) == 1 for f in paths) and not stoppers:
        raise TileSetError(f"{where}: a {vocabulary.path} ends on the tile with nothing to stop "
                           "it (a crossing, a " + vocabulary.area + " or a " + vocabulary.centre
                           + ")", rule=rule)
    return features
