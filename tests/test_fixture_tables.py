"""The perft-like placement table and the golden error reports in fixtures/."""

import json
from pathlib import Path

import pytest

from meeple.cli.checking import check_file
from meeple.engine import fold, moves_with_targets, new_game, settle, start
from meeple.events import log as logfile

from helpers import bundled

FIXTURES = Path(__file__).parent.parent / "fixtures"
PERFT = json.loads((FIXTURES / "perft.json").read_text())
BROKEN = sorted((FIXTURES / "broken").glob("*.jsonl"))


def counts(state, tile_id):
    moves = moves_with_targets(state, state.tileset.types[tile_id])
    return len(moves), sum(len(targets) for *_, targets in moves)


def test_opening_board_counts_checked_by_hand():
    """SW-3.1 around the lone start tile: (0,1) needs asteroid south, (±1,0) a route, (0,-1) space."""
    opening, _ = settle(start(new_game(["red", "black"], bundled(), table=True)))
    assert counts(opening, "C") == (4, 4)      # all-asteroid: only north, any rotation
    assert counts(opening, "D") == (6, 12)     # 1 north, 2 east, 2 west, 1 south; 2 targets each
    assert counts(opening, "X") == (8, 32)     # 4 rotations east and west, 4 routes each
    assert counts(opening, "hoth") == (4, 4)   # only south, any rotation, the planet
    assert counts(opening, "U") == (6, 6)


def _row_id(row):
    return f"{row['fixture'] or 'opening'}-{row['after_seq']}-{row['tile']}"


@pytest.mark.parametrize("row", PERFT, ids=_row_id)
def test_perft_table(row):
    if row["fixture"] is None:
        state, _ = settle(start(new_game(["red", "black"], bundled(), table=True)))
    else:
        events = logfile.read(FIXTURES / f"{row['fixture']}.jsonl").events
        state = fold(events[: row["after_seq"] + 1])
        assert state.drawn == row["tile"]
    assert counts(state, row["tile"]) == (row["placements"], row["targets"])


def test_there_are_golden_errors():
    assert len(BROKEN) >= 10


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_log_gives_its_golden_report(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    report, code = check_file(str(path))
    report.pop("file")
    report["exit_code"] = code
    assert json.loads(json.dumps(report)) == expected
