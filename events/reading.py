"""Reading a game log: decoded line by line, every fault located at ``path:line`` with the
field and the reason, a torn last line (a write cut short) told as such (DESIGN.md, "Events
and the log").

``read`` takes a shared lock and reads a regular file only, never more than
``MAX_FILE_BYTES`` whatever size the file claims; ``parse`` checks the line and log limits,
the decoding, the ``seq`` order, the hash chain and the names ``game_started`` carries.
"""

from __future__ import annotations

import fcntl
import os
import re

import msgspec

from meeple.events.chain import GameLog, line_hash, tag
from meeple.events.digest import sha256
from meeple.events.errors import LogError
from meeple.events.limits import MAX_EVENTS, MAX_FILE_BYTES, MAX_LINE_BYTES
from meeple.events.locking import lock, open_regular
from meeple.events.model import DECODER, SCHEMA_VERSION, Event, GameStarted, Remote, decode
from meeple.events.signed import Seats, split
from meeple.events.text import escaped, setup_control
from meeple.events.tileset import limits_fault
from meeple.events.upcast import decode_old, readable

#: (compiled when first used, by ``re``'s own cache: a sound log never needs it)
_AT_FIELD = r" - at `\$(?P<path>[^`]*)`$"


def _split_field(message: str) -> tuple[str, str | None]:
    match = re.search(_AT_FIELD, message)
    if not match:
        return message, None
    path = match.group("path").lstrip(".") or None
    return message[: match.start()], path


def decode_line(path: str, lineno: int, raw: bytes, version: int = SCHEMA_VERSION) -> Event:
    """Decode one whole line (upcast from an older ``version``), raising a located
    ``LogError``. The line ended with its newline, so a write finished it: a line that is not
    JSON is ``corrupt`` wherever it stands, the last one too; only a last line without its
    newline is a torn write (``parse`` tells that case before decoding)."""
    _check_length(path, lineno, len(raw))
    try:
        if version != SCHEMA_VERSION:
            return decode_old(raw, version)
        return decode(raw)
    except msgspec.ValidationError as exc:
        message, fld = _split_field(str(exc))
        raise LogError("corrupt", path, _in_words(message), line=lineno, field=fld) from None
    except msgspec.DecodeError as exc:
        raise LogError("corrupt", path, f"not a JSON event: {exc}", line=lineno) from None


#: what the patterns of the event fields ask for, in words
_PATTERN_WORDS = {
    "[a-z][a-z0-9-]*": "a name of lower-case letters, digits and -, starting with a letter",
    "[a-z][a-z-]*": "a name of lower-case letters and -, starting with a letter",
    "[0-9a-f]{32}": "32 lower-case hexadecimal digits",
    "[0-9a-f]{64}": "64 lower-case hexadecimal digits",
}
_REGEX_ERROR = re.compile(r"Expected `str` matching regex '\^(?P<body>.*)\(\?!\\\\n\)\$'")


def _in_words(message: str) -> str:
    """msgspec's message for a text that does not match a field's pattern, with the pattern
    said in words (or shown without its anchors)."""
    match = _REGEX_ERROR.fullmatch(message)
    if match is None:
        return message
    body = match.group("body").replace("\\\\", "\\")
    return f"Expected {_PATTERN_WORDS.get(body, f'a text of the form {body}')}"


#: how every game log starts (its first line, as meeple writes it)
_GAME_START = b'{"type":"game_started"'


def _not_a_game(path: str, first: bytes) -> LogError | None:
    """For a first line that does not decode: the error that says the file is not a game log
    at all (text, or JSON of another kind), or ``None`` where it starts as a game does (then
    its own fault, a torn write say, is the one to tell)."""
    if first.startswith(_GAME_START) or b'"game_started"' in first:
        return None
    try:
        value = msgspec.json.decode(first[:MAX_LINE_BYTES])
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        what = "is not JSON"
    else:
        kind = value.get("type") if isinstance(value, dict) else None
        if kind == "game_started":
            return None
        what = (f"is a JSON {type(value).__name__}" if not isinstance(value, dict) else
                "is a JSON object with no type" if kind is None else
                f"is a {escaped(str(kind))[:40]!s} event" if isinstance(kind, str) else
                "is a JSON object whose type is not text")
    return LogError("corrupt", path, f"not a meeple game log: its first line {what} (a game "
                    "log is JSON lines, the first a game_started event)", line=1)


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
    digests = [sha256(raw).digest() for raw in lines]
    heads = [digest.hex() for digest in digests]
    if [event.prev for event in events] != [prev_hash, *heads[:-1]] \
            or [event.seq for event in events] != list(range(index, index + len(lines))) \
            or GameStarted in set(map(type, events)):
        return start, prev_hash
    log.events.extend(events)
    log.hashes.add(b"".join(digests))
    return start + sum(map(len, lines)) + len(lines), heads[-1]


