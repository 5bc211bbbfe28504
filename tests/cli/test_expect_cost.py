"""What `check --expect` costs on a hostile snapshot: the limits it reads up to (bytes, and
values counted before anything is decoded), the memory of reading one (no more than decoding
it takes) and of comparing it with a game (counted, not walked element by element past what
can be shown)."""

import tracemalloc

import msgspec
import pytest

from meeple.cli.compare import (
    EXPECT_LIMIT,
    EXPECT_VALUES,
    SHOWN_DIFFERENCES,
    SNAPSHOT,
    diff,
    read_expected,
)

from helpers import fail

#: a finished game's snapshot is a few dozen KB; the largest game a tile set allows (20,000
#: tiles), ~5 MB and ~300,000 values (the fixtures' games write 230 to 260 bytes and about 14
#: values a tile)
LARGEST_GAME_SNAPSHOT = 5 << 20
LARGEST_GAME_VALUES = 14 * 20_000


def _hostile(tmp_path, count: int, unit: bytes = b"[]"):
    """A snapshot of ``count`` tiny containers in one list: the most Python objects a byte."""
    path = tmp_path / "hostile.json"
    path.write_bytes(b'{"board": [' + b",".join([unit] * count) + b"]}")
    return path


def _peak(work) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_snapshot_limit_is_a_few_times_the_largest_game_not_a_whole_log():
    """A log may hold 64 MB; a snapshot 16 MB, at most (reading a 64 MB one took a minute and
    2 GB)."""
    assert 2 * LARGEST_GAME_SNAPSHOT <= EXPECT_LIMIT <= 16 << 20
    assert 3 * LARGEST_GAME_VALUES <= EXPECT_VALUES <= 1_000_000


def test_a_snapshot_past_the_limit_is_refused_unread(tmp_path):
    snapshot = tmp_path / "big.json"
    with open(snapshot, "wb") as handle:
        handle.truncate(17 << 20)  # sparse: costs no disk
    game = tmp_path / "g.jsonl"
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line.endswith("cannot read the expected snapshot: is larger than the limit of "
                         f"{EXPECT_LIMIT:,} bytes")


@pytest.mark.slow  # snapshots at the size bound
def test_a_snapshot_of_more_values_than_a_game_has_is_refused_undecoded(tmp_path):
    """A million and one numbers take 2 MB, far below the byte limit: they are counted in the
    bytes (commas and opening brackets), and refused before one is decoded."""
    snapshot = _hostile(tmp_path, EXPECT_VALUES, b"0")  # with its object: one value more
    line = fail("check", tmp_path / "g.jsonl", "--expect", snapshot, code=1)
    assert line == (f"meeple: error: {snapshot}: {SNAPSHOT}; this one holds more values than "
                    f"the {EXPECT_VALUES:,} a snapshot may (up to {EXPECT_VALUES + 2:,})")
    exactly = _hostile(tmp_path, EXPECT_VALUES - 2, b"0")
    assert len(read_expected(str(exactly))["board"]) == EXPECT_VALUES - 2


@pytest.mark.slow  # snapshots at the size bound
def test_reading_a_hostile_snapshot_takes_no_more_memory_than_decoding_it(tmp_path):
    path = _hostile(tmp_path, 200_000)
    data = path.read_bytes()
    decoding = _peak(lambda: msgspec.json.decode(data))
    reading = _peak(lambda: read_expected(str(path)))
    # the file's bytes, once, and what decoding makes: not a second copy of every container
    assert reading <= decoding * 1.2 + len(data) + (1 << 20), (reading, decoding)


def test_comparing_counts_every_element_past_those_shown(tmp_path):
    want = read_expected(str(_hostile(tmp_path, 200_000, b"0")))
    got = {"board": [0, 1]}
    shown, count = diff(want, got)
    assert count == 200_000 - 1  # board[1] differs, and every element from board[2] on
    assert [path for path, _, _ in shown] == ["board[1]"] + [
        f"board[{i}]" for i in range(2, SHOWN_DIFFERENCES + 1)]
    assert shown[1] == ("board[2]", "0", "nothing")
    _, back = diff(got, want)
    assert back == count
