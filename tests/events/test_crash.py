"""Crash consistency: writers killed with SIGKILL at random moments never leave a broken log.

Afterwards the log is valid, or valid up to a torn last line that ``repair`` cuts off;
either way every recorded move still passes the full rules check.
"""

import multiprocessing
import os
import random
import signal
import time

import pytest

from meeple.engine import Game, awaiting, new_game, play, random_move, verify
from meeple.events import log as logfile

from helpers import bundled

KILLS = 120


def _writer(path: str) -> None:
    """Append random moves forever, each after reading the log back, as the CLI does."""
    while True:
        log = logfile.read(path)
        state = verify(log.events).state
        if awaiting(state) == "over":
            os._exit(0)
        state, events = play(state, random_move(state))
        logfile.append(path, events, log.head)


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_a_valid_or_torn_log(tmp_path):
    rng = random.Random(20261121)
    context = multiprocessing.get_context("fork")
    outcomes = {"valid": 0, "torn_then_repaired": 0}
    games = 0
    path = None
    lines_before, appended = 0, 0
    for kill in range(KILLS):
        if path is None or kill % 30 == 0:
            games += 1
            path = str(tmp_path / f"g{games}.jsonl")
            first = new_game(["red", "black"], bundled(), seed=f"crash-{games}")
            opening = Game.begin(first).events
            logfile.create(path, opening)
            lines_before = len(opening)
        writer = context.Process(target=_writer, args=(path,))
        size = os.path.getsize(path)
        writer.start()
        deadline = time.monotonic() + 5  # (a loaded machine may start it late: wait till it writes)
        while os.path.getsize(path) == size and writer.is_alive() and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, 0.03))
        try:
            os.kill(writer.pid, signal.SIGKILL)
        except ProcessLookupError:  # (it ended the game and exited first)
            pass
        writer.join()
        try:
            log = logfile.read(path)
            outcomes["valid"] += 1
        except logfile.LogError as exc:
            assert exc.kind == "torn", exc
            assert logfile.repair(path) is not None
            log = logfile.read(path)
            outcomes["torn_then_repaired"] += 1
        verdict = verify(log.events)
        assert verdict.finding is None, verdict.finding
        appended += len(log.events) - lines_before
        lines_before = len(log.events)
    assert sum(outcomes.values()) == KILLS
    assert appended >= KILLS, "the writers must really have been writing when killed"
    print(f"\n{KILLS} kills, {appended} lines appended: {outcomes}")
