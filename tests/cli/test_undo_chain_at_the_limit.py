"""A legal log at the line limit made only of undo/redo pairs after a placement costs little
to read (issue: trust under attack, section 1). Before snapshots, each undo refolded the game
from its first line: `check` took 80 s and `export --html` 776 MB.

The target, `check` in under 2 s of CPU, is measured and reported in the README; CPU time on
this shared machine still moves by a fifth between runs, so the test's bound is three times
the target: it catches a return to refolding, not a few percent."""

import os
import subprocess
import sys

import pytest

from meeple.engine import Game, new_game, random_move
from meeple.events import log as logfile

from helpers import bundled

MEEPLE = [sys.executable, "-m", "meeple.cli.app"]


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    first = new_game(["red", "black"], bundled(), seed="7")
    game = Game.begin(first)
    game.push(random_move(game.state))
    count = len(game.events)
    while count < logfile.MAX_EVENTS - 1:
        count += len(game.undo()) + len(game.redo())
    events = list(game.events)
    path = tmp_path_factory.mktemp("chain") / "chain.jsonl"
    logfile.create(path, events)
    return path


#: runs meeple in a grandchild and prints that process's CPU seconds and peak memory alone
#: (the test process's own children include every earlier test's, Chromium among them)
_MEASURE = """
import resource, subprocess, sys
result = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(result.stderr)
print(result.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
print(result.stdout)
"""


def _run(*args):
    """Run meeple in a child of its own; returns (exit code, stdout, CPU s, peak MiB)."""
    result = subprocess.run([sys.executable, "-c", _MEASURE, *MEEPLE, *map(str, args)],
                            capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    first, _, rest = result.stdout.partition("\n")
    code, cpu, peak = first.split()
    return int(code), rest, float(cpu), int(peak) / 1024


@pytest.mark.slow
def test_check_of_an_undo_chain_at_the_line_limit_is_quick(chain):
    code, out, cpu, _ = _run("check", chain)
    assert code == 0 and f"{logfile.MAX_EVENTS - 1} lines" in out
    assert cpu < 6.0, f"check took {cpu:.2f} s of CPU"


@pytest.mark.slow
def test_the_html_replay_of_an_undo_chain_stays_small(chain, tmp_path):
    code, _, _, peak = _run("export", chain, "--html", tmp_path / "chain.html")
    assert code == 0
    assert peak < 100, f"export --html peaked at {peak:.0f} MiB"
    assert (tmp_path / "chain.html").stat().st_size < 16 << 20
