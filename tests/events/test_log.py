"""The log file: hash chain, located errors, torn lines, locked appends (DESIGN.md)."""

import multiprocessing
import os
from pathlib import Path

import pytest

from meeple.engine import new_game
from meeple.events import log as logfile
from meeple.events.model import TileDrawn, TurnEnded

from helpers import bundled

FIXTURES = Path(__file__).parents[2] / "fixtures"


def _game(path, turns=4):
    first = new_game(["red", "black"], bundled(), seed="1")
    events = [first] + [TurnEnded(seq=i, player="red", turn=i) for i in range(1, turns + 1)]
    head = logfile.create(path, events)
    return head


def _lines(path):
    with open(path, "rb") as handle:
        return handle.read().split(b"\n")[:-1]


def _write(path, lines, newline=True):
    with open(path, "wb") as handle:
        handle.write(b"\n".join(lines) + (b"\n" if newline else b""))


def test_create_read_and_head(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    log = logfile.read(path)
    assert [e.seq for e in log.events] == [0, 1, 2, 3, 4]
    assert log.head == head == logfile.line_hash(_lines(path)[-1])
    assert log.events[0].prev is None
    assert log.events[1].prev == logfile.line_hash(_lines(path)[0])


def test_create_never_overwrites(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    before = path.read_bytes()
    with pytest.raises(logfile.LogError, match="never overwritten") as exc:
        _game(path)
    assert exc.value.kind == "exists" and path.read_bytes() == before


def test_a_changed_byte_is_found_at_its_line(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines[2] = lines[2].replace(b'"turn":2', b'"turn":9')
    _write(path, lines)
    with pytest.raises(logfile.LogError) as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field) == ("tampered", 3, "prev")
    assert f"{path}:3" in str(exc.value)


def test_a_deleted_line_is_found_where_it_was(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    del lines[2]
    _write(path, lines)
    with pytest.raises(logfile.LogError, match="missing before it") as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field) == ("tampered", 3, "seq")


def test_swapped_lines_are_found_at_the_first(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines[2], lines[3] = lines[3], lines[2]
    _write(path, lines)
    with pytest.raises(logfile.LogError, match="reordered") as exc:
        logfile.read(path)
    assert exc.value.line == 3


def test_a_duplicated_line_is_found_at_the_copy(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines.insert(3, lines[2])
    _write(path, lines)
    with pytest.raises(logfile.LogError, match="duplicated") as exc:
        logfile.read(path)
    assert exc.value.line == 4


def test_a_torn_last_line_is_a_torn_write_not_corruption(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    data = path.read_bytes()
    path.write_bytes(data[:-20])
    with pytest.raises(logfile.LogError, match="torn write") as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line) == ("torn", 5)


def test_a_broken_line_in_the_middle_is_corruption(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines[1] = lines[1][:10]
    _write(path, lines)
    with pytest.raises(logfile.LogError, match="not a JSON event") as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line) == ("corrupt", 2)


def test_unknown_event_type_and_field_are_located(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines[4] = lines[4].replace(b'"turn_ended"', b'"turn_skipped"')
    _write(path, lines)
    with pytest.raises(logfile.LogError, match="turn_skipped") as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field) == ("corrupt", 5, "type")


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(logfile.LogError, match="no such game log") as exc:
        logfile.read(tmp_path / "nope.jsonl")
    assert exc.value.kind == "missing"
    (tmp_path / "empty.jsonl").write_bytes(b"")
    with pytest.raises(logfile.LogError, match="empty"):
        logfile.read(tmp_path / "empty.jsonl")


def test_append_refuses_when_the_file_changed_underneath(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    new_head = logfile.append(path, [TileDrawn(seq=5, player="red", tile="U")], head)
    before = path.read_bytes()
    with pytest.raises(logfile.LogError, match="changed since you read it") as exc:
        logfile.append(path, [TileDrawn(seq=5, player="red", tile="V")], head)
    assert exc.value.kind == "conflict"
    assert path.read_bytes() == before
    assert logfile.read(path).head == new_head


def test_append_refuses_a_torn_file(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    path.write_bytes(path.read_bytes() + b'{"type":"tile_dr')
    with pytest.raises(logfile.LogError) as exc:
        logfile.append(path, [TileDrawn(seq=5, player="red", tile="U")], head)
    assert exc.value.kind == "torn"


def _racer(path: str, name: str, rounds: int, results) -> None:
    wins = 0
    for _ in range(rounds):
        while True:
            log = logfile.read(path)
            seq = len(log.events)
            try:
                logfile.append(path, [TurnEnded(seq=seq, player="red", turn=seq)], log.head)
                wins += 1
                break
            except logfile.LogError as exc:
                assert exc.kind == "conflict"
    results.put((name, wins))


def test_concurrent_writers_never_fork_or_break_the_chain(tmp_path):
    """Four real processes append at once; each append lands whole, after the head it read."""
    path = str(tmp_path / "g.jsonl")
    _game(path, turns=0)
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    workers = [ctx.Process(target=_racer, args=(path, f"w{i}", 25, results)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    wins = dict(results.get(timeout=5) for _ in workers)
    log = logfile.read(path)
    assert sum(wins.values()) == 100
    assert [e.seq for e in log.events] == list(range(101))
    assert os.path.getsize(path) == sum(len(line) + 1 for line in _lines(path))


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (b'"turn":3', b'"turn":3,"extra":1', None, "unknown field `extra`"),
        (b'"turn":3', b'"turn":"3"', "turn", "Expected `int`, got `str`"),
        (b'"player":"red"', b'"player":"pink"', "player", "Invalid enum value 'pink'"),
    ],
)
def test_bad_fields_are_reported_at_path_line_with_the_field(tmp_path, old, new, field, message):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    lines[3] = lines[3].replace(old, new)
    _write(path, lines)
    with pytest.raises(logfile.LogError, match=message) as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field) == ("corrupt", 4, field)
    assert str(exc.value).startswith(f"{path}:4: ")


def test_repair_cuts_only_a_torn_last_line_and_keeps_a_backup(tmp_path):
    path = tmp_path / "g.jsonl"
    head = _game(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type":"tile_drawn","seq":5,"pr')
    done = logfile.repair(path)
    assert (done.line, done.cut) == (6, len(b'{"type":"tile_drawn","seq":5,"pr'))
    assert not done.newline_restored and done.head == head
    assert path.read_bytes() == whole and logfile.read(path).head == head
    assert open(done.backup, "rb").read() == whole + b'{"type":"tile_drawn","seq":5,"pr'
    assert logfile.repair(path) is None


def test_repair_refuses_anything_but_a_torn_line(tmp_path):
    path = tmp_path / "g.jsonl"
    _game(path)
    lines = _lines(path)
    del lines[2]
    _write(path, lines)
    before = path.read_bytes()
    with pytest.raises(logfile.LogError) as exc:
        logfile.repair(path)
    assert exc.value.kind == "tampered" and path.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))


@pytest.mark.parametrize(("data", "what"), [
    (b"hello world\n", "is not JSON"),
    (b"hello world", "is not JSON"),
    (b'{"a": 1}\n', "is a JSON object with no type"),
    (b"[1, 2]\n", "is a JSON list"),
    (b'{"type": "tile_placed", "seq": 0}\n', "is a tile_placed event"),
    (b'{"type": "\\u001b[31m"}\n', "is a \\x1b[31m event"),
])
def test_a_file_that_is_no_game_log_is_told_so(data, what):
    """Not a torn write, not the decoder's words: the file is not a game log."""
    with pytest.raises(logfile.LogError) as error:
        logfile.parse("x.txt", data)
    assert error.value.kind == "corrupt" and error.value.line == 1
    assert f"not a meeple game log: its first line {what} (" in str(error.value)


def test_a_torn_or_damaged_game_start_is_still_told_as_such():
    first = open(FIXTURES / "classic_random_2p_seed_0.jsonl", "rb").readline()
    with pytest.raises(logfile.LogError) as error:
        logfile.parse("g.jsonl", first[:60])
    assert error.value.kind == "torn"
