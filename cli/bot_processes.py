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
  a new session included.

Each process found is first sent SIGSTOP, so that it starts nothing more, and all are killed
once a pass finds no new one, or after ``_ROUNDS`` passes or ``_BUDGET`` seconds. A process
started before the bot program is never its, and is passed over without reading more.

A process killed by a signal runs no hook, as a pool's worker does when the pool is
terminated or the worker is sent SIGTERM. So a pool's workers also note each bot program
they start in a folder the pool's parent made (``note_in``): one file a process group, named
by its id, holding the process's start time and its mark, removed when the bot is stopped.
Once the pool is terminated, the parent stops every program still noted there
(``stop_noted``): the group only if its leader is the process noted (the same start time),
what carries the mark in any case. The parent also takes in the orphans of its workers
(``adopt_orphans``, ``stop_adopted``): a program whose worker died becomes its child.

Out of reach (``docs/bot-protocol.md``, "Stopping"): an orphan that dropped or hid its mark
(a new environment; an environment this process may not read); a chain of processes each of
which forks the next and exits, which a pass over ``/proc`` may not see, the more likely the
more processes the machine runs; what a program has another, already running, process start
for it (a tmux or ``systemd --user`` server, ``at``); and everything of a ``meeple`` process
killed by SIGKILL, which runs nothing.
"""

from __future__ import annotations

import atexit
import os
import re
import secrets
import signal
import sys
import threading
import time

from meeple.cli import proc_table

#: the environment variable that marks a bot program and whatever it starts: the marks of
#: the programs it runs under, each a random token, separated by spaces
MARK = "MEEPLE_BOT"
_PREFIX = MARK.encode("ascii") + b"="
_TOKEN = re.compile(r"[0-9a-f]{32}", re.ASCII)
#: the passes of looking for more processes to stop, at most, and the seconds they may take
#: (a program that forks faster than it is stopped is killed with what was found)
_ROUNDS = 20
_BUDGET = 2.0

#: the bot programs started by this process and not stopped yet, by process group: their
#: mark and their start time (clock ticks since boot, None where unknown)
_LIVE: dict[int, tuple[str, int | None]] = {}
#: the folder where this process notes its bot programs for its parent (a pool's worker)
_NOTES: list[str] = []
#: whether the exit hook and the signal handlers are set (once a process)
_HOOKED: list[bool] = []


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


def watch(pid: int, token: str) -> None:
    """Note a bot program: its process group (its own session: its pid), its mark, its
    start time."""
    if not _HOOKED:
        _HOOKED.append(True)
        atexit.register(stop_all_bots)
        _stop_on_signals()
    start = proc_table.started(pid)
    _LIVE[pid] = (token, start)
    for folder in _NOTES:
        try:
            with open(os.path.join(folder, str(pid)), "w", encoding="ascii") as f:
                f.write(f"{'' if start is None else start} {token}")
        except OSError:
            pass  # (the parent removed the folder: it is stopping)


def stop_group(pid: int, exited: bool = False) -> None:
    """Kill a bot program with whatever it started, then forget it (not before: a stop cut
    short by Ctrl-C or a signal is done again by the exit hook or the handler).
    ``exited``: the program ended and was waited for, so processes whose parent is ``pid``
    are not its children."""
    token, start = _LIVE.get(pid, ("", None))
    _stop(pid, token, start, descendants=not exited)
    _LIVE.pop(pid, None)
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


def _stop(group: int, token: str, since: int | None, descendants: bool) -> None:
    """Stop process group ``group``, the descendants of its leader (``descendants``) and every
    process marked ``token`` started at tick ``since`` or later: each is first sent SIGSTOP,
    then all are killed, also when this is cut short."""
    stopped: set[int] = set()
    spared = {os.getpid(), 0}
    roots = {group} if descendants and group > 0 else set()
    mark = token.encode("ascii") if token else b""
    deadline = time.monotonic() + _BUDGET
    try:
        for _ in range(_ROUNDS):
            found = proc_table.scan(roots | stopped, since, _PREFIX, mark) - stopped - spared
            for pid in found:
                _signal(pid, signal.SIGSTOP)
            stopped |= found
            if not found or time.monotonic() > deadline:
                break
    finally:
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


def _forget_in_child() -> None:
    """A process forked from this one has started no bot program: it forgets this one's,
    and the handler that would stop them."""
    _LIVE.clear()
    _HOOKED.clear()  # (its handlers are the default ones again: a bot started here sets them)
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        try:
            if signum is not None and signal.getsignal(signum) is _ended_by:
                signal.signal(signum, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _ended_by(signum: int, frame: object) -> None:
    """Stop the bot programs, then end by the signal as the default action would."""
    stop_all_bots()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def stop_noted(folder: str) -> None:
    """Stop every bot program noted in ``folder`` by a pool's workers and still running, with
    what carries its mark, then remove the folder. For the pool's parent, once the workers
    are gone. A note is a bot's word (its process group and its user are the worker's), so
    the group is killed only if its leader is the process noted (the same start time, where
    the system says; a leader gone may have left the rest of its group, which keeps the id
    from being given again), and a mark is taken only as the token meeple writes."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="ascii") as f:
                noted, _, token = f.read(200).partition(" ")
            os.unlink(path)
        except (OSError, UnicodeDecodeError):
            continue
        if not (name.isdigit() and _TOKEN.fullmatch(token) and (noted == "" or noted.isdigit())):
            continue
        now = proc_table.started(int(name))
        since = int(noted) if noted else None
        group = int(name) if now == since and int(name) > 1 else 0
        _stop(group, token, since, descendants=False)
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
    of its own, as bot programs do, that it did not start as a bot itself: for a pool's
    parent once its workers are gone), with its process group and its descendants, and reap
    it. A child of any other kind (a server a test started, say) is left alone."""
    bots = set(_LIVE)
    for pid in sorted(proc_table.own_children() - bots):
        if not proc_table.leads_session(pid):
            continue
        _stop(pid, "", None, descendants=True)
        for _ in range(100):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    break
            except ChildProcessError:
                break
            time.sleep(0.01)
