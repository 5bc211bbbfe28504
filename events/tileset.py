"""Tile set definitions as data: the format a tile set file is written in (SW-1.1).

A tile set is recorded in full in every ``game_started`` event, so a log
replays without outside data. This module only describes the shape of the
data; the engine (``meeple.engine.tiles``) checks that it makes sense.
"""

from __future__ import annotations

import hashlib

import msgspec


class Edges(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Kind of each side of a tile as printed (rotation 0)."""

    N: str
    E: str
    S: str
    W: str


class FeatureDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One feature of a tile (SW-1.3, SW-1.4; classic: CL-1, CL-4).

    Star Wars: a route, an asteroid field or a planet, with an optional faction symbol
    and name. Classic: a road, a city (``pennant``), a cloister, or a field given by the
    edge halves it touches (``ports``: ``Nw Ne En Es Se Sw Ws Wn``; none for an inner
    field) and the ``cities`` (indices in the tile's features) whose walls it borders.
    """

    kind: str
    edges: tuple[str, ...] = ()
    symbol: str | None = None
    name: str | None = None
    pennant: bool = False
    ports: tuple[str, ...] = ()
    cities: tuple[int, ...] = ()


class TileDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One tile type: its id (typed by players in table mode), copies in the box, edges, features."""

    id: str
    count: int
    edges: Edges
    features: tuple[FeatureDef, ...] = ()
    note: str | None = None
    #: classic: the tile shows a cloister (agrees with its cloister feature)
    cloister: bool = False
    #: La Fiesta: the tile carries the festival symbol (CL-7)
    festival: bool = False
    sources: tuple[str, ...] = ()
    status: str | None = None


class TileSetDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True,
                 kw_only=True):
    """A whole tile set. ``start`` names the tile type one copy of which starts the game at (0, 0)."""

    edition: str
    status: str
    start: str = ""  # empty only in an expansion's file
    tiles: tuple[TileDef, ...]
    name: str = ""
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


def content_hash(definition: TileSetDef) -> str:
    """SHA-256 hex of the canonical encoding: whitespace and key order in a file do not matter."""
    return hashlib.sha256(canonical_bytes(definition)).hexdigest()


def decode_tileset(data: bytes) -> TileSetDef:
    """Decode a tile set file's bytes; raises ``msgspec.ValidationError`` / ``DecodeError``."""
    return _decoder.decode(data)
