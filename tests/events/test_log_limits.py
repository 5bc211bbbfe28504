"""Limits of the log file: what ``read`` opens and how much it reads, lines measured before
they are decoded, untrusted names in ``game_started``, and appends that would pass a limit."""

import multiprocessing
import os
import resource
import socket
import time
import tracemalloc

import msgspec
import pytest

from meeple.cli.checking import check_file
from meeple.engine import new_game
from meeple.events import log as logfile
from meeple.events import writing
from meeple.events.model import TileDrawn, TurnEnded

from helpers import bundled, rechain

#: a child process reading a hostile path gets this long and this much more memory
CHILD_SECONDS, CHILD_EXTRA_MEMORY = 5, 512 << 20


def _game(path, turns=4):
    first = new_game(["red", "black"], bundled(), seed="1")
    events = [first] + [TurnEnded(seq=i, player="red", turn=i) for i in range(1, turns + 1)]
    return logfile.create(path, events)


def _read_in_child(path: str, results) -> None:
    """``read(path)`` with a memory cap, reporting ``(kind, message)`` or ``("read", n)``."""
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (mapped + CHILD_EXTRA_MEMORY, resource.RLIM_INFINITY))
    try:
        results.put(("read", len(logfile.read(path).events)))
    except logfile.LogError as exc:
        results.put((exc.kind, str(exc)))
    except BaseException as exc:  # noqa: BLE001 - the parent reports what escaped
        results.put(("escaped", repr(exc)))


