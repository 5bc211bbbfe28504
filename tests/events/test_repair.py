"""``repair`` mends a torn last line and nothing else: a whole last line that lost only its
newline gets it back (a finished game stays finished), and repairs racing each other leave one
backup and one repaired log."""

import fcntl
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from meeple.engine import verify
from meeple.events import log as logfile

FINISHED = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes()
REPAIRERS = 4


def test_a_finished_game_that_lost_its_last_newline_gets_it_back(tmp_path):
    """``truncate -s -1`` of a finished game: the newline is restored, the game_ended line kept."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(FINISHED[:-1])
    with pytest.raises(logfile.LogError, match="restores the newline"):
        logfile.read(path)
    done = logfile.repair(path)
    assert done is not None and done.newline_restored
    assert (done.line, done.cut, done.backup) == (FINISHED.count(b"\n"), 0, None)
    assert path.read_bytes() == FINISHED
    log = logfile.read(path)
    assert done.head == log.head and type(log.events[-1]).__name__ == "GameEnded"
    assert verify(log.events).state.phase == "over"
    assert not list(tmp_path.glob("*.bak"))
    assert logfile.repair(path) is None


def test_a_whole_last_line_that_does_not_link_is_left_for_a_person(tmp_path):
    """A complete line without newline is no torn write: if it does not belong (here its prev
    was altered) repair refuses rather than cut a recorded line off."""
    path = tmp_path / "g.jsonl"
    lines = FINISHED.split(b"\n")[:-1]
    lines[-1] = lines[-1].replace(b'"prev":"b', b'"prev":"c')
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    with pytest.raises(logfile.LogError, match="is whole but lacks its newline") as exc:
        logfile.repair(path)
    assert exc.value.kind == "tampered"
    assert path.read_bytes() == before and not list(tmp_path.glob("*.bak"))


def _read_lock(path: str, ready, release) -> None:
    """A reader holding its shared lock until released (in its own process: a lock taken here
    would be inherited by every repairer forked after it)."""
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_SH)
    ready.set()
    release.wait(10)


def _repairer(path: str, started, results) -> None:
    started.release()
    try:
        results.put(("done", logfile.repair(path)))
    except Exception as exc:  # noqa: BLE001 - the parent reports it
        results.put(("error", repr(exc)))


def test_racing_repairs_make_one_backup_and_tell_the_others_there_is_nothing_to_repair(tmp_path):
    """Every repairer starts while a reader holds the lock, so all of them see the torn line;
    the first to get the lock repairs, the others find a sound log."""
    path = tmp_path / "g.jsonl"
    torn = b'{"type":"turn_ended","seq":310,"pl'
    path.write_bytes(FINISHED + torn)
    context = multiprocessing.get_context("fork")
    started, results = context.Semaphore(0), context.Queue()
    workers = [context.Process(target=_repairer, args=(str(path), started, results))
               for _ in range(REPAIRERS)]
    ready, release = context.Event(), context.Event()
    reader = context.Process(target=_read_lock, args=(str(path), ready, release))
    reader.start()
    try:
        assert ready.wait(5)
        for worker in workers:
            worker.start()
        for _ in workers:
            assert started.acquire(timeout=5)
        time.sleep(0.4)
    finally:
        release.set()
        reader.join(10)
    for worker in workers:
        worker.join(20)
        assert worker.exitcode == 0
    outcomes = [results.get(timeout=5) for _ in workers]
    assert all(status == "done" for status, _ in outcomes), outcomes
    repaired = [done for _, done in outcomes if done is not None]
    assert len(repaired) == 1 and repaired[0].cut == len(torn), outcomes
    assert [done for _, done in outcomes].count(None) == REPAIRERS - 1
    backups = list(tmp_path.glob("*.bak"))
    assert [str(b) for b in backups] == [repaired[0].backup]
    assert backups[0].read_bytes() == FINISHED + torn
    assert path.read_bytes() == FINISHED and logfile.read(path).head == repaired[0].head


def test_what_accept_raises_leaves_a_whole_last_line_without_its_newline(tmp_path):
    """``accept`` sees the log as the newline would make it, before anything is written; what
    it raises leaves the file as it was (the CLI refuses there what the rules would not
    write). A line cut short is cut off without asking it: cutting adds nothing."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(FINISHED[:-1])
    seen = []

    def refuse(log):
        seen.append((len(log.events), log.head))
        raise logfile.LogError("tampered", log.path, "not the rules' line")

    with pytest.raises(logfile.LogError, match="not the rules' line"):
        logfile.repair(path, accept=refuse)
    assert path.read_bytes() == FINISHED[:-1]
    assert seen == [(FINISHED.count(b"\n"), logfile.parse("finished", FINISHED).head)]
    done = logfile.repair(path, accept=lambda log: None)
    assert done is not None and done.newline_restored and path.read_bytes() == FINISHED
    path.write_bytes(FINISHED[:-40])
    assert logfile.repair(path, accept=refuse) is not None and len(seen) == 1
