"""What ``/proc`` says of the processes that may be a bot program's (Linux; elsewhere each
function finds nothing): their parents, their start times, the marks in their environments,
this process's own children. ``meeple.cli.bot_processes`` stops what these find.
"""

from __future__ import annotations

import os

#: the most of a process's environment read to look for a mark, in bytes
MAX_ENVIRONMENT = 1 << 22


def started(pid: int) -> int | None:
    """A process's start time in clock ticks since boot, or None where it is gone or the
    system does not say."""
    fields = _stat(pid)
    return int(fields[19]) if fields else None


def _stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (the state first)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # the command name, in parentheses, may hold spaces: the fields after it count from it
    return stat[stat.rfind(b")") + 2:].split()


def pids() -> list[int]:
    try:
        return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []


def carries(pid: int, prefix: bytes, token: bytes) -> bool:
    """Whether the environment of ``pid`` holds ``prefix`` (``NAME=``) with ``token`` among
    its space-separated words. An environment this process may not read carries nothing."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            environment = f.read(MAX_ENVIRONMENT)
    except OSError:
        return False
    at = environment.find(prefix)
    while at != -1:
        if at == 0 or environment[at - 1] == 0:
            end = environment.find(b"\0", at)
            if token in environment[at + len(prefix):None if end == -1 else end].split():
                return True
        at = environment.find(prefix, at + 1)
    return False


def scan(roots: set[int], since: int | None, prefix: bytes, token: bytes) -> set[int]:
    """One pass over ``/proc``: the descendants of ``roots`` and the processes marked
    ``token``, among those started at tick ``since`` or later (none before a bot program can
    be its; None: all)."""
    children: dict[int, list[int]] = {}
    found: set[int] = set()
    for pid in pids():
        fields = _stat(pid)
        if not fields or (since is not None and int(fields[19]) < since):
            continue
        children.setdefault(int(fields[1]), []).append(pid)
        if token and carries(pid, prefix, token):
            found.add(pid)
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def own_children() -> set[int]:
    """This process's children, each thread's (``/proc/self/task/TID/children``)."""
    found: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/children", "rb") as f:
                found.update(int(pid) for pid in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def leads_session(pid: int) -> bool:
    """Whether ``pid`` leads a session of its own (its session id is its pid)."""
    fields = _stat(pid)
    return fields is not None and int(fields[3]) == pid
