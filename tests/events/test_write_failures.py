"""A write that fails (disk full, file too large) leaves every file as it was, with a clear
``write`` error: ``append`` cuts the log back, ``create`` removes its file, ``repair`` its
backup. Real failures come from ``RLIMIT_FSIZE`` in a child process (writes past the limit
fail with EFBIG), simulated ones from an ``os.write`` that runs out of space half-way."""

import errno
import multiprocessing
import os
import resource
import signal

import pytest

from meeple.engine import new_game
from meeple.events import log as logfile
from meeple.events.model import TurnEnded

from helpers import bundled

TORN = b'{"type":"turn_ended","seq":5,"pl'


def _events(turns=4):
    first = new_game(["red", "black"], bundled(), seed="1")
    return [first] + [TurnEnded(seq=i, player="red", turn=i) for i in range(1, turns + 1)]


def _more(start, count=3):
    return [TurnEnded(seq=s, player="red", turn=s) for s in range(start, start + count)]


def _disk_fills_after(monkeypatch, room: int) -> None:
    """``os.write`` writes at most ``room`` bytes in all, then fails with ENOSPC."""
    real = os.write
    left = [room]

    def write(fd, data):
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = real(fd, bytes(data[: left[0]]))
        left[0] -= written
        return written

    monkeypatch.setattr(os, "write", write)


def test_append_on_a_full_disk_cuts_the_log_back_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    head = logfile.create(path, _events())
    before = path.read_bytes()
    _disk_fills_after(monkeypatch, 70)
    with pytest.raises(logfile.LogError) as exc:
        logfile.append(path, _more(5), head)
    monkeypatch.undo()
    assert exc.value.kind == "write" and exc.value.kind not in logfile.REFUSALS
    assert exc.value.message == "cannot write: No space left on device; nothing was written"
    assert path.read_bytes() == before
    new_head = logfile.append(path, _more(5), head)
    assert logfile.read(path).head == new_head


def test_create_on_a_full_disk_leaves_no_file_behind(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    _disk_fills_after(monkeypatch, 1000)
    with pytest.raises(logfile.LogError) as exc:
        logfile.create(path, _events())
    monkeypatch.undo()
    assert exc.value.kind == "write" and "No space left on device" in exc.value.message
    assert not path.exists(), "a failed create must not block the name"
    logfile.create(path, _events())
    assert len(logfile.read(path).events) == 5


def test_repair_on_a_full_disk_removes_its_partial_backup_and_leaves_the_log(tmp_path,
                                                                             monkeypatch):
    path = tmp_path / "g.jsonl"
    logfile.create(path, _events())
    path.write_bytes(path.read_bytes() + TORN)
    before = path.read_bytes()
    _disk_fills_after(monkeypatch, 1000)
    with pytest.raises(logfile.LogError) as exc:
        logfile.repair(path)
    monkeypatch.undo()
    assert exc.value.kind == "write" and "No space left on device" in exc.value.message
    assert "the log is left as it was" in exc.value.message
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))
    assert logfile.repair(path).cut == len(TORN)


def _with_size_limit(limit: int, action, args, results) -> None:
    """Run ``action(*args)`` where files cannot grow past ``limit`` bytes (EFBIG)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    try:
        action(*args)
        results.put(("done", ""))
    except logfile.LogError as exc:
        results.put((exc.kind, exc.message))
    except BaseException as exc:  # noqa: BLE001 - the parent reports what escaped
        results.put(("escaped", repr(exc)))


def _in_child(limit: int, action, *args) -> tuple[str, str]:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_with_size_limit, args=(limit, action, args, results))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    return results.get(timeout=5)


def test_append_past_the_file_size_limit_efbig_cuts_the_log_back(tmp_path):
    path = tmp_path / "g.jsonl"
    head = logfile.create(path, _events())
    before = path.read_bytes()
    kind, message = _in_child(len(before) + 50, logfile.append, path, _more(5), head)
    assert (kind, message) == ("write", "cannot write: File too large; nothing was written")
    assert path.read_bytes() == before
    assert logfile.read(path).head == head


def test_create_past_the_file_size_limit_efbig_leaves_no_file(tmp_path):
    path = tmp_path / "g.jsonl"
    kind, message = _in_child(4096, logfile.create, path, _events())
    assert kind == "write" and message.startswith("cannot write: File too large")
    assert not path.exists()


def test_repair_past_the_file_size_limit_efbig_keeps_no_backup_and_the_log(tmp_path):
    path = tmp_path / "g.jsonl"
    logfile.create(path, _events())
    path.write_bytes(path.read_bytes() + TORN)
    before = path.read_bytes()
    kind, message = _in_child(len(before) // 2, logfile.repair, path)
    assert kind == "write" and "File too large" in message
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))
