"""Tamper evidence (issue: reliability): one changed byte anywhere is found at its line."""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.check import verify
from meeple.events import log as logfile

GAME = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes()
LINE_STARTS = [0] + [i + 1 for i, b in enumerate(GAME) if b == 10][:-1]


def line_of(position: int) -> int:
    return sum(1 for start in LINE_STARTS if start <= position)


@settings(max_examples=400, deadline=None)
@given(position=st.integers(0, len(GAME) - 1), value=st.integers(0, 255))
def test_any_changed_byte_is_found_at_its_line(position, value):
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
        else:
            assert exc.line == changed_line, (exc, changed_line)
        return
    # only the last line has no successor holding its hash: the rules must catch it
    assert changed_line == last
    finding = verify(events).finding
    assert finding is not None and finding.line == last
