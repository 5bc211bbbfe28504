"""Concurrent writers through the CLI: one wins each turn, the others are told to retry."""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from meeple.engine import verify
from meeple.events import log as logfile

MEEPLE = [sys.executable, "-c", "from meeple.cli.app import main; main()"]
RACERS, TRIES = 4, 6


def _race(path: str) -> list[tuple[int, str]]:
    results = []
    for _ in range(TRIES):
        done = subprocess.run([*MEEPLE, "autoplay", path, "--turns", "1"],
                              capture_output=True, text=True)
        results.append((done.returncode, done.stderr))
    return results


@pytest.mark.slow
def test_racing_commands_keep_one_chain(tmp_path):
    path = str(tmp_path / "g.jsonl")
    subprocess.run([*MEEPLE, "new", path, "--players", "red,black", "--seed", "race"],
                   check=True, capture_output=True)
    with ThreadPoolExecutor(RACERS) as pool:
        results = [r for rs in pool.map(_race, [path] * RACERS) for r in rs]
    wins = [r for r in results if r[0] == 0]
    conflicts = [r for r in results if r[0] != 0]
    for code, stderr in conflicts:
        assert code == 1 and "the game changed since you read it" in stderr, stderr
        assert "Traceback" not in stderr
    log = logfile.read(path)
    assert verify(log.events).finding is None
    status = json.loads(subprocess.run([*MEEPLE, "status", path, "--json"], check=True,
                                       capture_output=True, text=True).stdout)
    assert status["turn"] == 1 + len(wins)
    assert len(results) == RACERS * TRIES
    print(f"\n{RACERS} racers x {TRIES} commands: {len(wins)} won, {len(conflicts)} told to retry")
