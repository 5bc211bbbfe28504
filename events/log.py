"""The game log file: JSON lines, hash-chained, append-only (DESIGN.md, "Events and the log").

- ``prev`` of line n is the SHA-256 hex of line n-1's bytes without its newline;
  the head hash (of the last line) fingerprints the whole game.
- ``create`` never overwrites; ``append`` writes whole lines under an exclusive
  ``fcntl`` lock, flushes and fsyncs, and refuses if the file's last line is not
  the head the caller folded, so two writers cannot interleave or fork a game.
- ``read`` takes a shared lock, decodes line by line and reports ``path:line``,
  the field and the reason; a torn last line (a write cut short) is reported
  as such.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from meeple.events.model import SCHEMA_VERSION, Event, GameStarted, decode, encode
from meeple.events.upcast import decode_old, readable

MAX_LINE_BYTES = 1 << 20
MAX_FILE_BYTES = 64 << 20
MAX_EVENTS = 100_000

ErrorKind = Literal[
    "missing", "unreadable", "exists", "corrupt", "torn", "tampered", "conflict", "too_large",
    "newer", "full", "locked", "write",
]
#: kinds that are a refusal of the command (exit 1), not a fault of the file (exit 3)
REFUSALS = frozenset({"conflict", "exists", "full", "locked"})

_AT_FIELD = re.compile(r" - at `\$(?P<path>[^`]*)`$")


class LogError(Exception):
    """A log that cannot be read, written or trusted, located at ``path:line`` where possible."""

    def __init__(
        self,
        kind: ErrorKind,
        path: str,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        seq: int | None = None,
    ) -> None:
        self.kind = kind
        self.path = path
        self.line = line
        self.field = field
        self.seq = seq
        self.message = message
        super().__init__(str(self))

    def __reduce__(self):
        # keyword-only fields: pickle them explicitly, so the error crosses process pools
        return (_rebuild_log_error, (self.kind, self.path, self.message, self.line, self.field,
                                     self.seq))

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def __str__(self) -> str:
        field = f" (field {self.field})" if self.field else ""
        return f"{self.where}: {self.message}{field}"


def _rebuild_log_error(kind: ErrorKind, path: str, message: str, line: int | None,
                       field: str | None, seq: int | None) -> LogError:
    return LogError(kind, path, message, line=line, field=field, seq=seq)


class GameLog(msgspec.Struct):
    """A log as read from disk: its events and the hash of its last line."""

    path: str
    events: list[Event] = msgspec.field(default_factory=list)
    head: str | None = None
    #: the SHA-256 of each line, by seq: the head of the game after that line
    hashes: list[str] = msgspec.field(default_factory=list)


def line_hash(line: bytes) -> str:
    """SHA-256 hex of one line's bytes (without the newline)."""
    return hashlib.sha256(line).hexdigest()


def short(head: str | None) -> str:
    """The short form of a head hash that players compare aloud."""
    return head[:12] if head else "-"


def _split_field(message: str) -> tuple[str, str | None]:
    match = _AT_FIELD.search(message)
    if not match:
        return message, None
    path = match.group("path").lstrip(".") or None
    return message[: match.start()], path


def decode_line(path: str, lineno: int, raw: bytes, *, last: bool,
                version: int = SCHEMA_VERSION) -> Event:
    """Decode one line (upcast from an older ``version``), raising a located ``LogError``
    (``torn`` for a bad last line)."""
    if len(raw) > MAX_LINE_BYTES:
        raise LogError(
            "too_large", path, f"line is {len(raw)} bytes; the limit is {MAX_LINE_BYTES}",
            line=lineno,
        )
    try:
        if version != SCHEMA_VERSION:
            return decode_old(raw, version)
        return decode(raw)
    except msgspec.ValidationError as exc:
        message, fld = _split_field(str(exc))
        raise LogError("corrupt", path, message, line=lineno, field=fld) from None
    except msgspec.DecodeError as exc:
        if last:
            raise LogError(
                "torn", path, f"torn write: the last line is incomplete ({exc})", line=lineno
            ) from None
        raise LogError("corrupt", path, f"not a JSON event: {exc}", line=lineno) from None


