"""Reading logs of older schema versions, and continuing them in their own schema
(DESIGN.md, "Versioning").

A breaking change to the event format bumps ``SCHEMA_VERSION`` and adds one function to
``UPCASTERS`` that turns a raw line of version n into version n + 1. Lines of an old log are
decoded as plain dicts, passed up the chain, then decoded as events. New fields with
defaults need no upcaster. ``game_started.schema`` keeps the schema the log is written in:
read into today's events, it still says which schema the game's lines are in.

A game begun under an older schema is continued in that schema, so that the log stays one
schema from its first line to its last and the meeple that began it can still read it:
each step has a matching function in ``DOWNCASTERS`` (n + 1 to n), used only for writing.
Schema 2 named figures (``"figure": "large"``) where schema 1 wrote ``"large": true``.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from meeple.events.model import DECODER, SCHEMA_VERSION, AnyEvent, Event, encode


class NotInSchema(ValueError):
    """An event that an older schema cannot express (e.g. a figure schema 1 had no word for)."""


#: the events that carry a figure: schema 1 wrote ``large``, schema 2 ``figure``
_FIGURED = ("meeple_placed", "meeple_returned")
#: schema 1's only figures
_V1_FIGURES = ("small", "large")
#: fields with a default that schema 1 gained after its first meeples (with the classic
#: edition), which those refuse as unknown: written in schema 1 only where not the default,
#: so that every meeple that writes schema 1 reads the lines continuing its game
_V1_LATER = {"points_scored": ("cities", 0), "game_ended": ("seed", None),
             "game_started": ("seed_sha256", None)}


def _v1_to_v2(raw: dict) -> dict:
    """Schema 1 to 2: ``"large": true|false`` becomes ``"figure": "large"|"small"``, in place
    of ``large`` among the fields."""
    if raw.get("type") not in _FIGURED:
        return raw
    if "figure" in raw:
        raise msgspec.ValidationError("Object contains unknown field `figure` (schema 1 writes "
                                      "`large`) - at `$`")
    if "large" not in raw:
        if raw.get("type") == "meeple_returned":
            raise msgspec.ValidationError("Object missing required field `large` - at `$`")
        return raw
    large = raw["large"]
    if not isinstance(large, bool):
        raise msgspec.ValidationError(f"Expected `bool`, got `{_json_type(large)}` - at "
                                      "`$.large`")
    return {("figure" if k == "large" else k): (("large" if large else "small") if k == "large"
                                                else v) for k, v in raw.items()}


def _v2_to_v1(raw: dict) -> dict:
    """Schema 2 to 1, for writing: the inverse of ``_v1_to_v2``, and the fields schema 1
    gained later left out where they hold their default (``_V1_LATER``).

    :raises NotInSchema: for a figure other than small and large.
    """
    later = _V1_LATER.get(raw.get("type", ""))
    if later is not None:
        field, default = later
        return {k: v for k, v in raw.items() if k != field or v != default}
    if raw.get("type") not in _FIGURED:
        return raw
    figure = raw["figure"]
    if figure not in _V1_FIGURES:
        raise NotInSchema(f"a {figure} figure cannot be written in a schema 1 log")
    return {("large" if k == "figure" else k): (figure == "large" if k == "figure" else v)
            for k, v in raw.items()}


#: version n -> function turning a raw line of version n into version n + 1
UPCASTERS: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2}
#: version n -> the event types its upcaster may change; a line of any other type reads
#: the same in version n + 1
CHANGED: dict[int, frozenset[str]] = {1: frozenset(_FIGURED)}
#: the event types a downcaster may write otherwise than today's schema does
DOWNCAST = frozenset((*_FIGURED, *_V1_LATER))
#: version n + 1 -> function turning a raw line of version n + 1 into version n (for writing)
DOWNCASTERS: dict[int, Callable[[dict], dict]] = {2: _v2_to_v1}


def upcast(raw: dict, version: int) -> dict:
    """A raw line of schema ``version`` brought to the current schema.

    >>> upcast({"type": "meeple_returned", "seq": 3, "player": "red", "large": True}, 1)
    {'type': 'meeple_returned', 'seq': 3, 'player': 'red', 'figure': 'large'}
    """
    while version < SCHEMA_VERSION:
        raw = UPCASTERS[version](raw)
        version += 1
    return raw


def readable(version: int) -> bool:
    """Whether this meeple can read a log of schema ``version``: the current one, or an older
    one with an upcaster for every step."""
    return version <= SCHEMA_VERSION and all(v in UPCASTERS for v in range(version, SCHEMA_VERSION))


class _Typed(msgspec.Struct):
    """A line's event type alone (its other fields are skipped unread)."""

    type: str


_TYPE_OF = msgspec.json.Decoder(_Typed)


def decode_old(raw: bytes, version: int) -> Event:
    """Decode a line of an older schema: as a dict, up the chain, then as an event. A line
    whose type no step of the chain changes (``CHANGED``) is decoded as today's event at
    once, which is what the chain would give; a line that does not decode so goes the long
    way, so that its error is worded as ever.

    :raises msgspec.DecodeError: as ``meeple.events.model.decode`` does.
    """
    try:
        kind = _TYPE_OF.decode(raw).type
        if not any(kind in CHANGED[step] for step in range(version, SCHEMA_VERSION)):
            return DECODER.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError, KeyError):
        pass
    try:
        data = msgspec.json.decode(raw, type=dict)
    except UnicodeDecodeError as exc:
        raise msgspec.DecodeError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply for an event") from None
    return msgspec.convert(upcast(data, version), AnyEvent)


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type, as msgspec's messages give it."""
    if value is None:
        return "null"
    names = {str: "str", int: "int", float: "float", list: "array", dict: "object"}
    return names.get(type(value), type(value).__name__)


def encode_as(event: Event, version: int = SCHEMA_VERSION) -> bytes:
    """The bytes of ``event`` as a log of schema ``version`` holds it (without the newline).
    Only the events a schema step changed are rewritten; the rest are encoded as they are.

    :raises NotInSchema: for an event that schema cannot express.
    """
    if version == SCHEMA_VERSION or event.__struct_config__.tag not in DOWNCAST:
        return encode(event)
    raw = msgspec.to_builtins(event)
    for step in range(SCHEMA_VERSION, version, -1):
        raw = DOWNCASTERS[step](raw)
    return msgspec.json.encode(raw)
