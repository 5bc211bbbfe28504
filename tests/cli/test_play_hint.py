"""`hint` in `play`: what a bot would play now, in what to type, and the projected score it
claims, checked by playing what it says."""

import re

import pytest

from meeple.cli.screen.hints import hint
from meeple.cli.session import open_game
from meeple.engine import projected

from helpers import invoke, run


def test_a_hint_says_what_to_type_and_the_projected_score_that_follows(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "2")
    run("autoplay", game, "--bot", "greedy", "--turns", "4")
    state = open_game(str(game)).state
    said = hint(state, "greedy")
    found = re.fullmatch(r"hint \(greedy\): (\S+)(?: then (.+))? · projected score (\d+) → "
                         r"(-?\d+) \(([+-]\d+)\)", said)
    assert found, said
    label, then, before, after, gain = found.groups()
    assert then.startswith("deploy") and int(gain) > 0, said  # (a hint with a reason here)
    assert int(before) == projected(state)["red"] and int(after) - int(before) == int(gain)
    run("place", game, label)  # the label is typed as said
    if then:
        words = then.split()
        run(*words[:1], game, *words[1:])
    assert projected(open_game(str(game)).state)["red"] == int(after)


@pytest.mark.slow  # the default bot's search, a few seconds
def test_hint_is_a_command_of_the_line_by_line_session(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5")
    done = invoke(["play", str(game)], input="hint\nquit\n")
    assert done.exit_code == 0, done.stderr
    assert re.search(r"hint \(lookahead\): \S+.* · projected score \d+ → -?\d+", done.stdout)
