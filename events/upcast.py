"""Reading logs of older schema versions (DESIGN.md, "Versioning").

A breaking change to the event format bumps ``SCHEMA_VERSION`` and adds one
function here that turns a raw line of version n into version n + 1. Lines of
an old log are decoded as plain dicts, passed up the chain, then decoded as
events. New fields with defaults need no upcaster.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from meeple.events.model import SCHEMA_VERSION, AnyEvent, Event

#: version n -> function turning a raw line of version n into version n + 1
UPCASTERS: dict[int, Callable[[dict], dict]] = {}


def upcast(raw: dict, version: int) -> dict:
    """A raw line of schema ``version`` brought to the current schema.

    >>> upcast({"type": "turn_ended", "seq": 3}, SCHEMA_VERSION)
    {'type': 'turn_ended', 'seq': 3}
    """
    while version < SCHEMA_VERSION:
        raw = UPCASTERS[version](raw)
        version += 1
    return raw


def readable(version: int) -> bool:
    """Whether this meeple can read a log of schema ``version``: the current one, or an older
    one with an upcaster for every step."""
    return version <= SCHEMA_VERSION and all(v in UPCASTERS for v in range(version, SCHEMA_VERSION))


def decode_old(raw: bytes, version: int) -> Event:
    """Decode a line of an older schema: as a dict, up the chain, then as an event.

    :raises msgspec.DecodeError: as ``meeple.events.model.decode`` does.
    """
    try:
        data = msgspec.json.decode(raw)
    except (UnicodeDecodeError, RecursionError) as exc:
        raise msgspec.DecodeError(f"not a JSON event: {exc}") from None
    if not isinstance(data, dict):
        raise msgspec.ValidationError("Expected `object` - at `$`")
    return msgspec.convert(upcast(data, version), AnyEvent)
