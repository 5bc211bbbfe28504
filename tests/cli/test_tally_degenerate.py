"""An arena's tally on degenerate data: all draws, one game, no game, a bot that failed every
game, three bots at a table one of which always fails, a ladder stopped before some bot
played. Nothing crashes, and neither the summary nor its printout holds NaN, inf or -0."""

import itertools
import json
import math
import re

import pytest

from meeple.cli.bots.arena import _say
from meeple.cli.bots.stats import PairSprt
from meeple.cli.bots.tally import outcome, summarise


def game(seed, seats, scores, failed=None):
    return {"file": f"/arena/arena-x-{seed}.jsonl", "seed": seed, "seats": list(seats),
            "scores": scores, "seconds": [0.0] * len(seats), "moves": [0] * len(seats),
            "stopped": None if failed is None else {"seat": failed, "bot": seats[failed],
                                                    "reason": "no move"},
            "shares": outcome(scores, failed)}


BOTH = (("a", "b"), ("b", "a"))
CASES = {
    "all draws": (["a", "b"], [game(f"s{i}", s, [9, 9]) for i in range(6) for s in BOTH],
                  False),
    "one game": (["a", "b"], [game("s0", ("a", "b"), [3, 1])], False),
    "no game": (["a", "b"], [], False),
    "b failed every game": (["a", "b"], [game(f"s{i}", s, [4, 4], s.index("b"))
                                         for i in range(5) for s in BOTH], False),
    "a won every game": (["a", "b"], [game(f"s{i}", s, [50 if x == "a" else 1 for x in s])
                                      for i in range(30) for s in BOTH], False),
    "c always fails at three": (["a", "b", "c"], [game("s0", s, [1, 1, 1], s.index("c"))
                                                  for s in itertools.permutations("abc")],
                                False),
    "ladder all draws": (["a", "b", "c"], [game("s0", s, [1, 1])
                                           for s in itertools.permutations("abc", 2)], True),
    "ladder stopped early": (["a", "b", "c"], [game(f"s{i}", s, [3 if x == "a" else 1 for x in s])
                                               for i in range(3) for s in BOTH], True),
}


def printed(bots, results, ladder, capsys):
    summary = summarise(bots, results, ladder)
    summary.update({"edition": "classic", "seed": "x", "out": "arena", "games": len(results),
                    "planned": 12, "ladder": ladder, "seeds": 1})
    _say(summary)
    captured = capsys.readouterr()
    return summary, captured.out + captured.err


@pytest.mark.parametrize("case", CASES)
def test_degenerate_data_gives_finite_numbers(case, capsys):
    bots, results, ladder = CASES[case]
    summary, text = printed(bots, results, ladder, capsys)
    encoded = json.dumps(summary, allow_nan=True)
    assert "NaN" not in encoded and "Infinity" not in encoded
    assert "nan" not in text.lower() and "inf" not in text.lower()
    assert not re.search(r"-0(?![.\d])", text)
    for row in summary["bots"]:
        assert row["elo"] is None or math.isfinite(row["elo"])


def test_a_ladder_stopped_before_a_bot_played_rates_the_bots_that_did(capsys):
    summary, text = printed(*CASES["ladder stopped early"], capsys)
    rows = {row["bot"]: row for row in summary["bots"]}
    assert rows["a"]["elo"] > 0 > rows["b"]["elo"]
    assert rows["a"]["elo_se"] is not None and rows["b"]["elo_se"] is not None
    assert rows["c"]["elo"] is None and rows["c"]["games"] == 0
    assert "Elo +" in text


def test_a_draw_is_elo_zero_not_minus_zero(capsys):
    summary, text = printed(*CASES["all draws"], capsys)
    assert [p["elo"] for p in summary["pairings"]] == [0.0]
    assert "Elo +0" in text and "Elo -0" not in text


@pytest.mark.parametrize("counts", [[0, 0, 9, 0, 0], [9, 0, 0, 0, 0], [0, 0, 0, 0, 9],
                                    [0, 0, 0, 0, 0], [1, 0, 0, 0, 1]])
@pytest.mark.parametrize("bounds", [(0.5, 0.65), (1e-9, 0.5), (0.5, 1 - 1e-12),
                                    (0.49999999, 0.5)])
def test_the_pair_sprt_is_finite_on_one_sided_data(counts, bounds):
    test = PairSprt(*bounds)
    for outcome_points, count in zip((0.0, 0.5, 1.0, 1.5, 2.0), counts, strict=True):
        for _ in range(count):
            test.add(outcome_points)
    assert math.isfinite(test.llr)
    assert test.verdict() in (None, "H0", "H1")
