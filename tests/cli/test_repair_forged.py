"""`meeple repair` gives a whole last line its newline back only if `meeple check` would then
accept the game: a last line forged whole (linked by its prev, in seq order, but not what the
rules write there) is refused in one line, exit 1, and the file is left as it was."""

import json
from pathlib import Path

import pytest

from helpers import fail, run

FINISHED = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes()


def _forged(tmp_path, lines: list[bytes], field: str, value: object) -> Path:
    """The log of ``lines`` with one field of the last line changed, its newline gone."""
    last = json.loads(lines[-1])
    last[field] = value
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join([*lines[:-1], json.dumps(last, separators=(",", ":")).encode()]))
    return path


LINES = FINISHED.split(b"\n")[:-1]
FORGERIES = {
    # the end of the game names the loser as the winner
    "winners": (LINES, "winners", ["red"], "rules: the recorded consequence differs from the "
                "rules'"),
    # the last final scoring of a game in progress pays 5 points, not 1
    "points": (LINES[:-1], "points", 5, "rules: the recorded consequence differs from the "
               "rules'"),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_whole_last_line_is_refused_and_the_log_left_as_it_was(tmp_path, forgery):
    lines, field, value, reason = FORGERIES[forgery]
    path = _forged(tmp_path, lines, field, value)
    before = path.read_bytes()
    fail("check", path, code=3)  # torn: the newline is missing
    line = fail("repair", path, code=1)
    assert line.startswith(f"meeple: error: {path}: line {len(lines)} is whole but lacks its "
                           "newline, and with it `meeple check` would refuse the game, so it is "
                           f"left as it is: line {len(lines)}: {reason}")
    assert path.read_bytes() == before and not list(tmp_path.glob("*.bak"))
    # with its newline given back by hand, check refuses the game at that line too
    path.write_bytes(before + b"\n")
    assert fail("check", path, code=1).startswith(f"meeple: error: check failed: {path}:"
                                                  f"{len(lines)}: {reason}")


def test_a_whole_last_line_the_rules_wrote_gets_its_newline_back(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(FINISHED[:-1])
    result = run("repair", path)
    assert "the newline is restored" in result.stdout
    assert path.read_bytes() == FINISHED
    run("check", path)


def test_a_line_cut_short_is_still_cut_off_with_a_backup(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(FINISHED[:-40])
    result = run("repair", path)
    assert "cut off the torn line" in result.stdout
    assert path.read_bytes() == FINISHED[:FINISHED[:-40].rfind(b"\n") + 1]
    assert len(list(tmp_path.glob("*.bak"))) == 1


@pytest.mark.parametrize("junk", [b"garbage", b'{"type":"tile_placed"', b"\x00\x00\x00"])
def test_a_last_line_that_ends_with_its_newline_but_is_not_json_is_corrupt_not_torn(tmp_path,
                                                                                    junk):
    """A newline ends every line meeple writes, in the same write: a last line that has its
    newline was written whole, so JSON that does not decode there is damage, not a write cut
    short. `check` says corrupt, and `repair` does not offer to cut it off."""
    path = tmp_path / "g.jsonl"
    path.write_bytes(FINISHED + junk + b"\n")
    before = path.read_bytes()
    lineno = len(LINES) + 1
    line = fail("check", path, code=3)
    assert line.startswith(f"meeple: error: check failed: {path}:{lineno}: corrupt: not a JSON "
                           "event"), line
    assert "torn" not in line and "repair" not in line
    line = fail("repair", path, code=3)
    assert line.startswith(f"meeple: error: {path}:{lineno}: not a JSON event"), line
    assert "torn" not in line
    assert path.read_bytes() == before and not list(tmp_path.glob("*.bak"))
