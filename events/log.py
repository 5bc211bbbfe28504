"""The game log file: JSON lines, hash-chained, append-only (DESIGN.md, "Events and the log").

- ``prev`` of line n is the SHA-256 hex of line n-1's bytes without its newline;
  the head hash (of the last line) fingerprints the whole game.
- ``create`` never overwrites; ``append`` writes whole lines under an exclusive
  ``fcntl`` lock, flushes and fsyncs, and refuses if the file's last line is not
  the head the caller folded, so two writers cannot interleave or fork a game.
- ``read`` takes a shared lock, decodes line by line and reports ``path:line``,
  the field and the reason; a torn last line (a write cut short) is reported
  as such.
- Limits: a line holds at most ``MAX_LINE_BYTES``, a log at most ``MAX_FILE_BYTES``
  bytes and ``MAX_EVENTS`` lines. ``read`` refuses more (``too_large``) and only
  reads a regular file, never more than the limit whatever size the file claims;
  ``append`` and ``create`` refuse to write past them (``full``).
- Locks are polled, never waited on blindly: after ``LOCK_NOTICE`` seconds the
  hook set by ``configure_locks`` is told once, after the lock timeout the
  command gives up (``locked``).
- A write that fails (disk full, I/O error, file size limit) leaves the files as
  they were: ``append`` cuts the log back to its old length, ``create`` removes
  the file it made, ``repair`` its backup copy.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import math
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, NamedTuple, TypeVar, overload

import msgspec

from meeple.events.files import kind_of
from meeple.events.model import DECODER, SCHEMA_VERSION, Event, GameStarted, decode
from meeple.events.text import setup_control
from meeple.events.tileset import limits_fault
from meeple.events.upcast import NotInSchema, decode_old, encode_as, readable

MAX_LINE_BYTES = 1 << 20
MAX_FILE_BYTES = 64 << 20
MAX_EVENTS = 100_000

#: seconds a command waits for a lock another process holds, unless configured otherwise
DEFAULT_LOCK_TIMEOUT = 10.0
#: the environment variable that sets the lock timeout (seconds)
LOCK_TIMEOUT_ENV = "MEEPLE_LOCK_TIMEOUT"
#: seconds of waiting for a lock before the notify hook is told
LOCK_NOTICE = 0.5
#: the longest pause between two tries of a held lock (the first pauses are shorter)
_LOCK_POLL = 0.025
#: lock errors that mean the file system has no working locks (some network file systems)
_NO_LOCKS = frozenset({errno.ENOLCK, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS})

_T = TypeVar("_T")

ErrorKind = Literal[
    "missing", "unreadable", "exists", "corrupt", "torn", "tampered", "conflict", "too_large",
    "newer", "full", "locked", "write", "old_schema",
]
#: kinds that are a refusal of the command (exit 1), not a fault of the file (exit 3)
REFUSALS = frozenset({"conflict", "exists", "full", "locked", "old_schema"})

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
    _check_length(path, lineno, len(raw))
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


def _check_length(path: str, lineno: int, size: int) -> None:
    """Refuse a line longer than ``MAX_LINE_BYTES``: checked before anything decodes it."""
    if size > MAX_LINE_BYTES:
        raise LogError(
            "too_large", path, f"line is {size} bytes; the limit is {MAX_LINE_BYTES}", line=lineno,
        )


def _sound_lines(data: bytes, start: int, count: int, log: GameLog,
                 prev_hash: str | None) -> tuple[int, str | None]:
    """Decode and link the lines after the first all at once, when every one is sound (the
    common case): each decodes, follows the one before in ``seq`` and by the hash in its
    ``prev``, and none is another ``game_started``. Returns where the lines not taken start,
    and the head so far: all of them, or none, and then the careful loop of ``parse`` reads
    them one by one and names the fault. Only for logs under ``MAX_LINE_BYTES`` in all, so
    no line can be over the limit."""
    index = len(log.events)
    lines = data[start:].split(b"\n", count - index)[:count - index]
    if not lines:
        return start, prev_hash
    try:
        events = list(map(DECODER.decode, lines))
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return start, prev_hash
    sha256 = hashlib.sha256
    digests = [sha256(raw).digest() for raw in lines]
    heads = [digest.hex() for digest in digests]
    if [event.prev for event in events] != [prev_hash, *heads[:-1]] \
            or [event.seq for event in events] != list(range(index, index + len(lines))) \
            or GameStarted in set(map(type, events)):
        return start, prev_hash
    log.events.extend(events)
    log.hashes.add(b"".join(digests))
    return start + sum(map(len, lines)) + len(lines), heads[-1]


def parse(path: str, data: bytes) -> GameLog:
    """Check and decode a whole log's bytes: line and log limits, decoding, ``seq`` order, the
    hash chain, and no control characters in the names ``game_started`` carries.

    Memory stays near the size of ``data`` plus the events: each line is measured before
    it is copied or decoded.
    """
    if not data:
        raise LogError("corrupt", path, "the file is empty: a game log starts with game_started")
    torn_tail = not data.endswith(b"\n")
    count = data.count(b"\n") + torn_tail
    if count > MAX_EVENTS:
        raise LogError("too_large", path, f"the log has {count} lines; the limit is "
                       f"{MAX_EVENTS}", line=MAX_EVENTS + 1)
    log = GameLog(path)
    version = SCHEMA_VERSION
    prev_hash: str | None = None
    start, size, index = 0, len(data), 0
    while start < size:
        end = data.find(b"\n", start)
        end = size if end == -1 else end
        lineno = index + 1
        _check_length(path, lineno, end - start)
        raw = data[start:end]
        if index == 0:
            version = log.schema = _schema_of(path, raw)
        if lineno == count and torn_tail:
            raise _torn(path, raw, lineno)
        event = decode_line(path, lineno, raw, last=lineno == count, version=version)
        _check_link_of(path, lineno, event, prev_hash, raw, data, end)
        if index == 0:
            _check_text(path, event)
        log.events.append(event)
        digest = hashlib.sha256(raw).digest()
        log.hashes.add(digest)
        prev_hash = digest.hex()
        start, index = end + 1, index + 1
        if index == 1 and version == SCHEMA_VERSION and size <= MAX_LINE_BYTES:
            start, prev_hash = _sound_lines(data, start, count - torn_tail, log, prev_hash)
            index = len(log.events)
    log.head = prev_hash
    return log


def _torn(path: str, raw: bytes, lineno: int) -> LogError:
    """The error for a last line without its newline: cut short, or whole but unterminated."""
    if _whole_json(raw):
        detail = "it has no newline at its end"
        remedy = "`meeple repair` restores the newline if the line links to the one before it"
    else:
        detail = "it is cut short"
        remedy = "`meeple repair` cuts it off, keeping a backup"
    return LogError(
        "torn", path,
        f"torn write: the last line is incomplete ({detail}); "
        f"the {lineno - 1} line(s) before it are intact; {remedy}",
        line=lineno,
    )


def _check_link_of(path: str, lineno: int, event: Event, prev_hash: str | None, raw: bytes,
                   data: bytes, end: int) -> None:
    """``_check_link``, telling an altered line from an altered line before it."""
    try:
        _check_link(path, lineno, event, prev_hash)
    except LogError as exc:
        if exc.field == "prev" and lineno > 1 and _also_altered(raw, data, end):
            raise LogError("tampered", path, f"line {lineno} was altered: its prev no longer "
                           f"matches line {lineno - 1}, and line {lineno + 1}'s prev no "
                           f"longer matches it", line=lineno, field="prev",
                           seq=event.seq) from None
        raise


def _check_text(path: str, event: Event) -> None:
    """Refuse a control character in the untrusted text of ``game_started``: player names and
    colours, tile ids, planet and set names (they would rewrite what a terminal shows)."""
    found = setup_control(event)
    if found is not None:
        field, char = found
        raise LogError("corrupt", path, f"{field} holds the control character {char}; names, "
                       "colours, tile ids and set names may not", line=1, field=field, seq=0)
    _check_tileset_record(path, event)


def _check_tileset_record(path: str, event: Event) -> None:
    """Refuse a tile set that costs too much to play (more than ``MAX_TILES`` tiles) or whose
    recorded name is not its definition's (a replay would name another set than the one used)."""
    record = getattr(event, "tileset", None)
    if record is None:
        return
    fault = limits_fault(record.definition)
    if fault is not None:
        field, reason = fault
        raise LogError("corrupt", path, f"the tile set's {field} {reason}" if field != "tiles"
                       else f"the tile set: {reason}", line=1,
                       field=f"tileset.definition.{field}", seq=0)
    if record.name != record.definition.name:
        raise LogError("corrupt", path, f"the tile set is recorded as {record.name!r} but its "
                       f"definition is named {record.definition.name!r}", line=1,
                       field="tileset.name", seq=0)


