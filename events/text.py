"""Untrusted text: names, colours, tile ids, planet and set names from a log or a tile set.

Such text is refused where it enters if it holds a control character (C0, DEL,
C1) or a bidirectional override, so that it cannot rewrite a terminal line or
reorder what a person reads; and it is escaped anyway wherever it is shown.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import msgspec

from meeple.events.memo import by_identity

#: C0 controls, DEL, C1 controls, the bidirectional embeddings, overrides and isolates, and
#: lone surrogates (the bytes of a name or file name that are no UTF-8 text): none of them
#: is printable (``str.isprintable``), so printable text is passed without the pattern
_CONTROL_CHARS = ("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                  "\ud800-\udfff]")


@functools.cache
def _control() -> re.Pattern[str]:
    return re.compile(_CONTROL_CHARS)  # compiled when first needed: a millisecond at start-up


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}

#: what any of the characters of ``_CONTROL_CHARS`` looks like in JSON as msgspec writes it:
#: C0 only as an escape (so a backslash), DEL raw, and the UTF-8 bytes of C1 and the bidi controls
#: (lone surrogates cannot be written at all)
@functools.cache
def _maybe_in_json() -> re.Pattern[bytes]:
    return re.compile(rb"\\|\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|"
                      rb"\xe2\x81[\xa6-\xa9]")  # compiled when first needed: not for ASCII


_json = msgspec.json.Encoder()


def control_char(text: str) -> str | None:
    """The first control character in ``text`` as ``U+XXXX``, or None if it has none.

    >>> control_char("Ann"), control_char("A\\x1b[2K")
    (None, 'U+001B')
    """
    if text.isprintable():
        return None
    found = _control().search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def surely_clean(value: object) -> bool:
    """True when no string anywhere in ``value`` (a msgspec struct) holds a control character:
    one pass over its JSON encoding. False means only "look field by field" (a backslash in
    a name is enough), so it serves to skip the walk that names the field, never to refuse.

    >>> surely_clean(["Ann", "Bob"]), surely_clean(["A\\x1b[2K"])
    (True, False)
    """
    try:
        data = _json.encode(value)
    except (UnicodeEncodeError, TypeError):
        return False
    if b"\\" in data or b"\x7f" in data:
        return False
    return data.isascii() or _maybe_in_json().search(data) is None


def escaped(text: str, *, newlines: bool = False) -> str:
    """``text`` safe to print: every control character written as ``\\xNN`` or ``\\uNNNN``;
    newlines (and tabs) kept only when ``newlines`` is true.

    >>> escaped("a\\x1b[2Kb\\nc")
    'a\\\\x1b[2Kb\\\\nc'
    """

    def one(match: re.Match[str]) -> str:
        char = match.group()
        if newlines and char in "\n\t":
            return char
        if char in _NAMED:
            return _NAMED[char]
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    if text.isprintable():
        return text
    return _control().sub(one, text)


def fields_of_game_started(event: object) -> Iterator[tuple[str, str]]:
    """Every untrusted string a ``game_started`` event carries, with its field path."""
    for i, player in enumerate(getattr(event, "players", ())):
        yield f"players[{i}].name", player.name
        yield f"players[{i}].colour", player.colour
    seed = getattr(event, "seed", None)
    if isinstance(seed, str):
        yield "seed", seed
    record = getattr(event, "tileset", None)
    if record is None:
        return
    yield "tileset.name", record.name
    yield from fields_of_tileset(record.definition, "tileset.definition.")


def fields_of_tileset(definition: object, prefix: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a tile set definition that is shown to people, with its field path."""
    for key in ("name", "edition", "status", "start", "expansion"):
        value = getattr(definition, key, None)
        if isinstance(value, str):
            yield prefix + key, value
    for i, tile in enumerate(getattr(definition, "tiles", ())):
        where = f"{prefix}tiles[{i}]"
        yield f"{where}.id", tile.id
        for j, feature in enumerate(tile.features):
            for key in ("kind", "symbol", "name"):
                value = getattr(feature, key)
                if isinstance(value, str):
                    yield f"{where}.features[{j}].{key}", value


@by_identity(16)
def setup_control(event: object) -> tuple[str, str] | None:
    """The first field of a ``game_started`` event holding a control character, or None
    (asked once per event: by the reader, then by the set-up's check)."""
    if surely_clean(event):
        return None
    return first_control(fields_of_game_started(event))


def first_control(fields: Iterator[tuple[str, str]]) -> tuple[str, str] | None:
    """The first field holding a control character: ``(field, "U+XXXX")``, or None."""
    for where, value in fields:
        found = control_char(value)
        if found is not None:
            return where, found
    return None
