"""The ``lookahead`` bot (``meeple.engine.lookahead``): its turns are the ones ``greedy``'s
one-step values count, a turn that starts a battle is valued over its dice, it keeps the
figure step of the turn it chose, it does not see the order of the pile, and a seed replays
its game."""

import hashlib
import random

import pytest

from meeple.engine import Game, bot_named, greedy_move, move_options
from meeple.engine.detached import advance, detach  # noqa: TID251
from meeple.engine.evaluation import difference  # noqa: TID251
from meeple.engine.evaluation_learned import learned_value  # noqa: TID251
from meeple.engine.flow import awaiting  # noqa: TID251
from meeple.engine.greedy import one_step_values  # noqa: TID251
from meeple.engine.lookahead import _Chance, _Opposite, choose, rolls_for, turns  # noqa: TID251
from meeple.events.model import encode

from helpers import TWO_PLAYERS, greedy_game

SETS = ("classic", "star-wars")
PLAYERS = TWO_PLAYERS


@pytest.mark.parametrize("edition", SETS)
def test_its_turns_are_the_ones_greedys_one_step_values_count(edition):
    import random

    game = greedy_game(edition, "turns", 0)
    checked = 0
    while not game.over and game.turn <= 16:
        state = game.state
        if state.phase == "place":
            side = state.side_of[state.player]
            found = turns(detach(state, random.Random(0)), side, learned_value)
            values = one_step_values(state, move_options(state), learned_value)
            assert max(t.value for t in found) == pytest.approx(max(values))
            assert {t.first for t in found} == set(move_options(state))
            checked += 1
        game.push(greedy_move(state))
    assert checked >= 8


def test_a_turn_waiting_for_dice_is_worth_the_mean_over_its_rolls():
    import random

    game = greedy_game("star-wars", "dice", 4)  # turns that start a battle (SW-5)
    state = detach(game.state, random.Random(0))
    side = state.side_of[state.player]
    rolls = rolls_for(game.state, "lookahead")
    battles = [turn for turn in turns(state, side, learned_value, rolls)
               if awaiting(turn.after) == "dice"]
    assert battles
    for turn in battles:
        rolled = []
        for seed in rolls:
            for dice in (random.Random(seed), _Opposite(seed)):
                after = turn.after.copy()
                advance(after, dice, draw=False)
                assert awaiting(after) in ("draw", "over")  # the dice rolled, no tile drawn
                rolled.append(difference(after, side, learned_value))
        assert turn.value == pytest.approx(sum(rolled) / len(rolled))
    assert any(turn.value != pytest.approx(difference(turn.after, side, learned_value))
               for turn in battles)


def test_a_roll_and_its_opposite_favour_no_seat():
    """Over a roll and its opposite, a die against a die wins as often as it loses, however
    the seeds fall (six fixed generators gave the first seat 1 win in 6)."""
    for seed in rolls_for(greedy_game("star-wars", "dice", 0).state, "lookahead", 50):
        plain, opposite = random.Random(seed), _Opposite(seed)
        first, second = plain.randint(1, 6), plain.randint(1, 6)
        assert (opposite.randint(1, 6), opposite.randint(1, 6)) == (7 - first, 7 - second)


def test_the_rolls_differ_from_one_position_to_the_next():
    game = greedy_game("star-wars", "dice", 0)
    before = rolls_for(game.state, "lookahead")
    game.push(greedy_move(game.state))
    assert rolls_for(game.state, "lookahead") != before
    assert rolls_for(game.state, "lookahead") != rolls_for(game.state, "other seed")


def test_it_plays_the_figure_step_of_the_turn_it_chose():
    game = greedy_game("star-wars", "step", 8)
    chosen = choose(game.state)
    bot = bot_named("lookahead")
    placement = bot(game.state)
    assert placement == chosen.first
    game.push(placement)
    assert game.state.phase == "meeple" and chosen.step is not None
    assert bot.kept is not None and bot.kept[1] == chosen.step
    assert bot(game.state) == chosen.step
    assert bot.kept is None  # used once


def test_a_step_kept_for_one_placement_is_not_played_after_another():
    game = greedy_game("classic", "b", 3)  # the step kept: a figure on the city's north part
    bot = bot_named("lookahead")
    chosen = bot(game.state)
    kept = bot.kept[1]
    for other in move_options(game.state):
        if other == chosen:
            continue
        after = game.copy()
        after.push(other)
        if after.state.phase != "meeple" or kept not in move_options(after.state):
            continue  # (a kept step that is illegal here is refused as illegal)
        fresh = choose(after.state).first
        if fresh != kept:
            break
    else:
        pytest.fail("no other placement where the kept step is legal but not chosen")
    assert bot(after.state) == fresh


def test_the_tiles_of_a_draw_do_not_shift_with_the_dice_rolled_before_them():
    rolled, plain = _Chance("seed:3"), _Chance("seed:3")
    assert 1 <= rolled.randint(1, 6) <= 6 and 1 <= rolled.randint(1, 6) <= 6
    assert [rolled.random() for _ in range(3)] == [plain.random() for _ in range(3)]


@pytest.mark.parametrize("edition", SETS)
def test_it_does_not_see_the_order_of_the_pile(edition):
    game = greedy_game(edition, "blind", 10)
    hidden = game.state.copy()
    hidden.pile.reverse()
    assert hidden.pile != game.state.pile
    assert bot_named("lookahead")(hidden) == bot_named("lookahead")(game.state)


@pytest.mark.slow  # games of the bot
@pytest.mark.parametrize("edition", SETS)
def test_the_same_seed_plays_the_same_game_byte_for_byte(edition):
    digests = []
    for _ in range(2):
        game = Game.new(PLAYERS[edition], edition, seed="same")
        bots = dict(zip(PLAYERS[edition], (bot_named("lookahead"), bot_named("greedy")),
                        strict=True))
        while not game.over and game.turn <= 12:
            game.push(bots[game.state.player](game.state))
        digests.append(hashlib.sha256(b"".join(encode(e) for e in game.events)).hexdigest())
    assert digests[0] == digests[1]
