"""Writing results (stdout), messages (stderr) and generated files.

Whatever reaches a terminal is escaped first: a name, tile id or set name from a
hostile log must not move the cursor, erase a line, recolour the screen or reorder
what a person reads (``meeple.events.text``). An error is always one line.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
import sys
from collections.abc import Callable
from typing import NoReturn

import msgspec
import typer

from meeple.events.text import escaped

#: characters JSON may carry raw but a terminal obeys: DEL, C1 controls, bidirectional marks
_JSON_UNSAFE_CHARS = "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


@functools.cache
def _json_unsafe() -> re.Pattern[str]:
    return re.compile(_JSON_UNSAFE_CHARS)  # compiled when first needed (not for ASCII text)


def emit_json(document: object) -> None:
    """One JSON document on stdout, indented, keys in the order built; every control or
    bidirectional character written as a ``\\uXXXX`` escape (the same string once decoded)."""
    try:
        encoded = msgspec.json.encode(document)
    except UnicodeEncodeError:  # a file name that is no UTF-8 text: its bytes, escaped
        encoded = msgspec.json.encode(_text_only(document))
    raw = msgspec.json.format(encoded, indent=2).decode()
    sys.stdout.write(json_safe(raw) + "\n")


def _text_only(value: object) -> object:
    """``value`` with every string that holds a lone surrogate (undecodable bytes of a file
    name) escaped."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {_text_only(k): _text_only(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_text_only(v) for v in value]
    return value


def json_safe(text: str) -> str:
    """Encoded JSON with DEL, C1 controls and bidirectional marks written as ``\\uXXXX``.

    Such characters can only stand inside JSON strings, where the escape means the same.
    """
    if text.isascii() and "\x7f" not in text:
        return text
    return _json_unsafe().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def say(text: str = "") -> None:
    """A result on stdout; control characters escaped, except the newlines and tabs we lay out."""
    typer.echo(escaped(text, newlines=True))


def note(text: str) -> None:
    """A message on stderr, escaped like ``say``."""
    typer.echo(escaped(text, newlines=True), err=True)


#: the longest error line: a hostile argument or file name is cut in the middle, not echoed whole
ERROR_LIMIT = 2000


#: the kind of error each exit code means, for an error reported as JSON (see ``fail``)
KINDS = {1: "refused", 2: "usage", 3: "bad_log", 4: "internal"}
#: whether errors go to stderr as one JSON object: set for a command line holding ``--json``
errors_as_json = False
#: whether this process has said an error (``tell_error``)
error_said = False


def fail(message: str, code: int, *, kind: str | None = None, rule: str | None = None,
         legal: str | None = None) -> NoReturn:
    """One error line on stderr (every control character escaped, newlines too; at most
    ``ERROR_LIMIT`` characters), then exit with ``code``.

    Under ``--json`` the line is one JSON object: ``error`` (the message), ``kind`` (the
    error's kind, by default its exit code's: ``KINDS``), ``code`` (the exit code), ``rule``
    (the rule id it enforces, or null) and ``legal`` (what would have been legal, or null).
    """
    tell_error(message, code, kind=kind, rule=rule, legal=legal)
    raise typer.Exit(code)


def tell_error(message: str, code: int, *, kind: str | None = None, rule: str | None = None,
               legal: str | None = None) -> None:
    """The error line of ``fail``, without exiting."""
    global error_said
    error_said = True
    text = _cut(escaped(message))
    if errors_as_json:
        document = {"error": text, "kind": kind or KINDS.get(code, "error"), "code": code,
                    "rule": rule, "legal": None if legal is None else _cut(escaped(legal))}
        typer.echo(json_safe(msgspec.json.encode(document).decode()), err=True)
    else:
        text += _see_rule(text, rule)
        if error_words is not None:
            text = error_words(text)
        typer.echo(f"meeple: error: {text}", err=True)


#: rewrites a text error line before it is said, or None (``play`` names its own commands)
error_words: Callable[[str], str] | None = None


def _see_rule(text: str, rule: str | None) -> str:
    """Where to read the rule an error cites (``rule``, else the last rule id in ``text``)
    when meeple ships its text: `` — see `meeple rules ID` ``; else nothing."""
    if "meeple rules" in text:
        return ""
    from meeple.cli import rulebook

    cited = [rule] if rule else rulebook.RULE_ID.findall(text)
    known = [found for found in cited if rulebook.known(found)]
    return f" — see `meeple rules {known[-1]}`" if known else ""


def _cut(text: str) -> str:
    """``text`` cut in the middle to at most about ``ERROR_LIMIT`` characters."""
    if len(text) <= ERROR_LIMIT:
        return text
    cut = len(text) - ERROR_LIMIT
    return f"{text[:ERROR_LIMIT // 2]}…({cut:,} characters cut)…{text[-ERROR_LIMIT // 2:]}"


#: the faults of a write to a full, over-quota or failing device (stdout included)
WRITE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def written(run: Callable[[], int]) -> int:
    """Run a command line (``run`` returns its exit code), then write what stdout still
    holds, both inside one boundary; the exit code.

    Output to a pipe or a file is buffered, so a full device may first refuse it when the
    buffer is flushed, after the command returned: that failed write is one line and exit 3
    too, as inside a command. A reader that went away (``meeple replay GAME | head``) ends
    the command quietly, with its own exit code once it has one. Either way stdout is then
    sent to the null device, so that nothing is left for the interpreter to fail writing at
    exit.
    """
    code = 0
    try:
        code = run()
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        drop_stdout()
        return code
    except OSError as exc:
        if exc.errno not in WRITE_FAULTS:
            raise
        drop_stdout()
        tell_error(f"cannot write the output: {exc.strerror}", 3, kind="write")
        return 3
    return code


