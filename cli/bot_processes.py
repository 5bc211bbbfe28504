"""The bot programs a process has started and not stopped yet (``meeple.cli.external``), by
process group: each is stopped when its bot is closed, and at the latest when this process
ends by returning, an error or Ctrl-C (an exit hook).

A process killed by a signal runs no hook, as a pool's worker does when the pool is
terminated or the worker is sent SIGTERM. So a pool's workers also note each bot program
they start in a folder the pool's parent made (``note_in``): one file a process group, named
by its id, holding the process's start time, removed when the bot is stopped. Once the pool
is terminated, the parent stops every group still noted there (``stop_noted``); the start
time tells a bot still running from a new process that took the id of one that ended.

A worker killed while it starts a program, before it can note it, leaves a program no one
noted. On Linux the pool's parent therefore takes in the orphans of its workers (it makes
itself their "child subreaper", ``prctl(PR_SET_CHILD_SUBREAPER)``): a bot program whose
worker died becomes its child, and is stopped with its process group once the pool is gone
(``stop_adopted``). Elsewhere such a program is left to its own end: its input is closed,
and a bot that reads it exits.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

#: the process groups of the bot programs started by this process and not stopped yet
_LIVE: set[int] = set()
#: the folder where this process notes its bot programs for its parent (a pool's worker)
_NOTES: list[str] = []


def note_in(folder: str) -> None:
    """From now on, note every bot program started in ``folder`` as well (a pool's worker,
    whose parent stops them with ``stop_noted``)."""
    _NOTES[:] = [folder]


def _started(pid: int) -> str:
    """The start time of a process in clock ticks since boot (``/proc/PID/stat``), or ""
    where the system does not say."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return ""
    # the command name, in parentheses, may hold spaces: the fields after it count from it
    return stat[stat.rfind(b")") + 2:].split()[19].decode("ascii", "replace")


def watch(pid: int) -> None:
    """Note a bot program's process group (its own session: its pid)."""
    if not _LIVE:
        atexit.register(stop_all_bots)
    _LIVE.add(pid)
    for folder in _NOTES:
        try:
            with open(os.path.join(folder, str(pid)), "w", encoding="ascii") as f:
                f.write(_started(pid))
        except OSError:
            pass  # (the parent removed the folder: it is stopping)


def stop_group(pid: int) -> None:
    """Kill a bot program's whole process group, and forget it."""
    _LIVE.discard(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for folder in _NOTES:
        try:
            os.unlink(os.path.join(folder, str(pid)))
        except OSError:
            pass


def stop_all_bots() -> None:
    """Stop every bot program this process started and has not stopped (each whole process
    group). A program that left its process group is beyond reach."""
    for pid in list(_LIVE):
        stop_group(pid)


def stop_noted(folder: str) -> None:
    """Stop every bot program noted in ``folder`` by a pool's workers and still running (the
    same process: the same start time; a leader gone may have left the rest of its group, which
keeps the id from being given again), then remove the folder. For the pool's parent, once
    the workers are gone."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="ascii") as f:
                noted = f.read()
            os.unlink(path)
        except OSError:
            continue
        if not name.isdigit():
            continue
        now = _started(int(name))
        if noted and now and now != noted:
            continue  # another process took the id: the group it led is empty, or the id
            # would not have been given again
        try:
            os.killpg(int(name), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.rmdir(folder)
    except OSError:
        pass


#: prctl's option that makes a process the parent of its descendants' orphans (Linux)
_PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans(on: bool) -> bool:
    """Make this process (``on``), or no longer, the parent of the orphans of its
    descendants, where Linux offers it; whether it did."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def stop_adopted() -> None:
    """Stop every bot program this process took in as an orphan (a child leading a session
    of its own, as bot programs do, that this process did not start itself), with its
    process group, and reap it."""
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit() or int(entry) in _LIVE:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        pid, parent, session = int(entry), int(fields[1]), int(fields[3])
        if parent != me or session != pid:
            continue
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
