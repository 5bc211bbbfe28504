"""The bot programs a process has started and not stopped yet (``meeple.cli.external``), by
process group: each is stopped when its bot is closed, and at the latest when this process
ends by returning, an error or Ctrl-C (an exit hook). A process killed by a signal runs no
hook: a pool's worker that is terminated leaves its bots to their own end (their input is
closed: a bot that reads it exits).
"""

from __future__ import annotations

import atexit
import os
import signal

#: the process groups of the bot programs started by this process and not stopped yet
_LIVE: set[int] = set()


def watch(pid: int) -> None:
    """Note a bot program's process group (its own session: its pid)."""
    if not _LIVE:
        atexit.register(stop_all_bots)
    _LIVE.add(pid)


def stop_group(pid: int) -> None:
    """Kill a bot program's whole process group, and forget it."""
    _LIVE.discard(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all_bots() -> None:
    """Stop every bot program this process started and has not stopped (each whole process
    group). A program that left its process group is beyond reach."""
    for pid in list(_LIVE):
        stop_group(pid)
