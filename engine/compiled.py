"""Compiled tile sets kept: once per process, and as bytes between processes (the edition's tile rules).

Compiling a set (``meeple.engine.tiles.build_tileset``) costs several times what checking a
whole game's log does, and every command of the CLI plays on a set. ``compile_tileset``
keeps the sets it compiled by content hash (the last ``KEPT`` of them), so the same set is
compiled once in a process. Between processes, the compiled form is kept as bytes
(``encode_compiled``, ``decode_compiled``) in a cache the application turned on
(``meeple.events.tilecache.use``); the engine itself reads and writes no file.

A cache entry is trusted this far: the cache checks that its bytes are the ones written for
this set, meeple version and format (``meeple.events.tilecache``); it is decoded with
strict types, and must name the set's hash and this format, and hold the definition's
tiles, counts and feature counts in order, four rotations of each, with its ports and
centre on its features. Anything else reads as no entry: the set is compiled and the entry
rewritten. (What an entry holds beyond that is believed, as meeple's own files are: see
docs/performance.md, "Tile sets compiled once", on who can write the cache folder.)
"""

# No `from __future__ import annotations` here: msgspec would evaluate each struct's
# annotations from strings when a decoder of them is built, at every command's start.

import functools

import msgspec

from meeple.engine.editions import EditionNotInstalled, edition_named
from meeple.engine.geometry import ROTATIONS
from meeple.engine.tiles import Feature, Oriented, TileSet, TileType, build_tileset
from meeple.events import tilecache
from meeple.events.tileset import TileSetDef, content_hash

#: the number of the compiled form's layout, part of a cache entry's key: bump it whenever
#: what ``build_tileset`` produces changes (a test pins the bundled sets' encodings)
FORMAT = 1
#: how many compiled sets a process keeps (logs may carry many different sets)
KEPT = 8

_kept: dict[str, TileSet] = {}


class _Type(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A compiled tile type without what ``TileType`` works out from it."""

    id: str
    count: int
    features: tuple[Feature, ...]
    orientations: tuple[Oriented, Oriented, Oriented, Oriented]
    centre: int
    festival: bool
    fitting: dict[int, tuple[int, ...]]
    farms: bool
    attackable: bool


class _Form(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    format: int
    sha256: str
    start: str
    types: tuple[_Type, ...]


_encoder = msgspec.msgpack.Encoder()


@functools.cache
def _decoder() -> msgspec.msgpack.Decoder[_Form]:
    return msgspec.msgpack.Decoder(_Form)  # built when first needed: a cache hit


def compile_tileset(definition: TileSetDef) -> TileSet:
    """Check a tile set definition and compile it, or take the compiled set kept for its
    content hash (in this process, else in the cache turned on).

    :raises TileSetError: naming the tile and what is inconsistent.
    """
    sha = content_hash(definition)
    found = _kept.pop(sha, None)
    if found is None:
        cache = tilecache.active()
        payload = cache.read(sha, FORMAT) if cache is not None else None
        found = decode_compiled(payload, definition, sha) if payload is not None else None
        if found is None:
            found = build_tileset(definition, sha)
            if cache is not None:
                cache.write(sha, FORMAT, encode_compiled(found))
    _kept[sha] = found  # the most recently used last
    if len(_kept) > KEPT:
        del _kept[next(iter(_kept))]
    return found


def encode_compiled(tileset: TileSet) -> bytes:
    """The compiled form of a set as bytes (msgpack), for ``decode_compiled``; the
    orientations' memos are left out."""
    types = []
    for t in tileset.types.values():
        orientations = t.orientations
        if any(o.free_memo for o in orientations):
            a, b, c, d = (msgspec.structs.replace(o, free_memo={}) for o in orientations)
            orientations = (a, b, c, d)
        types.append(_Type(t.id, t.count, t.features, orientations, t.centre, t.festival,
                           t.fitting, t.farms, t.attackable))
    return _encoder.encode(_Form(FORMAT, tileset.sha256, tileset.start, tuple(types)))


def decode_compiled(data: bytes, definition: TileSetDef, sha: str) -> TileSet | None:
    """The compiled set ``encode_compiled`` wrote for ``definition`` (content hash ``sha``),
    or None where ``data`` is not one: undecodable, of another format or set, or not
    consistent with the definition (see the module's notes)."""
    try:
        form = _decoder().decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    try:
        edition = edition_named(definition.edition)
    except EditionNotInstalled:
        return None
    if (form.format != FORMAT or form.sha256 != sha
            or form.start != definition.start or len(form.types) != len(definition.tiles)):
        return None
    types: dict[str, TileType] = {}
    for wire, tile in zip(form.types, definition.tiles, strict=True):
        if not _consistent(wire, tile.id, tile.count, len(tile.features)):
            return None
        types[wire.id] = TileType(wire.id, wire.count, wire.features, wire.orientations,
                                  wire.centre, wire.festival, wire.fitting, wire.farms,
                                  attackable=wire.attackable)
    return TileSet(definition, sha, types, form.start, edition.vocabulary)


def _consistent(wire: _Type, tile_id: str, count: int, features: int) -> bool:
    """Whether a decoded tile type can be the definition's tile: its id, count and number
    of features, its four rotations in order, its ports and centre on its features."""
    if (wire.id, wire.count, len(wire.features)) != (tile_id, count, features) \
            or not -1 <= wire.centre < features:
        return False
    for rotation, o in zip(ROTATIONS, wire.orientations, strict=True):
        if o.rotation != rotation or len(o.ports) != 12 or o.free_memo \
                or not len(o.targets) == len(o.masks) == len(o.feature_sides) == features \
                or not -1 <= min(o.ports) <= max(o.ports) < features:
            return False
    return True
