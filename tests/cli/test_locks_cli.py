"""A lock held by another process: the command says it waits, gives up after the bound
(`--lock-timeout`, default 10 s) with exit 1, and writes nothing (issue: trust under attack,
section 5)."""

import fcntl
import os
import subprocess
import sys
import time

from helpers import run

MEEPLE = [sys.executable, "-m", "meeple.cli.app"]


def test_a_held_lock_is_waited_for_with_a_message_then_refused(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "2")
    before = game.read_bytes()
    with open(game, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        began = time.monotonic()
        result = subprocess.run([*MEEPLE, "--lock-timeout", "1", "autoplay", str(game)],
                                capture_output=True, text=True, timeout=30,
                                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        waited = time.monotonic() - began
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("meeple: waiting for") and "holds its lock" in lines[0]
    assert lines[-1].startswith("meeple: error:") and "lock" in lines[-1]
    assert "Traceback" not in result.stderr
    assert 0.9 < waited < 15
    assert game.read_bytes() == before


def test_a_bad_lock_timeout_is_a_usage_error(tmp_path):
    result = subprocess.run([*MEEPLE, "status", str(tmp_path / "g.jsonl")], capture_output=True,
                            text=True, timeout=30,
                            env={**os.environ, "MEEPLE_LOCK_TIMEOUT": "soon"})
    assert result.returncode == 2 and "MEEPLE_LOCK_TIMEOUT" in result.stderr
