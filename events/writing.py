"""Writing a game log under an exclusive lock: ``create`` never overwrites; ``append`` writes
whole lines, flushes and fsyncs, and refuses if the file's last line is not the head the
caller folded, so two writers cannot interleave or fork a game (DESIGN.md, "Events and the
log").

Neither writes past the limits (``full``). A write that fails leaves the files as they were:
``append`` cuts the log back to its old length, ``create`` removes the file it made.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, TypeVar

import msgspec

from meeple.events.chain import line_hash, tag, with_prev
from meeple.events.errors import LogError
from meeple.events.limits import MAX_EVENTS, MAX_FILE_BYTES, MAX_LINE_BYTES
from meeple.events.locking import lock, open_regular
from meeple.events.model import SCHEMA_VERSION, Event, GameStarted
from meeple.events.signed import attach
from meeple.events.upcast import NotInSchema, encode_as

_T = TypeVar("_T")


class Written(NamedTuple):
    """What a write put in a log: the new head, the events as they stand there (each with its
    ``prev``) and the SHA-256 of each line, worked out as the lines were encoded (once)."""

    head: str | None
    events: list[Event]
    hashes: list[str]


#: signs a line's body (a remote game's writer, ``meeple.events.signed``): the signature text
Sign = Callable[[bytes], str]


def _encode_chain(path: str, events: Iterable[Event], head: str | None,
                  schema: int = SCHEMA_VERSION, sign: Sign | None = None,
                  ) -> tuple[bytes, Written]:
    """The lines of ``events`` chained after ``head`` in a log of ``schema``, each signed by
    ``sign`` where given, and what they hold (``Written``).

    :raises LogError: ``too_large`` for an event longer than a line may be, ``old_schema``
        for an event the log's schema cannot express.
    """
    chunks: list[bytes] = []
    linked: list[Event] = []
    hashes: list[str] = []
    for event in events:
        event = with_prev(event, head)
        try:
            raw = encode_as(event, schema)
        except NotInSchema as exc:
            raise LogError("old_schema", path, f"{exc}; this game began under schema {schema} "
                           "and is continued in it; nothing was written", seq=event.seq) from None
        if sign is not None:
            raw = attach(raw, sign(raw))
        if len(raw) > MAX_LINE_BYTES:
            raise LogError("too_large", path, f"event seq {event.seq} ({tag(event)}) would be a "
                           f"line of {len(raw)} bytes; the limit is {MAX_LINE_BYTES}; nothing "
                           "was written", seq=event.seq)
        chunks.append(raw)
        chunks.append(b"\n")
        head = line_hash(raw)
        linked.append(event)
        hashes.append(head)
    return b"".join(chunks), Written(head, linked, hashes)


def encode_lines(events: Iterable[Event], head: str | None, *, schema: int = SCHEMA_VERSION,
                 sign: Sign | None = None) -> list[bytes]:
    """The lines (without newlines) that ``events`` are written as after ``head``, each
    signed by ``sign`` where given, as ``create_log`` and ``append_log`` write them."""
    data, _ = _encode_chain("lines", events, head, schema, sign)
    return data.split(b"\n")[:-1]


def _check_lines(name: str, lines: int, new_lines: int) -> None:
    """Refuse to write a log that ``read`` would refuse for its ``MAX_EVENTS`` lines.

    :raises LogError: ``full``.
    """
    if lines + new_lines > MAX_EVENTS:
        raise LogError("full", name, f"the game log is full: {new_lines} more line(s) would make "
                       f"{lines + new_lines} (limit {MAX_EVENTS} lines); nothing was written")


def _check_bytes(name: str, size: int, new_bytes: int) -> None:
    """Refuse to write a log that ``read`` would refuse for its ``MAX_FILE_BYTES`` bytes.

    :raises LogError: ``full``.
    """
    if size + new_bytes > MAX_FILE_BYTES:
        raise LogError("full", name, f"the game log is full: {new_bytes} more bytes would make "
                       f"{size + new_bytes} (limit {MAX_FILE_BYTES} bytes); nothing was written")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def write_or_cut_back(fd: int, name: str, data: bytes, size: int) -> None:
    """Write ``data`` at the end of a file of ``size`` bytes; if that fails, cut the file back
    to ``size`` bytes, so that it holds no part of ``data``.

    :raises LogError: ``write``, saying whether the file is as it was.
    """
    try:
        os.lseek(fd, size, os.SEEK_SET)
        write_all(fd, data)
    except OSError as exc:
        try:
            os.ftruncate(fd, size)
        except OSError as again:
            raise LogError("write", name, f"cannot write: {exc.strerror}; and cannot cut the file "
                           f"back to its {size} bytes ({again.strerror}): its last line may be "
                           "torn, `repair` cuts it off") from None
        raise LogError("write", name, f"cannot write: {exc.strerror}; nothing was written") from None


def remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def create(path: str | os.PathLike[str], events: Sequence[Event]) -> str | None:
    """Write a new log holding ``events``; never overwrites. Returns the head hash.

    :raises LogError: as ``create_log``.
    """
    return create_log(path, events).head


def create_log(path: str | os.PathLike[str], events: Sequence[Event], *,
               sign: Sign | None = None, mode: int = 0o644) -> Written:
    """Write a new log holding ``events``; never overwrites. Returns what it wrote.

    If the writing fails, the new file is removed: a failed ``create`` leaves no file behind.

    :raises LogError: ``exists`` if the file is already there; ``too_large`` for an event
        longer than a line may be, ``full`` for a log past the limits; ``write`` on OS errors.
    """
    name = os.fspath(path)
    first = events[0] if events else None
    schema = first.schema if isinstance(first, GameStarted) else SCHEMA_VERSION
    data, written = _encode_chain(name, events, None, schema, sign)
    _write_new(name, data, len(events), mode)
    return written


def fsync_dir(name: str) -> None:
    try:
        dfd = os.open(os.path.dirname(os.path.abspath(name)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def _last_line(fd: int, size: int) -> tuple[bytes, bool]:
    """The file's last line (without newline) and whether the file ends with a newline.

    Reads backwards in growing blocks; a last line longer than ``MAX_LINE_BYTES`` comes back
    cut to its end (it can match no head).
    """
    if size == 0:
        return b"", True
    ends_newline = os.pread(fd, 1, size - 1) == b"\n"
    end = size - 1 if ends_newline else size
    span = 8192
    while True:
        start = max(0, end - span)
        tail = os.pread(fd, end - start, start)
        cut = tail.rfind(b"\n")
        if cut != -1:
            return tail[cut + 1 :], ends_newline
        if start == 0 or span > MAX_LINE_BYTES:
            return tail, ends_newline
        span *= 8


def _count_lines(fd: int, size: int) -> int:
    """The number of newlines in the first ``size`` bytes, read a block at a time."""
    count = offset = 0
    while offset < size:
        chunk = os.pread(fd, min(1 << 20, size - offset), offset)
        if not chunk:
            break
        count += chunk.count(b"\n")
        offset += len(chunk)
    return count


def append(path: str | os.PathLike[str], events: Sequence[Event], expected_head: str, *,
           lines: int | None = None, schema: int | None = None) -> str:
    """Append ``events`` after ``expected_head`` (see ``append_log``); returns the new head
    hash."""
    if not events:
        return expected_head
    head = append_log(path, events, expected_head, lines=lines, schema=schema).head
    assert head is not None
    return head


def append_log(path: str | os.PathLike[str], events: Sequence[Event], expected_head: str, *,
               lines: int | None = None, schema: int | None = None,
               sign: Sign | None = None) -> Written:
    """Append ``events`` after ``expected_head``, written in the log's ``schema`` (read from
    its first line when not given); returns what it wrote.

    All lines go out in one write, then fsync, under an exclusive lock. ``lines`` is the
    number of lines the caller read (the file holds that many when its head matches); without
    it they are counted under the lock. A write that fails is cut back: the file is as before.

    :raises LogError: ``conflict`` if the file's last line is not ``expected_head``
        (another command wrote first), ``torn`` if the file ends in a torn line, ``full`` if
        the events would take the log past ``MAX_EVENTS`` lines or ``MAX_FILE_BYTES`` bytes,
        ``too_large`` for an event longer than a line may be, ``locked``, ``write``.
    """
    name = os.fspath(path)
    if not events:
        return Written(expected_head, [], [])
    fd = open_regular(name, os.O_RDWR | os.O_APPEND)
    try:
        lock(fd, name, fcntl.LOCK_EX, "write")
        size = _check_head(fd, name, expected_head)
        if schema is None:
            schema = _read_or_fail(name, lambda: _schema_in_file(fd, size))
        data, written = _encode_chain(name, events, expected_head, schema, sign)
        _check_bytes(name, size, len(data))  # first: then a count reads at most the limit
        if lines is None:
            lines = _read_or_fail(name, lambda: _count_lines(fd, size))
        _check_lines(name, lines, len(events))
        write_or_cut_back(fd, name, data, size)
    finally:
        os.close(fd)
    return written


def _write_new(name: str, data: bytes, lines: int, mode: int) -> None:
    """Create ``name`` holding ``data`` (``lines`` lines) under an exclusive lock, never over a
    file; a failed write removes the new file.

    :raises LogError: ``exists``, ``full``, ``write``.
    """
    _check_lines(name, 0, lines)
    _check_bytes(name, 0, len(data))
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    except FileExistsError:
        raise LogError("exists", name, "already exists; a game log is never overwritten") from None
    except OSError as exc:
        raise LogError("write", name, f"cannot create: {exc.strerror}") from None
    try:
        try:
            lock(fd, name, fcntl.LOCK_EX, "write")
            write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        remove(name)
        raise LogError("write", name, f"cannot write: {exc.strerror}; nothing was written (the "
                       "new file is removed)") from None
    except LogError:
        remove(name)
        raise
    fsync_dir(name)


def create_lines(path: str | os.PathLike[str], lines: Sequence[bytes]) -> str:
    """Write a new log holding ``lines`` exactly as they are (a remote game joined from the
    lines another seat sent, already verified); never overwrites. Returns the head.

    :raises LogError: as ``create_log``.
    """
    name = os.fspath(path)
    data = b"".join(line + b"\n" for line in lines)
    _write_new(name, data, len(lines), 0o644)
    return line_hash(lines[-1])


def append_lines(path: str | os.PathLike[str], lines: Sequence[bytes], expected_head: str,
                 known_lines: int) -> str:
    """Append lines exactly as they are (a remote game's lines received from another seat,
    already verified), after ``expected_head``, under the same lock, checks and fsync as
    ``append_log``; returns the new head.

    :raises LogError: as ``append_log``.
    """
    name = os.fspath(path)
    data = b"".join(line + b"\n" for line in lines)
    fd = open_regular(name, os.O_RDWR | os.O_APPEND)
    try:
        lock(fd, name, fcntl.LOCK_EX, "write")
        size = _check_head(fd, name, expected_head)
        _check_bytes(name, size, len(data))
        _check_lines(name, known_lines, len(lines))
        write_or_cut_back(fd, name, data, size)
    finally:
        os.close(fd)
    return line_hash(lines[-1]) if lines else expected_head


class _SchemaOnly(msgspec.Struct):
    schema: int = SCHEMA_VERSION


def _schema_in_file(fd: int, size: int) -> int:
    """The schema named by the log's first line (the current one if it names none)."""
    first = os.pread(fd, min(size, MAX_LINE_BYTES + 1), 0).split(b"\n", 1)[0]
    try:
        return msgspec.json.decode(first, type=_SchemaOnly).schema
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return SCHEMA_VERSION


def _check_head(fd: int, name: str, expected_head: str) -> int:
    """The file's size, once its last line is known to be whole and to be ``expected_head``.

    :raises LogError: ``torn``, ``conflict``, or ``unreadable`` on an I/O error.
    """
    size = _read_or_fail(name, lambda: os.fstat(fd).st_size)
    last, ends_newline = _read_or_fail(name, lambda: _last_line(fd, size))
    if not ends_newline:
        raise LogError(
            "torn", name, "the last line is a torn write; `repair` cuts it off, "
            "keeping a backup"
        )
    if line_hash(last) != expected_head:
        raise LogError(
            "conflict", name,
            "the game changed since you read it; read it again and retry",
        )
    return size


def _read_or_fail(name: str, reading: Callable[[], _T]) -> _T:
    """``reading()``, an OS error becoming ``unreadable``."""
    try:
        return reading()
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot read: {exc.strerror}") from None
