"""The parcel: lines of a game log as armoured text, which one player sends the others by
file, e-mail or chat, and which arrives whole or is refused, never taken changed. It is part
of meeple's interchange format, like the log; ``meeple send`` writes it, ``meeple receive``
reads it::

    -----BEGIN MEEPLE PARCEL-----
    Game: <the game's id, 32 lowercase hex digits, or - for a local game>
    After: <the seq of the last line it does not carry, -1 when it starts at line 0>
    Head: <the SHA-256 of that line, lowercase hex as in a line's prev, or - after -1>
    Lines: <how many lines it carries, seqs After+1 onwards>
    SHA256: <the checksum>

    <the payload in base64, 64 columns a row>
    -----END MEEPLE PARCEL-----

The payload is the lines carried, each without its newline, joined with ``\\n`` (no newline
after the last; no lines, no payload and no rows). A line is never empty and holds neither
``\\n`` nor ``\\r``. The base64 is RFC 4648's standard alphabet, ``=`` padded, in its canonical
form. The checksum is the SHA-256 in lowercase hex of the four header lines above it as
written here (one space after each colon, each line ending with ``\\n``) followed by the
payload, so it covers the headers too. It finds damage, not forgery: anyone can compute it
(a line's signature says who wrote it). ``wrap`` writes exactly this, pure ASCII, ending with
a newline; a change to this format changes the BEGIN line.

``unwrap`` finds the one parcel in a text and ignores the text around it (a mail's greeting,
signature, other quoted text, bytes that are not UTF-8, a byte order mark). Inside the
parcel it takes any line ends (LF, CRLF, CR), spaces and tabs before and after a line,
quoting (``>`` or ``> `` to any depth, as long as no line is quoted deeper than the BEGIN
line), blank lines added or lost, and lines broken up again, shorter, anywhere but in a
marker or a header's name (a value goes on over the next lines until it has all its hex
digits). Anything else is refused with a ``ParcelError``: a character that is not ASCII, a
header unknown, missing, repeated or out of order, a row that is not base64, base64 cut
short or changed, a checksum or a line count that does not match, a parcel without its END
line, a second parcel, a text over ``4 * limit + SLACK`` characters or a parcel over
``limit // 8 + 1024`` lines. Its messages count the lines of the text given from 1, so they
point into the file or mail.

>>> text = wrap(Parcel(game="", after=-1, head=None, lines=(b'{"seq":0}', b'{"seq":1}')))
>>> text.splitlines()[1:7]
['Game: -', 'After: -1', 'Head: -', 'Lines: 2', 'SHA256: e9992854...', '']
>>> unwrap("Hi,\\r\\n> > " + text.replace("\\n", "\\r\\n> > "), limit=1000).lines
(b'{"seq":0}', b'{"seq":1}')
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

BEGIN = "-----BEGIN MEEPLE PARCEL-----"
END = "-----END MEEPLE PARCEL-----"
#: base64 characters in a row of the body, as ``wrap`` writes it
WIDTH = 64
#: the headers, in their order
HEADERS = ("Game", "After", "Head", "Lines", "SHA256")
#: how much of a file ``looks_like_parcel`` looks at
LOOK = 1 << 20
#: what ``unwrap`` reads beyond four times ``limit``: the mail around a parcel
SLACK = 64 << 10

_BEGIN_WORDS, _END_WORDS = BEGIN.strip("-"), END.strip("-")
_VALUES = {
    "Game": (re.compile(r"-|[0-9a-f]{32}"), "32 lowercase hex digits or -"),
    "After": (re.compile(r"-1|0|[1-9][0-9]{0,14}"), "a seq or -1"),
    "Head": (re.compile(r"-|[0-9a-f]{64}"), "64 lowercase hex digits or -"),
    "Lines": (re.compile(r"0|[1-9][0-9]{0,14}"), "a count of lines"),
    "SHA256": (re.compile(r"[0-9a-f]{64}"), "64 lowercase hex digits"),
}
#: how long a value broken over lines can grow: the hex digits of an id or a hash
_WHOLE = {"Game": 32, "Head": 64, "SHA256": 64}
_SPACES = " \t\f\v"
#: what quoting and indenting put before a line
_QUOTING = _SPACES + ">"
_BASE64 = re.compile(r"[A-Za-z0-9+/=]*")
_STARTS = re.compile(rb"(?:\A(?:\xef\xbb\xbf)?|[\r\n])[ \t>]*" + re.escape(BEGIN.encode()))


class ParcelError(Exception):
    """No parcel, or one mangled beyond repair: the reason in one line, and where."""


@dataclass(frozen=True)
class Parcel:
    """Lines of one game's log: ``lines`` (each without its newline) are those after seq
    ``after``, whose line hashes to ``head`` (``None`` when ``after`` is -1); ``game`` is the
    remote game's id, or "" for a local game."""

    game: str
    after: int
    head: str | None
    lines: tuple[bytes, ...]


