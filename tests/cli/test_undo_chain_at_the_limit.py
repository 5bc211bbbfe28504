"""A legal log at the line limit made only of undo/redo pairs after a placement costs little
to read (issue: trust under attack, section 1). Before snapshots, each undo refolded the game
from its first line: `check` took 80 s and `export --html` 776 MB.

The target, `check` in under 2 s of CPU, is measured and reported in the README; CPU time on
this shared machine still moves by a fifth between runs, so the test's bound is three times
the target: it catches a return to refolding, not a few percent."""

import os
import resource
import subprocess
import sys

import pytest

from meeple.engine.bots import random_move
from meeple.engine.commands import Redo, Undo
from meeple.engine.play import play, settle
from meeple.engine.setup import new_game
from meeple.engine.state import start
from meeple.events import log as logfile

from helpers import bundled

MEEPLE = [sys.executable, "-m", "meeple.cli.app"]


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    first = new_game(["red", "black"], bundled(), seed="7")
    state, opening = settle(start(first))
    events = [first, *opening]
    state, new = play(state, random_move(state))
    events += new
    while len(events) < logfile.MAX_EVENTS - 1:
        for command in (Undo(), Redo()):
            state, new = play(state, command)
            events += new
    path = tmp_path_factory.mktemp("chain") / "chain.jsonl"
    logfile.create(path, events)
    return path


def _run(*args):
    """Run meeple in a child; returns (result, CPU seconds, peak memory in MiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run([*MEEPLE, *map(str, args)], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return result, cpu, after.ru_maxrss / 1024


@pytest.mark.slow
def test_check_of_an_undo_chain_at_the_line_limit_is_quick(chain):
    result, cpu, _ = _run("check", chain)
    assert result.returncode == 0 and f"{logfile.MAX_EVENTS - 1} lines" in result.stdout
    assert cpu < 6.0, f"check took {cpu:.2f} s of CPU"


@pytest.mark.slow
def test_the_html_replay_of_an_undo_chain_stays_small(chain, tmp_path):
    result, _, peak = _run("export", chain, "--html", tmp_path / "chain.html")
    assert result.returncode == 0, result.stderr
    assert peak < 100, f"export --html peaked at {peak:.0f} MiB"
    assert (tmp_path / "chain.html").stat().st_size < 16 << 20
