"""`meeple simulate` and the worker pool on hostile arguments: a folder that already holds a
game, an output that is no folder, game counts no machine could play, and workers that fail
in ways a process pool can lose."""

import itertools
import subprocess
import sys
import textwrap

import pytest

from meeple.cli.bots.parallel import ordered_map

from helpers import fail, run

#: seconds before a command that should answer at once counts as hung
HANG = 30


def python(code: str, *args: object) -> subprocess.CompletedProcess:
    """Python code in a process of its own: one that would hang fails the test instead."""
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, timeout=HANG)


def meeple(*args: object) -> subprocess.CompletedProcess:
    return python("from meeple.cli.app import main; main()", *args)


@pytest.mark.slow  # starts processes
def test_a_game_already_in_the_folder_refuses_the_run_and_writes_nothing(tmp_path):
    out = tmp_path / "sim"
    out.mkdir()
    (out / "game-x-3.jsonl").write_text("a game kept from before\n")
    result = meeple("simulate", "--out", out, "--games", 4, "--seed", "x", "--jobs", 2)
    assert result.returncode == 1
    assert result.stderr == (
        f"meeple: error: {out}/game-x-3.jsonl: already exists (1 of the 4 game files are "
        "there); simulate never overwrites a game: choose another --out or --seed; nothing was "
        "written\n")
    assert sorted(p.name for p in out.iterdir()) == ["game-x-3.jsonl"]
    assert (out / "game-x-3.jsonl").read_text() == "a game kept from before\n"


def test_files_of_other_seeds_or_beyond_the_count_are_no_conflict(tmp_path):
    out = tmp_path / "sim"
    out.mkdir()
    for name in ("game-x-2.jsonl", "game-y-0.jsonl", "game-x-0-1.jsonl", "game-x-00.jsonl"):
        (out / name).write_text("kept\n")
    fail("simulate", "--out", out, "--games", 3, "--seed", "x", "--players", "red,black",
         "--jobs", 1, code=1)
    (out / "game-x-2.jsonl").unlink()
    run("simulate", "--out", out, "--games", 2, "--seed", "x", "--jobs", 1)
    assert (out / "game-x-00.jsonl").read_text() == "kept\n"


@pytest.mark.parametrize("what", ["file", "empty", "under_a_file"])
def test_out_that_is_no_folder_is_a_usage_error(tmp_path, what):
    existing = tmp_path / "notes.txt"
    existing.write_text("keep me\n")
    out = {"file": existing, "empty": "", "under_a_file": existing / "sim"}[what]
    line = fail("simulate", "--out", out, "--games", 1, code=2)
    assert line == {
        "file": f"meeple: error: --out {existing}: is a file, not a folder; name a folder to "
                "write the games to",
        "empty": "meeple: error: --out must name a folder to write the games to",
        "under_a_file": f"meeple: error: --out {existing}/sim: cannot use it: Not a directory",
    }[what]
    assert existing.read_text() == "keep me\n"


@pytest.mark.parametrize("games", [0, -1, 1_000_001, 10**20])
@pytest.mark.slow  # starts processes
def test_games_out_of_range_is_refused_at_once(tmp_path, games):
    """The work list is never built whole: a count of 10**20 once hung building it (a real
    process, so that a run that starts playing fails instead of playing for hours)."""
    result = meeple("simulate", "--out", tmp_path / "sim", "--games", games)
    assert result.returncode == 2
    assert result.stderr == f"meeple: error: --games must be 1 to 1,000,000; got {games}\n"
    assert not (tmp_path / "sim").exists()


@pytest.mark.parametrize("jobs", [-1, 257])
def test_jobs_out_of_range_is_a_usage_error(tmp_path, jobs):
    line = fail("simulate", "--out", tmp_path / "sim", "--games", 2, "--jobs", jobs, code=2)
    assert line == f"meeple: error: --jobs must be 0 (one process per core) to 256; got {jobs}"


@pytest.mark.parametrize("seed", ["a/b", "../up", "x" * 250])
def test_a_seed_that_cannot_name_a_file_is_a_usage_error(tmp_path, seed):
    line = fail("simulate", "--out", tmp_path / "sim", "--games", 2, "--seed", seed, code=2)
    assert line.startswith("meeple: error: --seed ")
    assert not (tmp_path / "sim").exists()


# the pool

WORKERS = textwrap.dedent("""
    import os, sys
    from meeple.cli.bots.parallel import ordered_map, WorkerError
    from meeple.events.log import LogError

    class Stubborn(Exception):
        '''An exception that pickles but cannot be rebuilt: it once stopped the pool.'''
        def __init__(self, text, *, extra):
            super().__init__(text)

    def work(i):
        if i == 5:
            {failure}
        return i

    try:
        print(list(ordered_map(work, range(40), 2)))
    except (LogError, WorkerError) as exc:
        print(type(exc).__name__, getattr(exc, "kind", ""), exc)
    import multiprocessing
    print("children left:", len(multiprocessing.active_children()))
""")


@pytest.mark.parametrize("failure, reported", [
    ('raise LogError("exists", "sim/game-5.jsonl", "already exists")',
     "LogError exists sim/game-5.jsonl: already exists"),
    ('raise Stubborn("no rebuild", extra=1)',
     "WorkerError  Stubborn in a worker process: no rebuild"),
    ("os._exit(3)",
     "WorkerError  a worker process ended without its result (killed, out of memory, or it "
     "exited); the work was stopped"),
], ids=["log_error", "unpicklable", "worker_exits"])
@pytest.mark.slow  # starts processes
def test_a_failing_worker_is_raised_in_the_caller_and_the_pool_ends(failure, reported):
    result = python(WORKERS.replace("{failure}", failure))
    assert result.stdout.splitlines() == [reported, "children left: 0"], result.stderr


@pytest.mark.slow  # starts processes
def test_inputs_are_read_lazily_and_closing_early_ends_the_pool():
    read = []

    def items():
        for i in range(100_000):
            read.append(i)
            yield i

    results = ordered_map(abs, items(), 2)
    assert list(itertools.islice(results, 3)) == [0, 1, 2]
    results.close()
    assert len(read) < 1_000
    import multiprocessing

    assert multiprocessing.active_children() == []

