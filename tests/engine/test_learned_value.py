"""The learned leaf value (``meeple.engine.evaluation_learned``) and the ``mcts-learned``
search that uses it: the features count what the hand-made leaf value counts, split by the
tile set's roles, and the search replays its games."""

import hashlib

import pytest

from meeple.engine import Game, bot_named, greedy_move, read_spec
from meeple.engine.evaluation import LEAF_RESERVE, leaf_value, reserve_points  # noqa: TID251
from meeple.engine.evaluation_learned import (  # noqa: TID251
    FEATURES,
    WEIGHTS,
    features,
    learned_value,
)
from meeple.events.model import encode

from helpers import TWO_PLAYERS, greedy_game

PLAYERS = TWO_PLAYERS


@pytest.mark.parametrize("edition", ["classic", "star-wars"])
def test_the_realm_features_split_what_the_leaf_value_counts_by_role(edition):
    checked = 0
    game = Game.new(PLAYERS[edition], edition, seed="roles")
    for turns in (10, 30, 50):
        while not game.over and game.turn <= turns:
            game.push(greedy_move(game.state))
        state = game.state
        rows = features(state)
        reserve = reserve_points(state)
        for side, value in leaf_value(state).items():
            row = rows[side]
            assert row[0] == state.scores[side] and row[1] == pytest.approx(reserve[side])
            realms = value - state.scores[side] - LEAF_RESERVE * reserve[side]
            assert sum(row[3:10]) == pytest.approx(realms)
            checked += sum(row[3:10]) > 0
    assert checked  # some side held a realm worth something


def test_a_sides_value_is_its_features_weighed():
    state = greedy_game("classic", "weigh", 20).state
    weights = tuple(float(i) for i in range(len(FEATURES)))
    assert len(WEIGHTS) == len(FEATURES)
    for side, row in features(state).items():
        assert learned_value(state, weights)[side] == pytest.approx(
            sum(i * f for i, f in enumerate(row)))


def test_the_learned_search_is_named_with_a_budget():
    assert read_spec("mcts-learned") == ("mcts-learned", 1200, None)
    assert read_spec("mcts-learned:300") == ("mcts-learned", 300, None)
    assert read_spec("mcts-learned:0.5s") == ("mcts-learned", None, 0.5)


@pytest.mark.parametrize("edition", ["classic", "star-wars"])
def test_the_learned_search_plays_the_same_game_from_the_same_seed(edition):
    digests = []
    for _ in range(2):
        game = Game.new(PLAYERS[edition], edition, seed="learned-same")
        bots = {PLAYERS[edition][0]: bot_named("mcts-learned:12"),
                PLAYERS[edition][1]: bot_named("greedy")}
        while not game.over and game.turn <= 12:
            game.push(bots[game.state.player](game.state))
        digests.append(hashlib.sha256(b"".join(encode(e) for e in game.events)).hexdigest())
    assert digests[0] == digests[1]