def drop_stdout() -> None:
    """Send whatever stdout still holds, and all it gets from now on, to the null device."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)


def wants_json(argv: list[str]) -> bool:
    """Whether a command line asks for JSON: ``--json`` among its options (before any ``--``)."""
    for arg in argv:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


#: how much of an existing file is read to tell whether it is a game log or a seed
FIRST_LINE_LIMIT = 1 << 20
SEED_LIMIT = 1024
# patterns compiled when first used (by ``re``'s own cache), not at every command's start
_GAME_STARTED = rb'"type"\s*:\s*"game_started"'
_HEX_LINE = rb"[0-9a-fA-F]{16,}\r?\n?"
_ONE_LINE = rb"[^\n]+\n?"


def write_file(path: str, text: str | list[str], what: str) -> None:
    """Write a generated file (``-``: stdout) whole or not at all, never over something a
    user keeps: a game log, a seed file, or anything but a regular file (``refusal``).

    The text goes to a temporary file beside ``path`` that then replaces it, so a reader
    never sees half a picture.

    :raises Failure: exit 2 for a refused or impossible target, 3 for a failed write.
    """
    import tempfile

    from meeple.cli.store import Failure

    parts = [text] if isinstance(text, str) else text
    if path == "-":
        for part in parts:
            sys.stdout.write(part)
        return
    why = refusal(path, what)
    if why is not None:
        raise Failure(why, 2)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".meeple-", suffix=".tmp")
    except OSError as error:
        raise Failure(f"cannot write {path}: {error.strerror}", 2) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            for part in parts:
                out.write(part)
            size = out.tell()
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except OSError as error:
        os.unlink(temp)
        raise Failure(f"cannot write {path}: {error.strerror}; it is unchanged", 3) from None
    except BaseException:
        os.unlink(temp)
        raise
    note(f"wrote {what} to {path} ({size:,} bytes)")


def refusal(path: str, what: str) -> str | None:
    """Why ``what`` must not be written to ``path``, or None if it may.

    Refused: an empty name; an existing target that is not a regular file (a directory,
    FIFO, device or socket: checked with ``stat``, never opened); a game log (its first
    line, read up to 1 MiB, is a JSON object of ``"type": "game_started"`` in any key order,
    or a cut or torn first line that says so); a seed file (``seed_file_reason``).
    """
    if path == "":
        return f"an empty file name: give a file name for {what} (or - for stdout)"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot write {what} to {path}: {error.strerror}"
    if stat.S_ISDIR(mode):
        return f"{path} is a directory; give a file name for {what}"
    if not stat.S_ISREG(mode):
        from meeple.events.files import kind_of

        return (f"{path} is {kind_of(mode)}, not a regular file; refusing to write {what} "
                "to it (choose another file name)")
    try:
        head = _first_bytes(path)
    except OSError as error:
        return f"cannot read {path} to make sure it is no game log: {error.strerror}"
    if head is None:
        return f"{path} is not a regular file; refusing to write {what} to it"
    if _is_game_log(head):
        return f"{path} is a game log; refusing to write {what} over it (choose another file name)"
    seed = seed_file_reason(path, head)
    if seed is not None:
        return f"{path} {seed}; refusing to write {what} over it (choose another file name)"
    return None


def _first_bytes(path: str) -> bytes | None:
    """The first ``FIRST_LINE_LIMIT`` bytes of a regular file (None if it is not one by the
    time it is opened: the open never blocks, even on a FIFO swapped in)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], FIRST_LINE_LIMIT
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _is_game_log(head: bytes) -> bool:
    """Whether these first bytes of a file start a meeple game log (the first line is the
    ``game_started`` event, whatever the order of its keys, whole, cut or torn)."""
    line = head.split(b"\n", 1)[0].lstrip(b"\xef\xbb\xbf \t\r")
    if not line.startswith(b"{"):
        return False
    try:
        first = msgspec.json.decode(line)
    except msgspec.DecodeError:
        return re.search(_GAME_STARTED, line) is not None
    return isinstance(first, dict) and first.get("type") == "game_started"


def seed_file_reason(path: str, head: bytes) -> str | None:
    """Why the file at ``path`` (its first bytes ``head``) is taken for a sealed game's seed
    file, or None. A seed file is ``NAME.seed`` beside an existing ``NAME``; or ``NAME.seed``
    holding one short line; or any file of at most 1 KiB holding one line of 16 or more
    hexadecimal digits (the form ``new --sealed`` writes)."""
    short = len(head) <= SEED_LIMIT
    if path.endswith(".seed"):
        game = path[: -len(".seed")]
        if os.path.basename(game) and os.path.lexists(game):
            return f"is the seed file of the sealed game {game}"
        if short and re.fullmatch(_ONE_LINE, head):
            return "is a seed file (a name ending in .seed, one line)"
    if short and re.fullmatch(_HEX_LINE, head.strip(b" \t")):
        return "looks like a seed file (one line of hexadecimal digits)"
    return None
