"""Mending a torn last line of a game log, and nothing else, ever (DESIGN.md, "Events and the
log"): a write cut short is cut off after a copy of the file is kept; a whole last line that
only lost its newline gets it back. A write that fails leaves the log as it was and removes
a partial backup.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from typing import NamedTuple

from meeple.events.chain import GameLog
from meeple.events.errors import LogError
from meeple.events.locking import lock, open_regular
from meeple.events.reading import parse, read_all, whole_json
from meeple.events.writing import fsync_dir, remove, write_all, write_or_cut_back


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


def repair(path: str | os.PathLike[str],
           accept: Callable[[GameLog], None] | None = None) -> Repaired | None:
    """Mend a torn last line, and nothing else, ever; None if the log needs no repair.

    A last line that is whole and links to the line before it, lacking only its newline, gets
    its newline back (no backup: nothing is removed), once ``accept`` (if given) has seen the
    log as the newline would make it and raised nothing: this layer knows no rules, so a
    caller that does (``meeple repair``) refuses there a line the rules would not have
    written; whatever ``accept`` raises leaves the file untouched. A line cut short is cut off
    after a copy of the file is kept. The whole decision is taken under one exclusive lock, so
    a second repair at the same moment finds nothing to repair. A write that fails leaves the
    log as it was and removes a partial backup.

    :raises LogError: for any other fault (corrupt, tampered, ...): those need a person.
    """
    name = os.fspath(path)
    fd = open_regular(name, os.O_RDWR)
    try:
        lock(fd, name, fcntl.LOCK_EX, "write")
        data = read_all(fd, name)
        torn_line = _torn_line(name, data)
        if torn_line is None:
            return None
        keep = data.rfind(b"\n") + 1
        if whole_json(data[keep:]):
            log = _with_newline(name, data, torn_line)
            if accept is not None:
                accept(log)
            write_or_cut_back(fd, name, b"\n", len(data))
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
        remove(backup)
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
                write_all(fd, data)
            finally:
                os.close(fd)
        except OSError as exc:
            remove(candidate)
            raise LogError("write", name, f"cannot write the backup copy {candidate}: "
                           f"{exc.strerror}; nothing was written, the log is left as it "
                           "was") from None
        fsync_dir(candidate)
        return candidate
    raise LogError("write", name, "no free name for a backup copy; the log is left as it was")
