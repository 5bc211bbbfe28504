"""The hash chain of a log: each line's ``prev`` is the SHA-256 hex of the line before it
(without its newline), so the head hash, of the last line, fingerprints the whole game; and
``GameLog``, a log as read, with the hash of every line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import overload

import msgspec

from meeple.events.digest import sha256
from meeple.events.model import SCHEMA_VERSION, Event
from meeple.events.upcast import encode_as


class LineHashes(Sequence[str]):
    """The SHA-256 of each line of a log, as hex strings by index, kept as 32-byte digests in
    one buffer (a 100,000-line log's take 3 MB rather than 11)."""

    __slots__ = ("_digests",)

    def __init__(self, digests: bytes = b"") -> None:
        self._digests = bytearray(digests)

    def add(self, digest: bytes) -> None:
        self._digests += digest

    def __len__(self) -> int:
        return len(self._digests) // 32

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> LineHashes: ...

    def __getitem__(self, index: int | slice) -> str | LineHashes:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("line hashes are sliced by a range of lines")
            return LineHashes(bytes(self._digests[start * 32:stop * 32]))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._digests[index * 32:(index + 1) * 32].hex()


class GameLog(msgspec.Struct):
    """A log as read from disk: its events and the hash of its last line."""

    path: str
    events: list[Event] = msgspec.field(default_factory=list)
    head: str | None = None
    #: the SHA-256 of each line, by seq: the head of the game after that line
    hashes: LineHashes = msgspec.field(default_factory=lambda: LineHashes())
    #: the schema the log is written in (its ``game_started``); lines appended keep to it
    schema: int = SCHEMA_VERSION
    #: a remote game's: the seat whose key signed each line, by seq (``meeple.events.signed``)
    signers: list[int] | None = None


def line_hash(line: bytes) -> str:
    """SHA-256 hex of one line's bytes (without the newline)."""
    return sha256(line).hexdigest()


def short(head: str | None) -> str:
    """The short form of a head hash that players compare aloud."""
    return head[:12] if head else "-"


def with_prev(event: Event, prev: str | None) -> Event:
    """The same event with its ``prev`` link set."""
    return msgspec.structs.replace(event, prev=prev)


def chained(events: Iterable[Event], head: str | None, *,
            schema: int = SCHEMA_VERSION) -> list[Event]:
    """``events`` as they stand in a log of ``schema`` after ``head``: each with the ``prev``
    it is written with."""
    out = []
    for event in events:
        event = with_prev(event, head)
        head = line_hash(encode_as(event, schema))
        out.append(event)
    return out


def tag(event: Event) -> str:
    """The name an event's type has in the log (``tile_drawn``, ...)."""
    return str(type(event).__struct_config__.tag)
