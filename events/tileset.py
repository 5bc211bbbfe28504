"""Tile set definitions as data: the format a tile set file is written in.

A tile set is recorded in full in every ``game_started`` event, so a log
replays without outside data. This module only describes the shape of the
data; the engine (``meeple.engine.tiles``) checks that it makes sense.
"""

# No `from __future__ import annotations` here: msgspec would evaluate each struct's
# annotations from strings when a decoder of them is built, at every command's start.

import functools
from typing import Annotated

import msgspec
from msgspec import Meta

from meeple.events.digest import sha256
from meeple.events.memo import by_identity
from meeple.events.text import control_char, fields_of_tileset, surely_clean

#: the most tiles a set may hold in all: about as many as a game log within its line limit
#: can record (each tile takes three or four lines: drawn, placed, meeple step, turn ended)
MAX_TILES = 20_000
#: the most tile types, features per tile and characters per name a set may have
MAX_TYPES = 2_000
MAX_FEATURES = 16
MAX_TEXT = 200

Text = Annotated[str, Meta(max_length=MAX_TEXT)]
Count = Annotated[int, Meta(ge=0, le=MAX_TILES)]


class Edges(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Kind of each side of a tile as printed (rotation 0)."""

    N: Text
    E: Text
    S: Text
    W: Text


class FeatureDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One feature of a tile, of a kind of its edition's vocabulary.

    A path, an area or a centre feature, with an optional symbol and name; an area may
    carry a ``pennant`` instead (for example a classic city); or a field given by the
    edge halves it touches (``ports``: ``Nw Ne En Es Se Sw Ws Wn``; none for an inner
    field) and the ``cities`` (indices in the tile's features) whose walls it borders.
    """

    kind: Text
    edges: Annotated[tuple[Text, ...], Meta(max_length=4)] = ()
    symbol: Text | None = None
    name: Text | None = None
    pennant: bool = False
    ports: Annotated[tuple[Text, ...], Meta(max_length=8)] = ()
    cities: Annotated[tuple[Annotated[int, Meta(ge=0, le=MAX_FEATURES)], ...],
                      Meta(max_length=MAX_FEATURES)] = ()


class TileDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One tile type: its id (typed by players in table mode), copies in the box, edges, features."""

    id: Text
    count: Count
    edges: Edges
    features: Annotated[tuple[FeatureDef, ...], Meta(max_length=MAX_FEATURES)] = ()
    note: str | None = None
    #: classic: the tile shows a cloister (agrees with its cloister feature)
    cloister: bool = False
    #: La Fiesta: the tile carries the festival symbol
    festival: bool = False
    sources: tuple[str, ...] = ()
    status: str | None = None


class TileSetDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True,
                 kw_only=True):
    """A whole tile set. ``start`` names the tile type one copy of which starts the game at (0, 0)."""

    edition: Text
    status: Text
    start: Text = ""  # empty only in an expansion's file
    tiles: Annotated[tuple[TileDef, ...], Meta(max_length=MAX_TYPES)]
    name: Text = ""
    format: int = 1
    source: str | None = None
    expansion: str | None = None
    ports: tuple[str, ...] = ()
    port_convention: str | None = None
    count_note: str | None = None
    rule: str | None = None
    inner_fields: str | None = None
    sources: dict[str, str] = {}


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(TileSetDef)


def canonical_bytes(definition: TileSetDef) -> bytes:
    """The canonical JSON encoding of a tile set, the input of its content hash."""
    return _encoder.encode(definition)


@by_identity(16)
def content_hash(definition: TileSetDef) -> str:
    """SHA-256 hex of the canonical encoding: whitespace and key order in a file do not matter."""
    return sha256(canonical_bytes(definition)).hexdigest()


@by_identity(16)
def limits_fault(definition: TileSetDef) -> tuple[str, str] | None:
    """What makes a decoded tile set too costly or unsafe to use, as ``(field, reason)``:
    more than ``MAX_TILES`` tiles in all, a control character in a name people see, or a
    tile id no one can read and type back (``untypeable``). (Per-field bounds are checked
    while decoding.)"""
    total = sum(tile.count for tile in definition.tiles)
    if total > MAX_TILES:
        return "tiles", f"the set holds {total:,} tiles; the limit is {MAX_TILES:,}"
    if not surely_clean(definition):
        for field, value in fields_of_tileset(definition):
            found = control_char(value)
            if found is not None:
                return field, (f"holds the control character {found}; tile ids, names and "
                               "kinds may not")
    for i, tile in enumerate(definition.tiles):
        why = untypeable(tile.id)
        if why is not None:
            return f"tiles[{i}].id", f"{why}; a tile id is typed by players (the draws of a table game)"
    return None


#: characters no one can see or type apart: format (zero-width, joiners, BOM, tags) and line
#: or paragraph separators
_INVISIBLE = frozenset({"Cf", "Zl", "Zp"})
#: characters that show nothing by themselves: spaces and combining marks
_BLANK = frozenset({"Zs", "Mn", "Me"})


def untypeable(tile_id: str) -> str | None:
    """Why a tile id cannot be read and typed back, or None: it holds an invisible character,
    or nothing but spaces and combining marks.

    >>> untypeable("L"), untypeable("a\u200bb"), untypeable(" ")
    (None, 'holds the invisible character U+200B', 'has no visible character')
    """
    if tile_id.isascii() and tile_id.strip():
        return None  # printable ASCII (control characters are refused before this)
    import unicodedata

    categories = [unicodedata.category(ch) for ch in tile_id]
    for ch, category in zip(tile_id, categories, strict=True):
        if category in _INVISIBLE:
            return f"holds the invisible character U+{ord(ch):04X}"
    if all(category in _BLANK for category in categories):
        return "has no visible character"
    return None


def decode_tileset(data: bytes) -> TileSetDef:
    """Decode a tile set file's bytes; raises ``msgspec.ValidationError`` / ``DecodeError``."""
    return _decoder.decode(data)


@functools.cache
def shipped() -> dict[str, str]:
    """The tile set files shipped with meeple (``engine/data/NAME.json``), by name: a new
    edition's set is found by dropping its file there."""
    from importlib import resources

    folder = resources.files("meeple.engine").joinpath("data")
    return {entry.name.removesuffix(".json"): entry.name for entry in folder.iterdir()
            if entry.name.endswith(".json")}


def bundled_bytes(name: str) -> bytes:
    """The file of a tile set shipped with meeple (see ``shipped``).

    :raises KeyError: an unknown name.
    """
    from importlib import resources

    return resources.files("meeple.engine").joinpath("data", shipped()[name]).read_bytes()


def bundled(name: str) -> TileSetDef:
    """A tile set shipped with meeple: ``star-wars``, ``classic`` or ``la-fiesta`` (an
    expansion's tiles, to add with ``with_expansion``).

    :raises KeyError: an unknown name.
    """
    return decode_tileset(bundled_bytes(name))


def with_expansion(base: TileSetDef, extra: TileSetDef) -> TileSetDef:
    """A base set with an expansion's tiles added; the weaker status of the two.

    :raises ValueError: the expansion reuses tile ids of the base set.
    """
    status = base.status if base.status == extra.status else (
        "partly verified" if "verified" in (base.status, extra.status) else "mixed")
    ids = {t.id for t in base.tiles}
    clash = [t.id for t in extra.tiles if t.id in ids]
    if clash:
        raise ValueError(f"{extra.name} reuses tile ids of {base.name}: {', '.join(clash)}")
    return msgspec.structs.replace(
        base, name=f"{base.name}+{extra.name}", status=status, tiles=base.tiles + extra.tiles,
        rule=extra.rule, inner_fields=extra.inner_fields,
        count_note=" ".join(n for n in (base.count_note, extra.count_note) if n) or None,
        sources={**base.sources, **extra.sources},
    )