def wrap(parcel: Parcel) -> str:
    """The parcel as text, in the format above.

    :raises ValueError: for a parcel that cannot be written (a malformed id or head, an
        empty line or one holding a line end)."""
    if parcel.game == "-" or parcel.head in ("", "-"):
        raise ValueError("a local game's id is \"\", a missing head None, never -")
    _check_fields({"Game": parcel.game or "-", "After": str(parcel.after),
                   "Head": parcel.head or "-"}, ValueError)
    for line in parcel.lines:
        if not line or b"\n" in line or b"\r" in line:
            raise ValueError(f"a line carried must be non-empty, without line ends: {line[:40]!r}")
    payload = b"\n".join(parcel.lines)
    body = base64.b64encode(payload).decode("ascii")
    rows = [body[start:start + WIDTH] for start in range(0, len(body), WIDTH)]
    heading, checksum = _heading(parcel.game, parcel.after, parcel.head, len(parcel.lines),
                                 payload)
    return "\n".join([BEGIN + "\n" + heading + "SHA256: " + checksum, "", *rows, END, ""])


def unwrap(text: str | bytes, *, limit: int) -> Parcel:
    """The one parcel in ``text``, carrying at most ``limit`` bytes of payload; a text of
    more than ``4 * limit + SLACK`` characters is refused unread.

    :raises ParcelError: for no parcel, two, or one mangled beyond repair."""
    if len(text) > 4 * limit + SLACK:
        raise ParcelError(
            f"a text of {len(text)} characters is too long for a parcel of at most {limit} bytes")
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    first, segment = _find(text.removeprefix("\ufeff").removeprefix("\xef\xbb\xbf"), limit)
    rows = _unquote(first, segment)
    parts, at, body = _read_headers(rows, first + segment.count("\n"))
    values = {name: "".join(value) for name, value in parts.items()}
    _check_fields(values, ParcelError, at)
    payload = _decode(itertools.chain(body, rows), limit)
    game = "" if values["Game"] == "-" else values["Game"]
    after, count = int(values["After"]), int(values["Lines"])
    head = None if values["Head"] == "-" else values["Head"]
    if _heading(game, after, head, count, payload)[1] != values["SHA256"]:
        raise ParcelError(f"parcel line {at['SHA256']}: the checksum does not match: "
                          "the parcel was changed on the way")
    carried = payload.split(b"\n") if payload else []
    if len(carried) != count:
        raise ParcelError(f"parcel line {at['Lines']}: Lines says {count}, "
                          f"the parcel carries {len(carried)}")
    for seq, line in enumerate(carried, start=after + 1):
        if not line or b"\r" in line:
            raise ParcelError(f"the line for seq {seq} is empty or holds a carriage return")
    return Parcel(game=game, after=after, head=head, lines=tuple(carried))


def looks_like_parcel(data: bytes) -> bool:
    """Whether ``data`` holds a BEGIN line (quoted or not) in its first ``LOOK`` bytes: a
    parcel, not a log, whose lines are JSON and so never start with it."""
    return _STARTS.search(data[:LOOK]) is not None


def _heading(game: str, after: int, head: str | None, count: int, payload: bytes
             ) -> tuple[str, str]:
    """The four header lines the checksum covers, each ending with a newline; the checksum."""
    heading = f"Game: {game or '-'}\nAfter: {after}\nHead: {head or '-'}\nLines: {count}\n"
    return heading, hashlib.sha256(heading.encode("ascii") + payload).hexdigest()


def _check_fields(values: dict[str, str], error: type[Exception],
                  at: dict[str, int] | None = None) -> None:
    """Each header's value in its form, and a head after any line but -1."""
    for name, value in values.items():
        pattern, what = _VALUES[name]
        if not pattern.fullmatch(value):
            where = f"parcel line {at[name]}: " if at else ""
            shown = value if len(value) <= 70 else value[:64] + "..."
            raise error(f"{where}{name} {shown!r} is not {what}")
    if (values["After"] == "-1") != (values["Head"] == "-"):
        where = f"parcel line {at['Head']}: " if at else ""
        raise error(f"{where}Head must be - when After is -1, and a hash after any other line")


def _line_of(text: str, at: int) -> int:
    """The number of the line of ``text`` that ``at`` is on, counting CR, LF and CRLF."""
    return text.count("\r", 0, at) + text.count("\n", 0, at) - text.count("\r\n", 0, at) + 1


