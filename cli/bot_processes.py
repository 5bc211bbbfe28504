"""The bot programs a process has started and not stopped yet (``meeple.cli.external``): each
is stopped, with whatever it started, when its bot is closed, and at the latest when this
process ends by returning, an error, Ctrl-C (an exit hook), SIGTERM or SIGHUP (a handler
that stops them, then lets the signal end the process).

What a bot started is found three ways, for a program may try to outlive its stopping:

- its process group (the program leads a session of its own);
- its descendants, found by their parents (``/proc``): a child that left the group with
  ``setsid`` while its parent still runs;
- its mark: each program is started with ``MARK`` in its environment, a random token, and
  every process that still carries it is stopped with it, an orphan of a double fork into
  a new session included. Every process found is first sent SIGSTOP, so that it starts
  nothing more, and killed once no new one is found.

A process killed by a signal runs no hook, as a pool's worker does when the pool is
terminated or the worker is sent SIGTERM. So a pool's workers also note each bot program
they start in a folder the pool's parent made (``note_in``): one file a process group, named
by its id, holding the process's start time and its mark, removed when the bot is stopped.
Once the pool is terminated, the parent stops every program still noted there
(``stop_noted``); the start time tells a bot still running from a new process that took the
id of one that ended.

A worker killed while it starts a program, before it can note it, leaves a program no one
noted. On Linux the pool's parent therefore takes in the orphans of its workers (it makes
itself their "child subreaper", ``prctl(PR_SET_CHILD_SUBREAPER)``): a bot program whose
worker died becomes its child, and is stopped with its process group once the pool is gone
(``stop_adopted``). Elsewhere such a program is left to its own end: its input is closed,
and a bot that reads it exits.

Out of reach: a process that both left the group and dropped its mark (a new environment)
once its parent ended, and everything of a ``meeple`` process killed by SIGKILL, which runs
nothing.
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import sys
import threading

#: the environment variable that marks a bot program and whatever it starts: the marks of
#: the programs it runs under, each a random token, separated by spaces
MARK = "MEEPLE_BOT"
#: the rounds of looking for more processes to stop, at most (a program that forks faster
#: than it is stopped is killed with what was found)
_ROUNDS = 20
#: the most of a process's environment read to look for a mark, in bytes
_MAX_ENVIRONMENT = 1 << 22

#: the bot programs started by this process and not stopped yet: their mark, by process group
_LIVE: dict[int, str] = {}
#: the folder where this process notes its bot programs for its parent (a pool's worker)
_NOTES: list[str] = []


def note_in(folder: str) -> None:
    """From now on, note every bot program started in ``folder`` as well (a pool's worker,
    whose parent stops them with ``stop_noted``). What the parent started is its to stop."""
    _NOTES[:] = [folder]
    _LIVE.clear()


def environment() -> tuple[str, dict[str, str]]:
    """A new mark, and the environment to start a bot program in: this one, with the mark
    added to those it already carries."""
    token = secrets.token_hex(16)
    outer = os.environ.get(MARK, "")
    return token, {**os.environ, MARK: f"{outer} {token}".strip()}


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


def watch(pid: int, token: str) -> None:
    """Note a bot program: its process group (its own session: its pid) and its mark."""
    if not _LIVE:
        atexit.register(stop_all_bots)
        _stop_on_signals()
    _LIVE[pid] = token
    for folder in _NOTES:
        try:
            with open(os.path.join(folder, str(pid)), "w", encoding="ascii") as f:
                f.write(f"{_started(pid)} {token}")
        except OSError:
            pass  # (the parent removed the folder: it is stopping)


def stop_group(pid: int, exited: bool = False) -> None:
    """Kill a bot program with whatever it started, and forget it. ``exited``: the program
    ended and was waited for, so processes whose parent is ``pid`` are not its children."""
    token = _LIVE.pop(pid, "")
    _stop(pid, token, descendants=not exited)
    for folder in _NOTES:
        try:
            os.unlink(os.path.join(folder, str(pid)))
        except OSError:
            pass


def stop_all_bots() -> None:
    """Stop every bot program this process started and has not stopped, with whatever it
    started."""
    for pid in list(_LIVE):
        stop_group(pid)


def _stop(group: int, token: str, descendants: bool) -> None:
    """Stop process group ``group``, the descendants of its leader (``descendants``) and every
    process marked ``token``: each is first sent SIGSTOP, so that it starts nothing more,
    then all are killed."""
    stopped: set[int] = set()
    spared = {os.getpid(), 0}
    for _ in range(_ROUNDS):
        found = _marked(token.encode("ascii")) if token else set()
        if descendants and group > 0:
            found |= _descendants(group)
        found -= stopped | spared
        if not found:
            break
        for pid in found:
            _signal(pid, signal.SIGSTOP)
        stopped |= found
    if group > 0:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in stopped:
        _signal(pid, signal.SIGKILL)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _pids() -> list[int]:
    try:
        return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []  # (no /proc: the process group alone is stopped)


def _descendants(root: int) -> set[int]:
    """The processes whose parent, or parent's parent and so on, is ``root`` (``/proc``)."""
    children: dict[int, list[int]] = {}
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        children.setdefault(int(stat[stat.rfind(b")") + 2:].split()[1]), []).append(pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _marked(token: bytes) -> set[int]:
    """The processes of this user whose environment carries the mark ``token``."""
    prefix = MARK.encode("ascii") + b"="
    found = set()
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                environment = f.read(_MAX_ENVIRONMENT)
        except OSError:
            continue  # (gone, or another user's)
        for variable in environment.split(b"\0"):
            if variable.startswith(prefix) and token in variable[len(prefix):].split():
                found.add(pid)
                break
    return found


def _stop_on_signals() -> None:
    """Stop this process's bot programs when SIGTERM or SIGHUP ends it, where the signal's
    action is still the default one (not in a pool's worker: see ``meeple.cli.bots.parallel``)."""
    if _NOTES or threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is None:
            continue
        try:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _ended_by)
        except (OSError, ValueError):
            pass


def _ended_by(signum: int, frame: object) -> None:
    """Stop the bot programs, then end by the signal as the default action would."""
    stop_all_bots()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def stop_noted(folder: str) -> None:
    """Stop every bot program noted in ``folder`` by a pool's workers and still running, with
    whatever it started, then remove the folder. For the pool's parent, once the workers are
    gone. The group is killed only if its leader is the same process (the same start time; a
    leader gone may have left the rest of its group, which keeps the id from being given
    again); what carries its mark, always."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="ascii") as f:
                noted, _, token = f.read().partition(" ")
            os.unlink(path)
        except (OSError, UnicodeDecodeError):
            continue
        if not name.isdigit():
            continue
        now = _started(int(name))
        if noted and now and now != noted:
            _stop(0, token, descendants=False)  # another process took the id: the mark alone
            continue
        _stop(int(name), token, descendants=True)
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
