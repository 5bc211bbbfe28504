"""Opening a game log and locking it: only a regular file, opened without blocking; locks
polled, never waited on blindly (DESIGN.md, "Events and the log").

After ``LOCK_NOTICE`` seconds the hook set by ``configure_locks`` is told once; after the
lock timeout the command gives up (``locked``).
"""

from __future__ import annotations

import errno
import fcntl
import math
import os
import stat
import time
from collections.abc import Callable

from meeple.events.errors import ErrorKind, LogError
from meeple.events.files import kind_of

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


def lock(fd: int, name: str, operation: int, failing: ErrorKind) -> None:
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
                           "try again when it is done (or wait longer for locks)")
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


def open_regular(name: str, flags: int) -> int:
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

