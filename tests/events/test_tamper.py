"""Tamper evidence (issue: reliability): one changed byte anywhere is found at its line."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import verify
from meeple.events import log as logfile

GAME = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes()
LINE_STARTS = [0] + [i + 1 for i, b in enumerate(GAME) if b == 10][:-1]


def line_of(position: int) -> int:
    return sum(1 for start in LINE_STARTS if start <= position)


@pytest.mark.parametrize("examples", [60, pytest.param(400, marks=pytest.mark.slow)])
def test_any_changed_byte_is_found_at_its_line(examples):
    """As many changed bytes as ``examples``: a few in the everyday run, all in the full run."""
    settings(max_examples=examples, deadline=None)(
        given(position=st.integers(0, len(GAME) - 1), value=st.integers(0, 255))(
            _found_at_its_line))()


def _in_prev(position: int) -> bool:
    start = LINE_STARTS[line_of(position) - 1]
    field = GAME.index(b'"prev":"', start) + len(b'"prev":"')
    return field <= position < field + 64


def test_a_prev_that_is_no_sha256_is_found_at_its_own_line_even_the_last():
    """Hypothesis found it: a space in the last line's prev was blamed on the line before."""
    field = GAME.index(b'"prev":"', LINE_STARTS[-1]) + len(b'"prev":"')
    for value in b" gG":
        data = bytearray(GAME)
        data[field + 3] = value
        with pytest.raises(logfile.LogError) as found:
            logfile.parse("g.jsonl", bytes(data))
        assert found.value.line == len(LINE_STARTS) and found.value.field == "prev"


def _found_at_its_line(position: int, value: int) -> None:
    if GAME[position] == value:
        return
    data = bytearray(GAME)
    data[position] = value
    changed_line = line_of(position)
    last = len(LINE_STARTS)
    try:
        events = logfile.parse("g.jsonl", bytes(data)).events
    except logfile.LogError as exc:
        if GAME[position] == 10:   # the newline ending a line: the two lines run together
            assert exc.line in (changed_line, changed_line + 1)
        elif changed_line == last and _in_prev(position) and chr(value) in "0123456789abcdef":
            # another SHA-256 in the last line's prev: the line before it, or that prev, was
            # altered; no later line tells which, and the error says both
            assert exc.line in (last - 1, last) and "or that prev was altered" in str(exc)
        else:
            assert exc.line == changed_line, (exc, changed_line)
        return
    # only the last line has no successor holding its hash: the rules must catch it
    assert changed_line == last
    finding = verify(events).finding
    assert finding is not None and finding.line == last


def test_the_last_line_of_a_game_in_progress_is_proved_only_by_a_head_written_down(tmp_path):
    """The README's trust model: the chain cannot tell a changed last line from another legal
    one (no line after it holds its hash), so `check` accepts the changed log; the head the
    players wrote down can: `check --head` says it is no head of the changed log."""
    import json

    from helpers import run, run_json

    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,white", "--table")
    run("draw", game, "L")
    written_down = run_json("status", game)["head"]
    lines = game.read_bytes().rstrip(b"\n").split(b"\n")
    last = json.loads(lines[-1])
    assert last["type"] == "tile_drawn" and last["tile"] == "L"
    lines[-1] = lines[-1].replace(b'"tile":"L"', b'"tile":"V"')
    game.write_bytes(b"\n".join(lines) + b"\n")
    assert run_json("check", game)["ok"]          # another legal draw: the chain cannot say
    told = run("check", game, "--head", written_down[:12], code=1).stdout
    assert f"{written_down[:12]} is no head of {game}" in told
