"""Bot programs that end (README, "Bots in any language"): a bot program, and its whole
process group, is stopped when it is closed, Ctrl-C during its grace to exit included."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from meeple.engine import Game

pytestmark = pytest.mark.slow  # (starts bot programs)

#: a bot that notes its pid and its child's, then never answers nor exits by itself
STUBBORN = """\
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
with open(sys.argv[0] + ".pids", "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
time.sleep(120)
"""


def _stubborn(tmp_path) -> str:
    path = tmp_path / "stubborn.py"
    path.write_text(STUBBORN)
    return str(path)


def _pids(path: str) -> list[int]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            text = open(path + ".pids").read().split()
            if len(text) == 2:
                return [int(p) for p in text]
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError("the bot did not start")


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # (a zombie of this process's is gone once reaped)
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False


def _started(program: str):
    from meeple.cli.external import ExternalBot

    bot = ExternalBot(f"cmd:{program}", 5.0)
    bot._start(Game.new(["red", "blue"], "classic", seed="bots").state)
    return bot


def test_ctrl_c_during_the_grace_still_stops_the_bot_and_what_it_started(tmp_path,
                                                                           monkeypatch):
    program = _stubborn(tmp_path)
    bot = _started(program)
    pids = _pids(program)
    wait = subprocess.Popen.wait

    def interrupted(self, timeout=None):
        if timeout is not None:
            raise KeyboardInterrupt
        return wait(self, timeout)

    monkeypatch.setattr(subprocess.Popen, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bot.close()
    monkeypatch.setattr(subprocess.Popen, "wait", wait)
    assert all(_gone(pid) for pid in pids), "the bot or its child is left running"
