"""The second bots (``greedy``: the best one-step value difference; ``mcts``: a leaf value
of completion chances and reserves, early stops, the placement's tree carried on to the figure
step) and the first ones kept as ``greedy-v1`` and ``mcts-v1``, which still play the games
they played."""

import hashlib

import pytest

from meeple.engine import Game, bot_named, move_options
from meeple.events.model import PointsScored, encode

SETS = ("classic", "star-wars")
PLAYERS = {"star-wars": ["red", "black"], "classic": ["red", "blue"]}


def _play(edition: str, seed: str, specs: list[str], turns: int | None = None) -> Game:
    game = Game.new(PLAYERS[edition], edition, seed=seed)
    bots = dict(zip(PLAYERS[edition], (bot_named(s) for s in specs), strict=True))
    while not game.over and (turns is None or game.turn <= turns):
        game.push(bots[game.state.player](game.state))
    return game


def _digest(game: Game) -> str:
    return hashlib.sha256(b"".join(encode(event) for event in game.events)).hexdigest()


@pytest.mark.parametrize("edition, digest", [
    ("classic", "6608e0a53060cc3a6dc6e74597070d4682d4f728821721106e661b109a5346f9"),
    ("star-wars", "c24ae945572aeb81f4a70a810d1f97c4a248e7645174badf5bfbcf233a39f88d"),
])
@pytest.mark.slow  # whole games of the bots
def test_the_bots_of_meeple_1_play_the_games_they_played(edition, digest):
    # (the digests of these games as the first mcts:25 and greedy played them, at c2facb3)
    game = Game.new(PLAYERS[edition], edition, seed="pin-v1")
    bots = dict(zip(PLAYERS[edition], (bot_named("mcts-v1:25"), bot_named("greedy-v1")),
                    strict=True))
    while not game.over:
        game.push(bots[game.state.player](game.state))
    assert _digest(game) == digest


@pytest.mark.slow  # two whole games of bots
@pytest.mark.parametrize("edition, digest", [
    ("classic", "aba9898f8e1d7c27e3bb4b0a3f051513e92e7b2133fc8924b757eca70f886412"),
    ("star-wars", "04b59787ef68b5669c7e25836a87ee66c18220f344ed57c17d073f964f2e2981"),
])
def test_greedy_the_baseline_plays_the_games_it_played(edition, digest):
    # (greedy's self-play games as it played them when it came in, at 9af6a00: the search's
    # figures are measured against it, so it stays as it is)
    assert _digest(_play(edition, "pin-greedy", ["greedy", "greedy"])) == digest


@pytest.mark.parametrize("edition", SETS)
def test_the_same_seed_plays_the_same_game_byte_for_byte(edition):
    one = _play(edition, "same", ["mcts:12", "greedy"], turns=12)
    two = _play(edition, "same", ["mcts:12", "greedy"], turns=12)
    assert one.turn > 12 and _digest(one) == _digest(two)


@pytest.mark.slow  # whole games of the bots
def test_greedy_holds_open_realms_and_farms_where_greedy_v1_never_does():
    held = {}
    for spec in ("greedy", "greedy-v1"):
        game = _play("classic", "hold", [spec, spec])
        held[spec] = sum(event.points for event in game.events  # paid at the end
                         if isinstance(event, PointsScored) and event.reason in ("final", "farm"))
    assert held["greedy-v1"] == 0 < held["greedy"]


@pytest.mark.slow  # whole games of the bots
@pytest.mark.parametrize("edition", SETS)
def test_greedy_beats_greedy_v1_in_both_seats(edition):
    for specs, mine in ((["greedy", "greedy-v1"], 0), (["greedy-v1", "greedy"], 1)):
        game = _play(edition, "duel", specs)
        scores = [game.state.scores[game.state.side_of[c]] for c in PLAYERS[edition]]
        assert scores[mine] > scores[1 - mine]


@pytest.mark.parametrize("edition", SETS)
def test_the_figure_step_searches_on_from_the_placements_tree(edition):
    game = _play(edition, "reuse", ["greedy", "greedy"], turns=6)
    bot = bot_named("mcts:200")
    game.push(bot(game.state))  # the placement
    assert game.state.phase == "meeple"
    step = bot(game.state)
    assert step in move_options(game.state)
    assert bot.found["reused"] > 0
    assert bot.found["reused"] + bot.found["iterations"] <= 200
    fresh = bot_named("mcts:200")
    fresh(game.state)  # a bot that did not choose the placement starts afresh
    assert "reused" not in fresh.found


def test_a_tree_kept_for_one_placement_is_not_searched_on_after_another():
    game = _play("classic", "other", ["greedy", "greedy"], turns=6)
    bot = bot_named("mcts:200")
    chosen = bot(game.state)
    other = next(move for move in move_options(game.state) if move != chosen)
    game.push(other)
    assert game.state.phase == "meeple"
    assert bot(game.state) in move_options(game.state)
    assert "reused" not in bot.found


def test_a_search_stops_once_no_other_move_can_overtake_its_choice():
    game = _play("classic", "early", ["greedy", "greedy"], turns=4)
    bot = bot_named("mcts:1500")
    bot(game.state)
    found = bot.found
    assert found["iterations"] < 1500
    visits = sorted(move["visits"] for move in found["moves"])
    assert visits[-1] - visits[-2] > 1500 - found["iterations"]


@pytest.mark.parametrize("edition", SETS)
def test_the_new_search_does_not_see_the_order_of_the_pile(edition):
    game = _play(edition, "blind", ["greedy", "greedy"], turns=10)
    hidden = game.state.copy()
    hidden.pile.reverse()
    assert hidden.pile != game.state.pile
    assert bot_named("mcts:80")(hidden) == bot_named("mcts:80")(game.state)


def test_a_budget_in_cpu_seconds_ends_the_search_at_its_deadline():
    ticks = iter(range(10**6))
    game = _play("star-wars", "clock", ["greedy", "greedy"], turns=5)
    bot = bot_named("mcts:40s", clock=lambda: next(ticks))  # one tick a look
    assert bot(game.state) in move_options(game.state)
    assert bot.found["iterations"] <= 40
