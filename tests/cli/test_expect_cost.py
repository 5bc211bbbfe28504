"""What `check --expect` costs on a hostile snapshot: the limit it reads up to, the memory of
reading one (no more than decoding it takes) and of comparing it with a game (counted, not
walked element by element past what can be shown)."""

import tracemalloc

import msgspec

from meeple.cli.compare import EXPECT_LIMIT, SHOWN_DIFFERENCES, diff, read_expected

from helpers import fail

#: a finished game's snapshot is a few dozen KB; the largest game a tile set allows, ~5 MB
LARGEST_GAME_SNAPSHOT = 5 << 20


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


def test_a_snapshot_past_the_limit_is_refused_unread(tmp_path):
    snapshot = tmp_path / "big.json"
    with open(snapshot, "wb") as handle:
        handle.truncate(17 << 20)  # sparse: costs no disk
    game = tmp_path / "g.jsonl"
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line.endswith("cannot read the expected snapshot: is larger than the limit of "
                         f"{EXPECT_LIMIT:,} bytes")


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
