"""A quick arena for every run of the full suite: the second search (``mcts``) beats
the first (``mcts-v1``) at the same iterations, over paired seeds in both seatings."""

import pytest

from meeple.events import log
from meeple.events.model import GameEnded

from helpers import run


@pytest.mark.slow  # starts a process and plays 8 games of search bots
def test_the_new_search_beats_the_old_one_over_paired_seeds(tmp_path):
    out = tmp_path / "arena"
    run("arena", "--bots", "mcts:50,mcts-v1:50", "--games", "8", "--seed", "ci",
        "--edition", "classic", "--out", out, "--jobs", "1")
    shares = {"mcts:50": 0.0, "mcts-v1:50": 0.0}
    games = sorted(out.glob("arena-*.jsonl"))
    assert len(games) == 8
    for path in games:
        events = log.read(path).events
        bots = {player.colour: player.name for player in events[0].players}
        end = events[-1]
        assert isinstance(end, GameEnded)
        for colour in end.winners:
            shares[bots[colour]] += 1 / len(end.winners)
    assert shares["mcts:50"] > shares["mcts-v1:50"]