def parse(path: str, data: bytes) -> GameLog:
    """Check and decode a whole log's bytes: decoding, ``seq`` order and the hash chain."""
    if not data:
        raise LogError("corrupt", path, "the file is empty: a game log starts with game_started")
    log = GameLog(path)
    lines = data.split(b"\n")
    torn_tail = lines[-1] != b""
    if not torn_tail:
        lines.pop()
    if len(lines) > MAX_EVENTS:
        raise LogError("too_large", path, f"the log has {len(lines)} lines; the limit is "
                       f"{MAX_EVENTS}", line=MAX_EVENTS + 1)
    version = _schema_of(path, lines[0])
    prev_hash: str | None = None
    count = len(lines)
    for index, raw in enumerate(lines):
        lineno = index + 1
        last = index == count - 1
        if last and torn_tail:
            try:
                decode(raw)
                detail = "it has no newline at its end"
            except msgspec.DecodeError:
                detail = "it is cut short"
            raise LogError(
                "torn", path,
                f"torn write: the last line is incomplete ({detail}); "
                f"the {index} line(s) before it are intact; `meeple repair` cuts it off, "
                "keeping a backup",
                line=lineno,
            )
        event = decode_line(path, lineno, raw, last=last, version=version)
        try:
            _check_link(path, lineno, event, prev_hash)
        except LogError as exc:
            if exc.field == "prev" and lineno > 1 and _also_altered(raw, lines, index):
                raise LogError("tampered", path, f"line {lineno} was altered: its prev no longer "
                               f"matches line {lineno - 1}, and line {lineno + 1}'s prev no "
                               f"longer matches it", line=lineno, field="prev",
                               seq=event.seq) from None
            raise
        log.events.append(event)
        prev_hash = line_hash(raw)
        log.hashes.append(prev_hash)
    log.head = prev_hash
    return log


def _also_altered(raw: bytes, lines: list[bytes], index: int) -> bool:
    """Whether the link after line ``index`` is broken too: then that line itself changed
    (its own prev), not the line before it."""
    if index + 1 >= len(lines):
        return False
    try:
        following = decode(lines[index + 1])
    except msgspec.DecodeError:
        return False
    return following.prev != line_hash(raw)


def _schema_of(path: str, first: bytes) -> int:
    """The schema version in ``game_started``; refuses a log from a newer meeple."""
    try:
        version = msgspec.json.decode(first).get("schema", SCHEMA_VERSION)
    except (msgspec.DecodeError, UnicodeDecodeError, AttributeError, RecursionError):
        return SCHEMA_VERSION  # the line-by-line decoding will say what is wrong
    if not isinstance(version, int):
        return SCHEMA_VERSION  # decoding game_started will name the field
    if version > SCHEMA_VERSION:
        raise LogError("newer", path, f"this log has schema {version}; this meeple reads "
                       f"schema {SCHEMA_VERSION} and older: upgrade meeple", line=1,
                       field="schema", seq=0)
    if not readable(version):
        raise LogError("unreadable", path, f"schema {version} is older than any this meeple "
                       "can upgrade", line=1, field="schema", seq=0)
    return version


def _check_link(path: str, lineno: int, event: Event, prev_hash: str | None) -> None:
    expected_seq = lineno - 1
    if event.seq != expected_seq:
        if event.seq > expected_seq:
            how = "a line is missing before it, or lines were reordered"
        else:
            how = "a line was duplicated or lines were reordered"
        raise LogError(
            "tampered", path, f"seq is {event.seq} where {expected_seq} was expected: {how}",
            line=lineno, field="seq", seq=event.seq,
        )
    if lineno == 1:
        if not isinstance(event, GameStarted):
            raise LogError(
                "corrupt", path, f"the first line must be game_started, not {_tag(event)}",
                line=1, field="type", seq=0,
            )
        if event.prev is not None:
            raise LogError("tampered", path, "the first line's prev must be null",
                           line=1, field="prev", seq=0)
        return
    if isinstance(event, GameStarted):
        raise LogError("corrupt", path, "game_started may only be the first line",
                       line=lineno, field="type", seq=event.seq)
    if event.prev != prev_hash:
        raise LogError(
            "tampered", path,
            f"line {lineno - 1} was altered: its SHA-256 no longer matches the prev "
            f"recorded on line {lineno} (or that prev was altered)",
            line=lineno - 1, field="prev", seq=event.seq - 1,
        )