def _also_altered(raw: bytes, data: bytes, end: int) -> bool:
    """Whether the link after the line ending at ``end`` is broken too: then that line itself
    changed (its own prev), not the line before it."""
    start = end + 1
    if start >= len(data):
        return False
    stop = data.find(b"\n", start)
    stop = len(data) if stop == -1 else stop
    if stop - start > MAX_LINE_BYTES:
        return False
    try:
        following = msgspec.json.decode(data[start:stop], type=_PrevOnly)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return False
    return following.prev != line_hash(raw)


class _AnySchema(msgspec.Struct):
    """The ``schema`` of a first line, whatever its type; the rest ignored."""

    schema: object = SCHEMA_VERSION


class _PrevOnly(msgspec.Struct):
    """The ``prev`` link of a line of any schema, the rest ignored."""

    prev: str | None = None


def _schema_of(path: str, first: bytes) -> int:
    """The schema version in ``game_started``; refuses a log from a newer meeple."""
    try:
        version = msgspec.json.decode(first, type=_AnySchema).schema
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
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


class _LockSettings:
    """How long to wait for a lock (None: the environment's or the default) and whom to tell."""

    timeout: float | None = None
    notify: Callable[[str], None] | None = None


def configure_locks(timeout: float | None = None,
                    notify: Callable[[str], None] | None = None) -> None:
    """Set how long a command waits for a lock another process holds, and the hook told once
    (a one-line message) when the wait passes ``LOCK_NOTICE`` seconds.

    ``timeout`` None means ``$MEEPLE_LOCK_TIMEOUT``, else ``DEFAULT_LOCK_TIMEOUT``; 0 tries once.
    Calling it with no arguments restores both defaults.

    :raises ValueError: ``timeout`` is negative or not finite.
    """
    if timeout is not None and not (math.isfinite(timeout) and timeout >= 0):
        raise ValueError(f"the lock timeout must be a number of seconds >= 0, not {timeout}")
    _LockSettings.timeout = timeout
    _LockSettings.notify = notify


