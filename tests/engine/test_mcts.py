"""The search bot (``mcts``): named by a spec, reproducible with an iteration budget, blind
to the hidden order of the pile, and scoring positions as the end of the game would."""

import pytest

from meeple.engine import (
    Game,
    InvalidCommand,
    bot_named,
    decide,
    evolve,
    greedy_move,
    mcts_move,
    move_options,
    next_event,
    projected,
    random_move,
    settle,
)

from helpers import bundled, classic

SETS = {"star-wars": bundled, "classic": classic}


def _position(name: str, seed: str, turns: int):
    game = Game.new(["red", "black"] if name == "star-wars" else ["red", "blue"], name,
                    seed=seed)
    while game.turn <= turns:
        game.push(greedy_move(game.state))
    return game


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts", "mcts:5", "mcts:0.5s"])
def test_a_spec_names_a_bot(spec):
    assert callable(bot_named(spec, clock=lambda: 0.0))


@pytest.mark.parametrize("spec, words", [
    ("clever", "unknown bot"), ("mcts:", "cannot read"), ("mcts:x", "cannot read"),
    ("mcts:0", "1 to"), ("mcts:-3", "cannot read"), ("mcts:0s", "above 0"), ("mcts:nans", "cannot read"),
    ("mcts:infs", "cannot read"), ("greedy:5", "takes no budget"), ("mcts:99999999999", "1 to"),
])
def test_a_bad_spec_is_refused_with_the_bots_there_are(spec, words):
    with pytest.raises(InvalidCommand, match=words) as caught:
        bot_named(spec, clock=lambda: 0.0)
    assert "mcts:N" in (caught.value.legal or "")


def test_a_budget_in_seconds_needs_a_clock():
    with pytest.raises(InvalidCommand, match="clock"):
        bot_named("mcts:1s")


def test_a_budget_in_seconds_stops_the_search_when_the_clock_says():
    ticks = iter(range(10**6))
    game = _position("star-wars", "3", 5)
    move = bot_named("mcts:3s", clock=lambda: next(ticks))(game.state)  # one tick a look
    assert move in move_options(game.state)


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_search_replays_its_move_and_plays_a_legal_one(name):
    game = _position(name, "4", 10)
    for _ in range(2):  # the placement, then the meeple step
        move = mcts_move(game.state, iterations=60)
        assert mcts_move(game.state, iterations=60) == move
        assert move in move_options(game.state)
        game.push(move)


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_search_does_not_see_the_order_of_the_pile(name):
    game = _position(name, "5", 12)
    hidden = game.state.copy()
    hidden.pile.reverse()
    assert hidden.pile != game.state.pile
    assert mcts_move(hidden, iterations=80) == mcts_move(game.state, iterations=80)


@pytest.mark.parametrize("name", sorted(SETS))
def test_a_position_is_valued_as_the_end_of_the_game_would_pay_it(name):
    game = _position(name, "6", 0)
    state = game.state
    while not (state.phase == "draw" and not state.tiles_left()):
        pending = next_event(state)
        for event in decide(state, random_move(state)) if pending is None else [pending]:
            state = evolve(state, event)  # one event at a time: stop before the end's scoring
    assert projected(state) != state.scores  # realms are still held
    expected = projected(state)
    state, _ = settle(state)
    assert state.phase == "over" and state.scores == expected