def _tag(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def read(path: str | os.PathLike[str]) -> GameLog:
    """Read and structurally verify a log file.

    :raises LogError: missing, unreadable, too large, corrupt, tampered or torn.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            # a shared lock: never read half of a line another process is appending
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise LogError(
                    "too_large", name, f"the file is {size} bytes; the limit is {MAX_FILE_BYTES}"
                )
            data = handle.read()
    except FileNotFoundError:
        raise LogError("missing", name, "no such game log") from None
    except IsADirectoryError:
        raise LogError("unreadable", name, "is a directory, not a game log") from None
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot read: {exc.strerror}") from None
    return parse(name, data)


def with_prev(event: Event, prev: str | None) -> Event:
    """The same event with its ``prev`` link set."""
    return msgspec.structs.replace(event, prev=prev)


def _encode_chain(events: Iterable[Event], head: str | None) -> tuple[bytes, str | None]:
    chunks: list[bytes] = []
    for event in events:
        raw = encode(with_prev(event, head))
        if len(raw) > MAX_LINE_BYTES:
            raise ValueError(f"event seq {event.seq} encodes to {len(raw)} bytes")
        chunks.append(raw)
        chunks.append(b"\n")
        head = line_hash(raw)
    return b"".join(chunks), head


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def create(path: str | os.PathLike[str], events: Sequence[Event]) -> str | None:
    """Write a new log holding ``events``; never overwrites. Returns the head hash.

    :raises LogError: ``exists`` if the file is already there, ``unreadable`` on OS errors.
    """
    name = os.fspath(path)
    data, head = _encode_chain(events, None)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise LogError("exists", name, "already exists; a game log is never overwritten") from None
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot create: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write_all(fd, data)
    finally:
        os.close(fd)
    _fsync_dir(name)
    return head


def _fsync_dir(name: str) -> None:
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
    """The file's last line (without newline) and whether the file ends with a newline."""
    if size == 0:
        return b"", True
    end = size
    os.lseek(fd, size - 1, os.SEEK_SET)
    ends_newline = os.read(fd, 1) == b"\n"
    if ends_newline:
        end -= 1
    block = 8192
    tail = b""
    pos = end
    while pos > 0:
        step = min(block, pos)
        pos -= step
        os.lseek(fd, pos, os.SEEK_SET)
        tail = os.read(fd, step) + tail
        cut = tail.rfind(b"\n")
        if cut != -1:
            return tail[cut + 1 :], ends_newline
    return tail, ends_newline


def append(path: str | os.PathLike[str], events: Sequence[Event], expected_head: str) -> str:
    """Append ``events`` after ``expected_head``; returns the new head hash.

    All lines go out in one write, then fsync, under an exclusive lock.

    :raises LogError: ``conflict`` if the file's last line is not ``expected_head``
        (another command wrote first), ``torn`` if the file ends in a torn line.
    """
    name = os.fspath(path)
    if not events:
        return expected_head
    try:
        fd = os.open(name, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise LogError("missing", name, "no such game log") from None
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot open for writing: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        last, ends_newline = _last_line(fd, size)
        if not ends_newline:
            raise LogError(
                "torn", name, "the last line is a torn write; `meeple repair` cuts it off, "
                "keeping a backup"
            )
        if line_hash(last) != expected_head:
            raise LogError(
                "conflict", name,
                "the game changed since you read it; run `meeple status` and retry",
            )
        data, head = _encode_chain(events, expected_head)
        _write_all(fd, data)
    finally:
        os.close(fd)
    assert head is not None
    return head


def repair(path: str | os.PathLike[str]) -> tuple[int, int, str] | None:
    """Cut off a torn last line, after keeping a copy of the file; nothing else, ever.

    Returns ``(line, bytes cut, backup path)``, or None if the log needs no repair.

    :raises LogError: for any other fault (corrupt, tampered, ...): those need a person.
    """
    name = os.fspath(path)
    try:
        read(name)
        return None
    except LogError as exc:
        if exc.kind != "torn":
            raise
        torn_line = exc.line
    fd = os.open(name, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = b""
        while chunk := os.read(fd, 1 << 20):
            data += chunk
        keep = data.rfind(b"\n") + 1
        try:
            parse(name, data[:keep])
        except LogError as exc:
            raise LogError(exc.kind, name, f"after the torn line is cut off: {exc.message}",
                           line=exc.line, field=exc.field) from None
        backup = _backup(name, data)
        os.ftruncate(fd, keep)
        os.fsync(fd)
    finally:
        os.close(fd)
    return torn_line or 0, len(data) - keep, backup


def _backup(name: str, data: bytes) -> str:
    for n in range(1, 1000):
        candidate = f"{name}.torn-{n}.bak"
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        return candidate
    raise LogError("unreadable", name, "no free name for a backup copy")
