"""The playout path (``meeple.engine.detached``) plays the referee's rules: a game played
there with the seed's draws and dice and the same choices gives every score the referee
gives, turn by turn; a sampling playout sees nothing of the hidden order of the pile."""

import random
from collections import Counter

import pytest

from meeple.engine import (
    FoldError,
    advance,
    awaiting,
    detach,
    evolve,
    export,
    new_game,
    nth_placement,
    placement_at,
    placement_count,
    placements,
    play,
    play_move,
    playout,
    random_move,
    sample_placement,
    settle,
    start,
)

from helpers import bundled, classic

GAMES = [
    ("star-wars", ["red", "black"], {}),
    ("star-wars", ["red", "black", "green"], {"unplaceable": "reshuffle"}),
    ("star-wars", ["red", "black", "green", "white"], {"team": True}),
    ("classic", ["red", "blue"], {}),
    ("classic", ["red", "blue", "green", "yellow", "black"], {}),
    ("classic+fiesta", ["red", "blue", "green"], {}),
]
SETS = {"star-wars": bundled, "classic": classic, "classic+fiesta": lambda: classic(True)}


def _turns_both_ways(name: str, colours: list[str], options: dict, seed: str):
    first = new_game(colours, SETS[name](), seed=seed, **options)
    referee, _ = settle(start(first))
    fast = detach(referee)
    advance(fast)
    turns = []
    while awaiting(referee) != "over":
        command = random_move(referee)
        assert random_move(fast) == command  # the same choice: the same seeded position
        referee, _ = play(referee, command)
        play_move(fast, command)
        advance(fast)
        turns.append((referee.turn, dict(referee.scores), fast.turn, dict(fast.scores)))
    return referee, fast, turns


@pytest.mark.parametrize("name, colours, options", GAMES)
@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_the_playout_path_scores_every_turn_as_the_referee_does(name, colours, options, seed):
    referee, fast, turns = _turns_both_ways(name, colours, options, seed)
    for turn, scores, fast_turn, fast_scores in turns:
        assert (fast_turn, fast_scores) == (turn, scores)
    assert fast.phase == "over" and fast.winners == referee.winners
    board = {key: value for key, value in export(referee).items() if key != "breakdown"}
    assert {key: value for key, value in export(fast).items() if key != "breakdown"} == board
    assert export(fast)["breakdown"] == []  # a detached state keeps no history
    assert any(scores != dict.fromkeys(scores, 0) for _, scores, _, _ in turns)


def test_a_detached_state_takes_no_events():
    first = new_game(["red", "black"], bundled(), seed="4")
    state, events = settle(start(first))
    fast = detach(state)
    with pytest.raises(FoldError, match="detached"):
        evolve(fast, events[-1])


@pytest.mark.parametrize("name", ["star-wars", "classic"])
def test_the_nth_placement_walks_every_placement_once(name):
    first = new_game(["red", "black"], SETS[name](), seed="5")
    state, _ = settle(start(first))
    for _ in range(60):
        if awaiting(state) == "over":
            break
        if awaiting(state) == "place":
            tile = state.tileset.types[state.drawn]
            listed = placements(state, tile)
            walked = [nth_placement(state, tile, lambda n, i=i: i) for i in range(len(listed))]
            assert sorted(walked) == sorted(listed)
            with pytest.raises(ValueError):  # no n-th past the last
                nth_placement(state, tile, lambda n: n)
            assert placement_count(state, tile) == len(listed)
            assert [placement_at(state, tile, i) for i in range(len(listed))] == listed
        state, _ = play(state, random_move(state))


def _positions(name: str, seed: str, moves: int):
    """A game's states each time it waits for a placement, for ``moves`` moves."""
    first = new_game(["red", "black"], SETS[name](), seed=seed)
    state, _ = settle(start(first))
    for _ in range(moves):
        if awaiting(state) == "over":
            break
        if awaiting(state) == "place":
            yield state
        state, _ = play(state, random_move(state))


@pytest.mark.parametrize("name", ["star-wars", "classic"])
def test_a_detached_state_lists_its_frontier_cells_as_tiles_are_laid(name):
    position = next(p for i, p in enumerate(_positions(name, "7", 20)) if i == 5)
    fast = detach(position, random.Random(1))
    rng = random.Random(2)
    advance(fast, rng)
    while fast.phase != "over":
        assert sorted(fast.search.cells) == sorted(fast.frontier)
        assert {cell: at for at, cell in enumerate(fast.search.cells)} == fast.search.cell_at
        playout(fast, rng, turns=1)
    assert sorted(fast.search.cells) == sorted(fast.frontier)


@pytest.mark.parametrize("name", ["star-wars", "classic"])
@pytest.mark.parametrize("tries", [32, pytest.param(0, marks=pytest.mark.slow)])
def test_a_sampled_placement_is_legal_and_each_is_as_likely(name, tries):
    """Every placement comes up about as often as every other, including those of a cell
    where fewer rotations fit (a draw of a cell, then of one of its rotations, would favour
    them); with no tries left, the count of placements picks."""
    rng = random.Random(11)
    for position in list(_positions(name, "8", 60))[5::6]:
        fast = detach(position, random.Random(1))
        tile = fast.tileset.types[fast.drawn]
        legal = placements(fast, tile)
        draws = 200 * len(legal)
        seen = Counter(sample_placement(fast, tile, rng.random, tries) for _ in range(draws))
        assert set(seen) == set(legal)
        assert all(125 <= n <= 275 for n in seen.values()), seen  # 200 expected, sd about 14


@pytest.mark.parametrize("name", ["star-wars", "classic"])
def test_a_sampling_playout_sees_nothing_of_the_hidden_order_of_the_pile(name):
    first = new_game(["red", "black"], SETS[name](), seed="6")
    state, _ = settle(start(first))
    for _ in range(30):
        state, _ = play(state, random_move(state))
    other = state.copy()
    random.Random(9).shuffle(other.pile)
    assert other.pile != state.pile
    ends = [playout(detach(s, random.Random(3)), random.Random(3)) for s in (state, other)]
    assert export(ends[0]) == export(ends[1])
    assert ends[0].phase == "over" and not any(ends[0].remaining.values())
    again = playout(detach(state, random.Random(4)), random.Random(4))
    assert export(again) != export(ends[0])  # the rng, not the pile, decides