def lock_timeout() -> float:
    """The lock timeout in force: the configured one, else ``$MEEPLE_LOCK_TIMEOUT``, else 10 s.

    :raises ValueError: ``$MEEPLE_LOCK_TIMEOUT`` is not a number of seconds >= 0.
    """
    if _LockSettings.timeout is not None:
        return _LockSettings.timeout
    text = os.environ.get(LOCK_TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_LOCK_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{LOCK_TIMEOUT_ENV} is {text!r}, not a number of seconds >= 0")
    return value


def _lock(fd: int, name: str, operation: int, failing: ErrorKind) -> None:
    """Take ``operation`` (``LOCK_SH`` or ``LOCK_EX``) on ``fd`` without ever blocking: poll,
    tell the notify hook once after ``LOCK_NOTICE`` s, give up after the lock timeout.

    :raises LogError: ``locked`` on timeout (or a bad ``$MEEPLE_LOCK_TIMEOUT``); ``failing``
        (``unreadable`` or ``write``) if the file system cannot lock.
    """
    try:
        timeout = lock_timeout()
    except ValueError as exc:
        raise LogError("locked", name, f"cannot wait for the lock: {exc}") from None
    started = time.monotonic()
    pause = 0.001
    told = False
    while True:
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        except OSError as exc:
            raise _lock_failure(name, exc, failing) from None
        waited = time.monotonic() - started
        if waited >= timeout:
            raise LogError("locked", name, f"another process has held the lock for {timeout:g} s; "
                           "try again when it is done (or raise --lock-timeout)")
        if not told and waited >= LOCK_NOTICE and _LockSettings.notify is not None:
            told = True
            _LockSettings.notify(f"waiting for {name}: another meeple process holds its lock "
                                 f"(giving up after {timeout:g} s)")
        time.sleep(min(pause, timeout - waited))
        pause = min(pause * 2, _LOCK_POLL)


def _lock_failure(name: str, exc: OSError, kind: ErrorKind) -> LogError:
    if exc.errno in _NO_LOCKS:
        return LogError(kind, name, f"cannot lock the game log: the file system does not support "
                        f"locks ({exc.strerror}); keep games on a local disk")
    return LogError(kind, name, f"cannot lock the game log: {exc.strerror}")


def _open_regular(name: str, flags: int) -> int:
    """Open a game log without blocking (a FIFO would wait for a writer for ever), and only if
    it is a regular file: never a FIFO, device, directory or socket (symlinks are followed).

    :raises LogError: ``missing``, or ``unreadable`` naming what the path is.
    """
    try:
        fd = os.open(name, flags | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise LogError("missing", name, "no such game log") from None
    except OSError as exc:
        raise LogError("unreadable", name, _why_not_open(name, exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise LogError("unreadable", name, f"is {kind_of(mode)}, not a game log (a regular file)")
        if flags & (os.O_WRONLY | os.O_RDWR) and not mode & 0o222:
            # root may write any file: a log someone marked read-only is kept as it is anyway
            raise LogError("write", name, f"is read-only (mode {stat.S_IMODE(mode):04o}): a game "
                           "log marked read-only is never written; nothing was written")
        os.set_blocking(fd, True)
    except OSError as exc:
        os.close(fd)
        raise LogError("unreadable", name, f"cannot read: {exc.strerror}") from None
    except LogError:
        os.close(fd)
        raise
    return fd


def _why_not_open(name: str, exc: OSError) -> str:
    """Why ``name`` did not open: what it is if not a regular file (a socket, or a directory
    opened for writing), else the system's reason."""
    try:
        mode = os.stat(name).st_mode
    except OSError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        return f"is {kind_of(mode)}, not a game log (a regular file)"
    return f"cannot open: {exc.strerror}"


def _read_all(fd: int, name: str) -> bytes:
    """The file's bytes from its start: at most ``MAX_FILE_BYTES``, whatever size it claims.

    A file read as its size says comes in one read, without a second copy.

    :raises LogError: ``too_large`` past the limit, ``unreadable`` on an I/O error.
    """
    limit = MAX_FILE_BYTES
    try:
        want = min(os.fstat(fd).st_size, limit) + 1
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.pread(fd, min(limit + 1 - got, max(want - got, 1 << 20)), got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot read: {exc.strerror}") from None
    if got > limit:
        raise LogError("too_large", name, f"the file is over {limit} bytes; the limit is {limit}")
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read(path: str | os.PathLike[str]) -> GameLog:
    """Read and structurally verify a log file, under a shared lock.

    :raises LogError: missing, not a regular file, unreadable, too large, corrupt, tampered,
        torn, or ``locked`` by another process past the lock timeout.
    """
    name = os.fspath(path)
    fd = _open_regular(name, os.O_RDONLY)
    try:
        # a shared lock: never read half of a line another process is appending
        _lock(fd, name, fcntl.LOCK_SH, "unreadable")
        data = _read_all(fd, name)
    finally:
        os.close(fd)
    return parse(name, data)


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


def _encode_chain(path: str, events: Iterable[Event], head: str | None,
                  schema: int = SCHEMA_VERSION) -> tuple[bytes, str | None]:
    """The lines of ``events`` chained after ``head`` in a log of ``schema``, and the new head.

    :raises LogError: ``too_large`` for an event longer than a line may be, ``old_schema``
        for an event the log's schema cannot express.
    """
    chunks: list[bytes] = []
    for event in events:
        try:
            raw = encode_as(with_prev(event, head), schema)
        except NotInSchema as exc:
            raise LogError("old_schema", path, f"{exc}; this game began under schema {schema} "
                           "and is continued in it; nothing was written", seq=event.seq) from None
        if len(raw) > MAX_LINE_BYTES:
            raise LogError("too_large", path, f"event seq {event.seq} ({_tag(event)}) would be a "
                           f"line of {len(raw)} bytes; the limit is {MAX_LINE_BYTES}; nothing "
                           "was written", seq=event.seq)
        chunks.append(raw)
        chunks.append(b"\n")
        head = line_hash(raw)
    return b"".join(chunks), head


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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def _write_or_cut_back(fd: int, name: str, data: bytes, size: int) -> None:
    """Write ``data`` at the end of a file of ``size`` bytes; if that fails, cut the file back
    to ``size`` bytes, so that it holds no part of ``data``.

    :raises LogError: ``write``, saying whether the file is as it was.
    """
    try:
        os.lseek(fd, size, os.SEEK_SET)
        _write_all(fd, data)
    except OSError as exc:
        try:
            os.ftruncate(fd, size)
        except OSError as again:
            raise LogError("write", name, f"cannot write: {exc.strerror}; and cannot cut the file "
                           f"back to its {size} bytes ({again.strerror}): its last line may be "
                           "torn, `meeple repair` cuts it off") from None
        raise LogError("write", name, f"cannot write: {exc.strerror}; nothing was written") from None


def _remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def create(path: str | os.PathLike[str], events: Sequence[Event]) -> str | None:
    """Write a new log holding ``events``; never overwrites. Returns the head hash.

    If the writing fails, the new file is removed: a failed ``create`` leaves no file behind.

    :raises LogError: ``exists`` if the file is already there; ``too_large`` for an event
        longer than a line may be, ``full`` for a log past the limits; ``write`` on OS errors.
    """
    name = os.fspath(path)
    first = events[0] if events else None
    schema = first.schema if isinstance(first, GameStarted) else SCHEMA_VERSION
    data, head = _encode_chain(name, events, None, schema)
    _check_lines(name, 0, len(events))
    _check_bytes(name, 0, len(data))
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise LogError("exists", name, "already exists; a game log is never overwritten") from None
    except OSError as exc:
        raise LogError("write", name, f"cannot create: {exc.strerror}") from None
    try:
        try:
            _lock(fd, name, fcntl.LOCK_EX, "write")
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        _remove(name)
        raise LogError("write", name, f"cannot write: {exc.strerror}; nothing was written (the "
                       "new file is removed)") from None
    except LogError:
        _remove(name)
        raise
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
    """Append ``events`` after ``expected_head``, written in the log's ``schema`` (read from
    its first line when not given); returns the new head hash.

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
        return expected_head
    fd = _open_regular(name, os.O_RDWR | os.O_APPEND)
    try:
        _lock(fd, name, fcntl.LOCK_EX, "write")
        size = _check_head(fd, name, expected_head)
        if schema is None:
            schema = _read_or_fail(name, lambda: _schema_in_file(fd, size))
        data, head = _encode_chain(name, events, expected_head, schema)
        _check_bytes(name, size, len(data))  # first: then a count reads at most the limit
        if lines is None:
            lines = _read_or_fail(name, lambda: _count_lines(fd, size))
        _check_lines(name, lines, len(events))
        _write_or_cut_back(fd, name, data, size)
    finally:
        os.close(fd)
    assert head is not None
    return head


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
            "torn", name, "the last line is a torn write; `meeple repair` cuts it off, "
            "keeping a backup"
        )
    if line_hash(last) != expected_head:
        raise LogError(
            "conflict", name,
            "the game changed since you read it; run `meeple status` and retry",
        )
    return size


def _read_or_fail(name: str, reading: Callable[[], _T]) -> _T:
    """``reading()``, an OS error becoming ``unreadable``."""
    try:
        return reading()
    except OSError as exc:
        raise LogError("unreadable", name, f"cannot read: {exc.strerror}") from None


class Repaired(NamedTuple):
    """What ``repair`` did to a log whose last line was torn."""

    #: the number of the torn last line
    line: int
    #: bytes cut off (0 when only the newline was missing)
    cut: int
    #: the copy of the file as it was; None when the newline was restored (nothing was removed)
    backup: str | None
    #: the head hash after the repair
    head: str
    #: True: the last line was whole and linked, only its newline was missing, and it was added
    newline_restored: bool


def repair(path: str | os.PathLike[str]) -> Repaired | None:
    """Mend a torn last line, and nothing else, ever; None if the log needs no repair.

    A last line that is whole and links to the line before it, lacking only its newline, gets
    its newline back (no backup: nothing is removed). A line cut short is cut off after a copy
    of the file is kept. The whole decision is taken under one exclusive lock, so a second
    repair at the same moment finds nothing to repair. A write that fails leaves the log as it
    was and removes a partial backup.

    :raises LogError: for any other fault (corrupt, tampered, ...): those need a person.
    """
    name = os.fspath(path)
    fd = _open_regular(name, os.O_RDWR)
    try:
        _lock(fd, name, fcntl.LOCK_EX, "write")
        data = _read_all(fd, name)
        torn_line = _torn_line(name, data)
        if torn_line is None:
            return None
        keep = data.rfind(b"\n") + 1
        if _whole_json(data[keep:]):
            log = _with_newline(name, data, torn_line)
            _write_or_cut_back(fd, name, b"\n", len(data))
            assert log.head is not None
            return Repaired(torn_line, 0, None, log.head, True)
        log = _cut_off(name, data, keep)
        backup = _backup(name, data)
        _truncate(fd, name, keep, backup)
    finally:
        os.close(fd)
    assert log.head is not None
    return Repaired(torn_line, len(data) - keep, backup, log.head, False)


def _torn_line(name: str, data: bytes) -> int | None:
    """The torn last line's number, or None for a sound log.

    :raises LogError: any fault other than a torn last line.
    """
    try:
        parse(name, data)
    except LogError as exc:
        if exc.kind != "torn":
            raise
        return exc.line or 1
    return None


def _whole_json(raw: bytes) -> bool:
    """Whether ``raw`` is a whole JSON document: no cut-short write can be one (an event is an
    object, which only its last byte closes)."""
    try:
        msgspec.json.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return False
    return True


def _with_newline(name: str, data: bytes, line: int) -> GameLog:
    """The log with the newline after its whole last line restored.

    :raises LogError: the line does not belong there (it is not a torn write: refused as is).
    """
    try:
        return parse(name, data + b"\n")
    except LogError as exc:
        raise LogError(exc.kind, name, f"line {line} is whole but lacks its newline, and with it "
                       f"the log is still faulty, so it is left as it is: {exc.message}",
                       line=exc.line, field=exc.field, seq=exc.seq) from None


def _cut_off(name: str, data: bytes, keep: int) -> GameLog:
    """The log without its torn last line, checked before anything is written."""
    try:
        return parse(name, data[:keep])
    except LogError as exc:
        raise LogError(exc.kind, name, f"after the torn line is cut off: {exc.message}",
                       line=exc.line, field=exc.field) from None


def _truncate(fd: int, name: str, keep: int, backup: str) -> None:
    """Cut the log to ``keep`` bytes; if that fails, the log is untouched and the backup goes."""
    try:
        os.ftruncate(fd, keep)
    except OSError as exc:
        _remove(backup)
        raise LogError("write", name, f"cannot cut off the torn line: {exc.strerror}; nothing "
                       "was changed") from None
    try:
        os.fsync(fd)
    except OSError as exc:
        raise LogError("write", name, f"cut off the torn line, but cannot flush it to disk: "
                       f"{exc.strerror}; the file as it was is kept in {backup}") from None


def _backup(name: str, data: bytes) -> str:
    """A new file ``NAME.torn-N.bak`` holding ``data``; removed again if writing it fails.

    :raises LogError: ``write``, the log untouched.
    """
    for n in range(1, 1000):
        candidate = f"{name}.torn-{n}.bak"
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            continue
        except OSError as exc:
            raise LogError("write", name, f"cannot create the backup copy {candidate}: "
                           f"{exc.strerror}; the log is left as it was") from None
        try:
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
        except OSError as exc:
            _remove(candidate)
            raise LogError("write", name, f"cannot write the backup copy {candidate}: "
                           f"{exc.strerror}; nothing was written, the log is left as it "
                           "was") from None
        _fsync_dir(candidate)
        return candidate
    raise LogError("write", name, "no free name for a backup copy; the log is left as it was")