def parse(path: str, data: bytes, *, every_signature: bool = False,
          signatures_from: int | None = None) -> GameLog:
    """Check and decode a whole log's bytes: line and log limits, decoding, ``seq`` order, the
    hash chain, and no control characters in the names ``game_started`` carries.

    A remote game's signatures are checked too (``meeple.events.signed``): with
    ``every_signature`` each one (``meeple check``), or each one from line index
    ``signatures_from`` on (the lines received); otherwise, and for the lines before
    ``signatures_from`` (a copy on disk may have changed since they were checked), the last
    line of each run of one seat's lines, whose signature covers the lines of the run before
    it through their hashes, so that every line stands signed by the seat it names.

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
    seats: Seats | None = None
    unchecked: list[tuple[int, bytes, bytes | None]] = []
    version = SCHEMA_VERSION
    prev_hash: str | None = None
    start, size, index = 0, len(data), 0
    while start < size:
        end = data.find(b"\n", start)
        end = size if end == -1 else end
        lineno = index + 1
        if index == 0:
            _check_length(path, lineno, end - start)
            body, signature = split(data[start:end])
            version = log.schema = _schema_of(path, body)
            if count == 1 and torn_tail:
                raise _not_a_game(path, body) or _torn(path, data[start:end], lineno)
            try:
                first = decode_line(path, lineno, body, version=version)
            except LogError as exc:
                raise _not_a_game(path, body) or exc from None
            _check_link(path, lineno, first, None)
            _check_text(path, first)
            seats = _seats_of(path, first, signature)
            if seats is not None:
                log.signers = [seats.signer(lineno, body, signature,
                                            check=every_signature or signatures_from == 0)]
                if not (every_signature or signatures_from == 0):
                    unchecked.append((lineno, body, signature))
            log.events.append(first)
            digest = sha256(data[start:end]).digest()
            log.hashes.add(digest)
            prev_hash = digest.hex()
        else:
            each = every_signature or signatures_from is not None and index >= signatures_from
            if lineno == count and torn_tail:
                _check_length(path, lineno, end - start)
                raise _torn(path, data[start:end], lineno)
            prev_hash = _take(log, seats, data, start, end, prev_hash, check=each)
            if seats is not None and not each:
                unchecked.append((lineno, *split(data[start:end])))
        start, index = end + 1, index + 1
        if index == 1 and version == SCHEMA_VERSION and size <= MAX_LINE_BYTES \
                and seats is None:
            start, prev_hash = _sound_lines(data, start, count - torn_tail, log, prev_hash)
            index = len(log.events)
    if seats is not None and unchecked:
        _check_run_ends(seats, log.signers or [], unchecked)
    log.head = prev_hash
    return log


def _take(log: GameLog, seats: Seats | None, data: bytes, start: int, end: int,
          prev_hash: str | None, *, check: bool) -> str:
    """Read the line of ``data[start:end]`` that follows ``log``'s lines into it: its
    length, decoding, ``seq``, link and, in a remote game, its signer (its signature
    verified with ``check``). Returns its hash, the new head."""
    path, index = log.path, len(log.events)
    lineno = index + 1
    _check_length(path, lineno, end - start)
    raw = data[start:end]
    body, signature = split(raw) if seats is not None else (raw, None)
    event = decode_line(path, lineno, body, version=log.schema)
    _check_link_of(path, lineno, event, prev_hash, raw, data, end)
    if seats is not None:
        assert log.signers is not None
        log.signers.append(seats.signer(lineno, body, signature, check=check))
    log.events.append(event)
    digest = sha256(raw).digest()
    log.hashes.add(digest)
    return digest.hex()


def extend(log: GameLog, data: bytes) -> GameLog:
    """``log`` with the lines of ``data`` after its own, each read as ``parse`` reads the
    lines it receives (``signatures_from``): limits, decoding, ``seq``, the hash chain and,
    in a remote game, every new line's signature. ``log`` is left as it was: this is for a
    holder that keeps a game read once (the relay) and reads only what comes.

    :raises LogError: the first fault, located as ``parse`` locates it.
    """
    path = log.path
    if data and not data.endswith(b"\n"):
        raise _torn(path, data[data.rfind(b"\n") + 1:], len(log.events) + data.count(b"\n") + 1)
    count = len(log.events) + data.count(b"\n")
    if count > MAX_EVENTS:
        raise LogError("too_large", path, f"the log would have {count} lines; the limit is "
                       f"{MAX_EVENTS}", line=MAX_EVENTS + 1)
    grown = GameLog(path, list(log.events), log.head, log.hashes[:], log.schema,
                    None if log.signers is None else list(log.signers))
    first = log.events[0]
    seats = _seats_of(path, first, b"") if log.signers is not None else None
    prev_hash, start = log.head, 0
    while start < len(data):
        end = data.index(b"\n", start)
        prev_hash = _take(grown, seats, data, start, end, prev_hash, check=True)
        start = end + 1
    grown.head = prev_hash
    return grown


def _check_run_ends(seats: Seats, signers: list[int],
                    lines: list[tuple[int, bytes, bytes | None]]) -> None:
    """Verify the signature of the last line of each run of one seat's lines."""
    for at, (lineno, body, signature) in enumerate(lines):
        if at + 1 == len(lines) or signers[at + 1] != signers[at]:
            seats.signer(lineno, body, signature)