def _find(text: str, limit: int) -> tuple[int, str]:
    """The number of the BEGIN line of the one parcel in ``text``, and its lines from there to
    the END line, joined with ``\\n``: no more than a parcel of ``limit`` bytes can have."""
    begins, ends = text.count(_BEGIN_WORDS), text.count(_END_WORDS)
    if begins > 1:
        raise ParcelError(f"{begins} parcels in one text: send one at a time")
    if not begins:
        if ends:
            raise ParcelError(f"parcel line {_line_of(text, text.find(_END_WORDS))}: an END "
                              "line with no BEGIN line: the start of the parcel is missing")
        raise ParcelError("no meeple parcel in it")
    begin = text.find(_BEGIN_WORDS)
    first, end = _line_of(text, begin), text.find(_END_WORDS, begin)
    if end < 0:
        raise ParcelError(f"parcel line {first}: a BEGIN line with no END line: "
                          "the parcel is cut short")
    if ends > 1:
        stray = text.find(_END_WORDS)
        stray = text.find(_END_WORDS, end + 1) if stray == end else stray
        raise ParcelError(f"parcel line {_line_of(text, stray)}: an END line of another "
                          "parcel: send one at a time")
    start = max(text.rfind("\n", 0, begin), text.rfind("\r", 0, begin)) + 1
    stop = min(at for at in (text.find("\n", end), text.find("\r", end), len(text)) if at >= 0)
    segment = text[start:stop].replace("\r\n", "\n").replace("\r", "\n")
    if (breaks := segment.count("\n")) > limit // 8 + 1024:
        raise ParcelError(f"parcel line {first}: the parcel spans {breaks + 1} lines, more "
                          f"than one of at most {limit} bytes can have")
    return first, segment


def _unquote(first: int, segment: str) -> Iterator[tuple[int, str]]:
    """The lines of ``segment``, from line ``first`` of the text, without their quoting and
    spaces: the BEGIN and END lines checked, the lines between them given with their number."""
    depth, last = 0, first + segment.count("\n")
    for number, line in enumerate(io.StringIO(segment), start=first):
        line = line.rstrip("\n")
        if not line.isascii():
            raise ParcelError(f"parcel line {number}: a character that is not ASCII")
        unquoted = line.lstrip(_QUOTING)
        quotes = line[:len(line) - len(unquoted)].count(">")
        if number == first:
            depth = quotes
        elif quotes > depth:
            raise ParcelError(f"parcel line {number}: quoted deeper than the BEGIN line")
        row = unquoted.rstrip(_SPACES)
        marker = BEGIN if number == first else END if number == last else None
        if marker is not None and row != marker:
            raise ParcelError(f"parcel line {number}: the {marker.split()[0].strip('-')} "
                              "line is damaged, or not on a line of its own")
        if marker is None:
            yield number, row


def _read_headers(rows: Iterator[tuple[int, str]], end: int
                  ) -> tuple[dict[str, list[str]], dict[str, int], list[tuple[int, str]]]:
    """The headers' values (in parts) and the line each starts on, read from ``rows`` up to the first
    row of the body (returned), the first after the last header's value is whole: a value
    goes on over the next rows until it is 32 or 64 hex digits, or one token."""
    parts: dict[str, list[str]] = {}
    at: dict[str, int] = {}
    current = ""
    for number, row in rows:
        for place, token in enumerate(row.split()):
            name, colon, rest = token.partition(":")
            value = "".join(parts.get(current, ["-"]))
            if colon:
                if name not in HEADERS:
                    raise ParcelError(f"parcel line {number}: unknown header {name[:20]!r}")
                if name in parts:
                    raise ParcelError(f"parcel line {number}: the header {name} twice")
                if name != HEADERS[len(parts)]:
                    raise ParcelError(f"parcel line {number}: the header {HEADERS[len(parts)]} "
                                      f"is missing before {name}")
                parts[name], at[name], current = [rest], number, name
            elif not value or value != "-" and len(value) < _WHOLE.get(current, 0):
                parts[current].append(token)
            elif len(parts) == len(HEADERS) and not place:
                return parts, at, [(number, row)]
            else:
                raise ParcelError(f"parcel line {number}: " + (
                    f"the header {current} runs on" if len(parts) == len(HEADERS)
                    else f"the header {HEADERS[len(parts)]} is missing" if parts
                    else "a header must come first"))
    if len(parts) < len(HEADERS):
        raise ParcelError(f"parcel line {end}: the header {HEADERS[len(parts)]} is missing")
    return parts, at, []


def _decode(rows: Iterable[tuple[int, str]], limit: int) -> bytes:
    """The payload of the body's ``rows``: sized before it is decoded, and refused unless
    it is exactly what ``wrap`` would have written for it."""
    chunks, size = [], 0
    for number, row in rows:
        chunk = "".join(row.split())
        if not _BASE64.fullmatch(chunk):
            raise ParcelError(f"parcel line {number}: not base64")
        chunks.append(chunk)
        size += len(chunk)
        if size // 4 * 3 - 2 > limit:
            raise ParcelError(f"parcel line {number}: the parcel carries more than its limit, "
                              f"{limit} bytes")
    body = "".join(chunks)
    if len(body) % 4:
        raise ParcelError(f"the base64 has {len(body)} characters, not a multiple of 4: "
                          "a part of it is missing")
    try:
        payload = binascii.a2b_base64(body, strict_mode=True)
    except binascii.Error as exc:
        raise ParcelError(f"the base64 does not decode: {exc}") from None
    if len(payload) > limit:
        raise ParcelError(f"the parcel carries {len(payload)} bytes, more than its limit, "
                          f"{limit} bytes")
    if base64.b64encode(payload).decode("ascii") != body:
        raise ParcelError("the base64 is not as written: a character in it was changed")
    return payload
