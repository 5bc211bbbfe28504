"""`meeple bench --against OLD.json`: each figure as a ratio to a saved run, above 1 better;
a file that is not a saved report is refused before anything is measured."""

from meeple.cli.bench import against

from helpers import fail


def test_ratios_are_turned_so_that_above_one_is_better():
    old = {"results": {"legal_moves": {"value": 50.0}, "random_games": {"value": 200.0},
                       "gone": {"value": 1.0}}}
    new = {"results": {"legal_moves": {"value": 25.0}, "random_games": {"value": 100.0},
                       "copy": {"value": 9.0}}}
    assert against(new, old) == {"legal_moves": 2.0, "random_games": 0.5}


def test_a_file_that_is_no_saved_report_is_a_usage_error(tmp_path):
    bad = tmp_path / "old.json"
    bad.write_text("[1, 2]")
    assert "not a `meeple bench --json` report" in fail("bench", "--against", bad, code=2)
    assert "cannot read a saved bench report" in fail("bench", "--against", "/dev/zero", code=2)
