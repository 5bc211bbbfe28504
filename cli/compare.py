"""What ``meeple check`` compares: the snapshot ``--expect`` names, read within limits (its
size, its depth, the work of decoding it), and the paths where two JSON values differ (that
snapshot and the game's state, or a recorded event and the one the rules give)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import msgspec

from meeple.cli.store import Failure
from meeple.events.files import NotReadable, read_regular

#: the largest expected snapshot read. `show --json` writes 230 to 260 bytes a tile (the
#: fixtures' finished games), so a game of the most tiles a set may hold (20,000) writes about
#: 5 MB: 16 MB leaves room for any game
EXPECT_LIMIT = 16 << 20
#: the most JSON values a snapshot may hold: `show --json` writes about 14 a tile, 300,000 for
#: the largest game. Each value decoded is a Python object (a list is 64 bytes, for the 3 of
#: ``[],``), so this, not the size, bounds what decoding costs: about 100 MB at most
EXPECT_VALUES = 1_000_000
#: how deeply a snapshot may nest; `show --json` writes 4 levels
EXPECT_DEPTH = 32
#: what ``--expect`` takes
SNAPSHOT = "the expected snapshot must be a JSON object as written by `meeple show --json`"
#: a line's hash, as in an event's ``prev``: not a difference between two events
_LINK = "prev"
_ABSENT = object()


def read_expected(path: str) -> dict:
    """The snapshot ``--expect`` names: a JSON object of at most ``EXPECT_LIMIT`` bytes and
    ``EXPECT_VALUES`` values (counted before it is decoded), nested at most ``EXPECT_DEPTH``
    deep, read from a regular file only.

    :raises Failure: (1) unreadable, too large, not JSON, or not such an object.
    """
    try:
        data = read_regular(path, EXPECT_LIMIT)
    except NotReadable as exc:
        raise Failure(f"{path}: cannot read the expected snapshot: {exc.reason}") from None
    values = _values_at_most(data)
    if values > EXPECT_VALUES:
        raise Failure(f"{path}: {SNAPSHOT}; this one holds more values than the "
                      f"{EXPECT_VALUES:,} a snapshot may (up to {values:,})")
    try:
        value = _decode_paused(data)
    except RecursionError:
        raise Failure(f"{path}: {SNAPSHOT}; this one is nested too deeply") from None
    except msgspec.DecodeError as exc:
        raise Failure(f"{path}: {SNAPSHOT}; this one is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise Failure(f"{path}: {SNAPSHOT}; this one is {_json_kind(value)}")
    if _depth_over(value, EXPECT_DEPTH):
        raise Failure(f"{path}: {SNAPSHOT}; this one is nested more than {EXPECT_DEPTH} deep")
    return value


def _values_at_most(data: bytes) -> int:
    """An upper bound of the values in a JSON document, from its bytes: every value but the
    first of a list or object follows a comma, and each list or object opens once (a comma or
    bracket inside a string only raises the bound)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{") + 1


def _decode_paused(data: bytes) -> object:
    """``data`` decoded with the cyclic garbage collector paused: a file of millions of
    containers would start a collection every few hundred of them, each walking all before."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return msgspec.json.decode(data)
    finally:
        if paused:
            gc.enable()


def _json_kind(value: object) -> str:
    if value is None or isinstance(value, bool):
        return f"{msgspec.json.encode(value).decode()}, not an object"
    kinds = {list: "a list", str: "a string", int: "a number", float: "a number"}
    return f"{kinds.get(type(value), 'a value')}, not an object"


def _depth_over(value: object, limit: int) -> bool:
    """Whether a decoded JSON value nests lists and objects more than ``limit`` deep; walked
    without recursion, so any depth is measured, holding one iterator a level (never a list
    of every container met)."""
    if not isinstance(value, (dict, list)):
        return False
    stack = [iter(_children(value))]
    while stack:
        for child in stack[-1]:
            if isinstance(child, (dict, list)):
                if len(stack) + 1 > limit:
                    return True
                if child:
                    stack.append(iter(_children(child)))
                    break
        else:
            stack.pop()
    return False


def _children(value: dict | list):
    return value.values() if isinstance(value, dict) else value


def event_differences(expected: str | None, found: str | None) -> list[dict]:
    """The fields in which a recorded event (``found``, JSON) differs from the rules' one
    (``expected``), nested fields as ``realm.x``, ignoring the ``prev`` link:
    ``[{field, recorded, rules}]``. Empty when either is not an event of the same type."""
    try:
        rules = msgspec.json.decode(expected) if expected else None
        recorded = msgspec.json.decode(found) if found else None
    except (msgspec.DecodeError, RecursionError):
        return []
    if not (isinstance(rules, dict) and isinstance(recorded, dict)) \
            or rules.get("type") != recorded.get("type"):
        return []
    rules.pop(_LINK, None)
    recorded.pop(_LINK, None)
    return [{"field": where, "recorded": None if got is _ABSENT else got,
             "rules": None if want is _ABSENT else want}
            for where, want, got in _paths(rules, recorded)]


#: the differences from an expected snapshot that a report lists (all are counted)
SHOWN_DIFFERENCES = 20


def diff(want: object, got: object, where: str = "") -> tuple[list[tuple[str, str, str]], int]:
    """The first ``SHOWN_DIFFERENCES`` paths where two JSON values differ, with both values
    shortened, and how many there are in all (counted, not kept)."""
    shown, count = [], 0
    for path, a, b in _paths(want, got, where, counted=True):
        if path is None:  # elements only one list has, past any that could be shown
            assert isinstance(a, int)
            count += a
            continue
        if count < SHOWN_DIFFERENCES:
            shown.append((path, short_json(a), short_json(b)))
        count += 1
    return shown, count


def _paths(want: object, got: object, where: str = "", counted: bool = False,
           ) -> Iterator[tuple[str | None, object, object]]:
    """Paths where two JSON values differ, with both values (``_ABSENT`` for a missing key or
    element): objects key by key, lists element by element (an element only one list has
    is a difference of its own); yielded one by one. ``counted``: of the elements only one
    list has, those past the first ``SHOWN_DIFFERENCES`` come as one ``(None, how many,
    None)``, not one by one."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in list(want) + [k for k in got if k not in want]:
            yield from _paths(want.get(key, _ABSENT), got.get(key, _ABSENT),
                              f"{where}.{key}" if where else str(key), counted)
    elif isinstance(want, list) and isinstance(got, list):
        both, longer = min(len(want), len(got)), want if len(want) > len(got) else got
        for i in range(both):
            yield from _paths(want[i], got[i], f"{where}[{i}]", counted)
        listed = len(longer) if not counted else min(len(longer), both + SHOWN_DIFFERENCES)
        for i in range(both, listed):
            yield (f"{where}[{i}]", *((longer[i], _ABSENT) if longer is want
                                      else (_ABSENT, longer[i])))
        if listed < len(longer):
            yield None, len(longer) - listed, None
    elif want is _ABSENT or got is _ABSENT or want != got:
        yield where or "$", want, got


def short_json(value: object) -> str:
    text = "nothing" if value is _ABSENT else msgspec.json.encode(value).decode()
    return text if len(text) <= 120 else text[:117] + "..."
