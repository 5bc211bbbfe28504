"""Locks: a command never waits for ever on a lock another process holds. It says so once after
half a second, gives up after the lock timeout (``locked``, a refusal), and a file system
without locks is a clear error, never an uncaught OSError."""

import errno
import fcntl
import multiprocessing
import os
import time
from contextlib import contextmanager

import pytest

from meeple.engine import new_game
from meeple.events import log as logfile
from meeple.events.model import TurnEnded

from helpers import bundled

#: how long a holder keeps its lock at most: longer than any timeout used here
HOLD_SECONDS = 5


@pytest.fixture(autouse=True)
def default_locks():
    logfile.configure_locks()
    yield
    logfile.configure_locks()


def _game(path):
    first = new_game(["red", "black"], bundled(), seed="1")
    return logfile.create(path, [first, TurnEnded(seq=1, player="red", turn=1)])


def _hold(path: str, operation: int, ready, release) -> None:
    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, operation)
    ready.set()
    release.wait(HOLD_SECONDS)


@contextmanager
def held(path, operation=fcntl.LOCK_EX):
    """Another process holds ``operation`` on ``path`` for the block."""
    context = multiprocessing.get_context("fork")
    ready, release = context.Event(), context.Event()
    holder = context.Process(target=_hold, args=(str(path), operation, ready, release))
    holder.start()
    try:
        assert ready.wait(5)
        yield
    finally:
        release.set()
        holder.join(10)


def test_read_gives_up_after_the_timeout_and_says_it_is_waiting_once(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    told = []
    logfile.configure_locks(0.8, told.append)
    with held(path):
        started = time.monotonic()
        with pytest.raises(logfile.LogError) as exc:
            logfile.read(path)
        waited = time.monotonic() - started
    assert 0.8 <= waited < 1.5
    assert exc.value.kind == "locked" and exc.value.kind in logfile.REFUSALS
    assert exc.value.message == ("another process has held the lock for 0.8 s; try again when it "
                                 "is done (or wait longer for locks)")
    assert told == [f"waiting for {path}: another meeple process holds its lock (giving up after "
                    "0.8 s)"]
    assert len(logfile.read(path).events) == 2


def test_append_and_repair_give_up_while_a_reader_holds_the_lock(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    before = path.read_bytes()
    logfile.configure_locks(0.3)
    with held(path, fcntl.LOCK_SH):
        for attempt in (lambda: logfile.append(path, [TurnEnded(seq=2, player="red", turn=2)],
                                               head),
                        lambda: logfile.repair(path)):
            started = time.monotonic()
            with pytest.raises(logfile.LogError) as exc:
                attempt()
            assert exc.value.kind == "locked" and time.monotonic() - started < 1.0
    assert path.read_bytes() == before


def test_the_environment_sets_the_timeout(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    _game(path)
    monkeypatch.setenv(logfile.LOCK_TIMEOUT_ENV, "0.3")
    with held(path):
        started = time.monotonic()
        with pytest.raises(logfile.LogError, match="held the lock for 0.3 s") as exc:
            logfile.read(path)
        assert exc.value.kind == "locked" and time.monotonic() - started < 1.0
        monkeypatch.setenv(logfile.LOCK_TIMEOUT_ENV, "soon")
        with pytest.raises(logfile.LogError, match="MEEPLE_LOCK_TIMEOUT is 'soon', not a number"):
            logfile.read(path)
    with pytest.raises(ValueError):
        logfile.configure_locks(-1)


@pytest.mark.parametrize("code", [errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL])
def test_a_file_system_without_locks_is_a_clear_error_and_changes_nothing(tmp_path, monkeypatch,
                                                                         code):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    path.write_bytes(path.read_bytes() + b'{"type":"turn_ended","seq":2,"pl')
    before = path.read_bytes()

    def flock(fd, operation):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fcntl, "flock", flock)
    first = new_game(["red", "black"], bundled(), seed="1")
    attempts = {
        "unreadable": lambda: logfile.read(path),
        "write": lambda: logfile.append(path, [TurnEnded(seq=2, player="red", turn=2)], head),
    }
    for kind, attempt in [*attempts.items(), ("write", lambda: logfile.repair(path)),
                          ("write", lambda: logfile.create(tmp_path / "new.jsonl", [first]))]:
        with pytest.raises(logfile.LogError) as exc:
            attempt()
        assert exc.value.kind == kind
        assert "cannot lock the game log: the file system does not support locks" in exc.value.message
    assert path.read_bytes() == before
    assert not (tmp_path / "new.jsonl").exists() and not list(tmp_path.glob("*.bak"))