def _seats_of(path: str, first: Event, signature: bytes | None) -> Seats | None:
    """A remote game's seats, whose keys sign its lines; ``None`` for a local game, whose
    first line may carry no signature."""
    remote = getattr(first, "remote", msgspec.UNSET)
    if isinstance(remote, Remote):
        assert isinstance(first, GameStarted)
        return Seats(path, remote.keys, [p.colour for p in first.players])
    if signature is not None:
        raise LogError("corrupt", path, "a signature on the first line of a game that is not "
                       "remote (no remote field)", line=1, field="sig", seq=0)
    return None


def _torn(path: str, raw: bytes, lineno: int) -> LogError:
    """The error for a last line without its newline: cut short, or whole but unterminated."""
    if whole_json(raw):
        detail = "it has no newline at its end"
        remedy = ("`repair` restores the newline if the line links to the one before it "
                  "and the rules accept it")
    elif lineno == 1:
        return LogError("torn", path, "torn write: the first line, the game's set-up, is cut "
                        "short: the file holds no game to keep or mend", line=1)
    else:
        detail = "it is cut short"
        remedy = "`repair` cuts it off, keeping a backup"
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


_SHA256_HEX = r"[0-9a-f]{64}"  # (compiled when first used, as ``_AT_FIELD``)


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
                "corrupt", path, f"the first line must be game_started, not {tag(event)}",
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
        if event.prev is None or re.fullmatch(_SHA256_HEX, event.prev) is None:
            raise LogError(
                "tampered", path, f"line {lineno} was altered: its prev is not a SHA-256 "
                f"(64 lowercase hex digits), as every line's but the first must be",
                line=lineno, field="prev", seq=event.seq,
            )
        raise LogError(
            "tampered", path,
            f"line {lineno - 1} was altered: its SHA-256 no longer matches the prev "
            f"recorded on line {lineno} (or that prev was altered)",
            line=lineno - 1, field="prev", seq=event.seq - 1,
        )



def read_all(fd: int, name: str) -> bytes:
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


def read(path: str | os.PathLike[str], *, every_signature: bool = False) -> GameLog:
    """Read and structurally verify a log file, under a shared lock.

    :raises LogError: missing, not a regular file, unreadable, too large, corrupt, tampered,
        torn, or ``locked`` by another process past the lock timeout.
    """
    name = os.fspath(path)
    fd = open_regular(name, os.O_RDONLY)
    try:
        # a shared lock: never read half of a line another process is appending
        lock(fd, name, fcntl.LOCK_SH, "unreadable")
        data = read_all(fd, name)
    finally:
        os.close(fd)
    return parse(name, data, every_signature=every_signature)


def whole_json(raw: bytes) -> bool:
    """Whether ``raw`` is a whole JSON document: no cut-short write can be one (an event is an
    object, which only its last byte closes)."""
    try:
        msgspec.json.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return False
    return True