def _read_isolated(path) -> tuple:
    """Read ``path`` in a child process that is killed if it hangs: ``("hung", ...)``."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_read_in_child, args=(str(path), results))
    child.start()
    child.join(CHILD_SECONDS)
    if child.is_alive():
        child.kill()
        child.join()
        return ("hung", f"read({path}) did not return in {CHILD_SECONDS} s")
    return results.get(timeout=5)


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    started = time.monotonic()
    kind, message = _read_isolated(fifo)
    assert (kind, message) == ("unreadable", f"{fifo}: is a FIFO (named pipe), not a game log "
                                             "(a regular file)")
    assert time.monotonic() - started < 2


def test_dev_zero_and_a_symlink_to_it_are_refused_a_symlink_to_a_game_is_read(tmp_path):
    """/dev/zero claims 0 bytes and never ends: it is refused for what it is, not read."""
    to_zero = tmp_path / "zero.jsonl"
    to_zero.symlink_to("/dev/zero")
    for path in ("/dev/zero", to_zero):
        kind, message = _read_isolated(path)
        assert kind == "unreadable" and "is a character device, not a game log" in message
    _game(tmp_path / "real.jsonl")
    to_game = tmp_path / "link.jsonl"
    to_game.symlink_to(tmp_path / "real.jsonl")
    assert len(logfile.read(to_game).events) == 5


def test_a_socket_is_named_as_such(tmp_path):
    path = tmp_path / "s.jsonl"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(logfile.LogError) as exc:
            logfile.read(path)
    assert exc.value.kind == "unreadable"
    assert "is a socket, not a game log" in exc.value.message


def test_a_ten_mib_single_line_is_refused_before_decoding_quickly_and_in_bounded_memory(tmp_path):
    """The line's length is checked before the schema peek decodes it (it would build a list
    of five million numbers), and the data is not copied whole a second time."""
    path = tmp_path / "huge.jsonl"
    path.write_bytes(b'{"type":"game_started","seq":0,"prev":null,"x":[' + b"0," * (5 << 20)
                     + b"0]}\n")
    size = path.stat().st_size
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(logfile.LogError) as exc:
            logfile.read(path)
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (exc.value.kind, exc.value.line) == ("too_large", 1)
    assert f"line is {size - 1} bytes; the limit is {logfile.MAX_LINE_BYTES}" in str(exc.value)
    assert elapsed < 1.0
    assert peak < 1.25 * size, f"reading a {size}-byte log took {peak} bytes at its peak"


@pytest.mark.parametrize(
    ("field", "path_in_event", "value", "char"),
    [
        ("players[0].name", ("players", 0, "name"), "Ann\x1b[2K", "U+001B"),
        ("players[1].name", ("players", 1, "name"), "Bob\u202e", "U+202E"),
        ("tileset.name", ("tileset", "name"), "star\x07wars", "U+0007"),
        ("tileset.definition.tiles[0].id", ("tileset", "definition", "tiles", 0, "id"), "U\n",
         "U+000A"),
    ],
)
def test_control_characters_in_game_started_are_refused(tmp_path, field, path_in_event, value,
                                                        char):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = path.read_bytes().split(b"\n")[:-1]

    def change(data):
        if data["seq"] == 0:
            *keys, last = path_in_event
            for key in keys:
                data = data[key]
            data[last] = value

    path.write_bytes(b"\n".join(rechain(lines, change)) + b"\n")
    with pytest.raises(logfile.LogError) as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field, exc.value.seq) == (
        "corrupt", 1, field, 0)
    assert exc.value.message == (f"{field} holds the control character {char}; names, colours, "
                                 "tile ids and set names may not")
    report, code = check_file(str(path))
    assert code == 3 and report["errors"][0]["field"] == field


@pytest.mark.parametrize("pass_lines", [True, False], ids=["lines_given", "lines_counted"])
def test_append_refuses_to_pass_the_line_limit_and_writes_nothing(tmp_path, monkeypatch,
                                                                  pass_lines):
    path = tmp_path / "g.jsonl"
    head = _game(path)  # 5 lines
    monkeypatch.setattr(writing, "MAX_EVENTS", 7)
    before = path.read_bytes()
    extra = {"lines": 5} if pass_lines else {}
    events = [TurnEnded(seq=s, player="red", turn=s) for s in (5, 6, 7)]
    with pytest.raises(logfile.LogError) as exc:
        logfile.append(path, events, head, **extra)
    assert exc.value.kind == "full" and exc.value.kind in logfile.REFUSALS
    assert exc.value.message == ("the game log is full: 3 more line(s) would make 8 (limit 7 "
                                 "lines); nothing was written")
    assert path.read_bytes() == before
    new_head = logfile.append(path, events[:2], head, **extra)
    assert logfile.read(path).head == new_head and len(logfile.read(path).events) == 7


def test_append_refuses_to_pass_the_byte_limit_and_writes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    before = path.read_bytes()
    monkeypatch.setattr(writing, "MAX_FILE_BYTES", len(before) + 150)
    with pytest.raises(logfile.LogError, match=r"the game log is full: \d+ more bytes would make "
                       rf"\d+ \(limit {len(before) + 150} bytes\)") as exc:
        logfile.append(path, [TurnEnded(seq=s, player="red", turn=s) for s in (5, 6)], head)
    assert exc.value.kind == "full" and path.read_bytes() == before
    logfile.append(path, [TurnEnded(seq=5, player="red", turn=5)], head)
    assert len(logfile.read(path).events) == 6


def test_an_event_longer_than_a_line_is_a_log_error_in_append_and_create(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    before = path.read_bytes()
    huge = TileDrawn(seq=5, player="red", tile="U" * logfile.MAX_LINE_BYTES)
    with pytest.raises(logfile.LogError, match="event seq 5 .tile_drawn. would be a line of") as exc:
        logfile.append(path, [huge], head)
    assert (exc.value.kind, exc.value.seq) == ("too_large", 5) and path.read_bytes() == before
    first = new_game(["red", "black"], bundled(), seed="1")
    with pytest.raises(logfile.LogError) as exc:
        logfile.create(tmp_path / "new.jsonl", [first, msgspec.structs.replace(huge, seq=1)])
    assert exc.value.kind == "too_large" and not (tmp_path / "new.jsonl").exists()
