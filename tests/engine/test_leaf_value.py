"""The search's leaf value (``meeple.engine.evaluation.leaf_value``): a realm held is worth
its completed points times its chance of completion, its end-of-game points otherwise; a
realm is dead (no chance) only where an open end faces a cell no tile left fits."""

import pytest

from meeple.engine import Game, evaluation, greedy_move
from meeple.engine.evaluation import LEAF_RESERVE, completion_chance, leaf_value, reserve_points
from meeple.engine.geometry import around
from meeple.engine.scoring import final_payment, held_roots, scorers


def _held_cloister(seed: str):
    """A classic position (greedy against greedy) where a side holds a cloister with an empty
    diagonal neighbour that no tile touches yet: the cell is not on the frontier."""
    game = Game.new(["red", "blue"], "classic", seed=seed)
    while not game.over:
        state = game.state
        centre = state.tileset.vocabulary.centre
        for root in held_roots(state):
            realm = state.realms.data[root]
            if realm.kind == centre:
                (x, y), = realm.tiles
                if any(cell not in state.board and cell not in state.frontier
                       for cell in around(x, y)):
                    return state, root
        game.push(greedy_move(state))
    raise AssertionError("no such position in this game")


def test_a_cloister_with_an_empty_diagonal_off_the_frontier_may_still_be_completed(
        monkeypatch: pytest.MonkeyPatch):
    state, root = _held_cloister("c0")
    realm = state.realms.data[root]
    (x, y), = realm.tiles
    missing = sum(cell not in state.board for cell in around(x, y))
    chance = completion_chance(missing, state.left / len(state.players))
    assert 0 < chance < 1
    end = final_payment(state, realm).points
    completed = state.edition.completed_points(realm)[0]
    assert completed > end
    (side,) = scorers(state, realm)
    monkeypatch.setattr(evaluation, "held_roots", lambda _: [root])  # value this realm only
    reserve = LEAF_RESERVE * reserve_points(state)[side]
    worth = leaf_value(state)[side] - state.scores[side] - reserve
    assert worth == pytest.approx(chance * completed + (1 - chance) * end)
