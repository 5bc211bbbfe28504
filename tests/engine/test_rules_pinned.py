"""Rules that once no test guarded: the dice cap (SW-5.2) and no take-back after dice were
rolled this turn (undo policy `turn`). Each test fails if its rule is dropped."""

import pytest

from meeple.engine import IllegalMove, Undo, decide, undoable
from meeple.engine.realms import Realm
from meeple.engine.star_wars import StarWars

from helpers import Table, route_battle


def test_four_dice_worth_of_meeples_and_symbol_roll_three():
    """SW-5.2: a large meeple (2) + a small one (1) + the faction's symbol (1) = 4, rolled as 3."""
    t = Table(["red", "black"])
    realm = Realm.new("route", (0, 0), "rebel", 2, 0)
    realm.meeples = (("red", "large", 0), ("red", "small", 0), ("black", "small", 0))
    assert StarWars().dice_for(t.state, realm, "red") == 3
    assert StarWars().dice_for(t.state, realm, "black") == 1


def test_a_tie_round_typed_in_table_mode_can_be_undone_but_not_the_moves_before_it():
    t = route_battle()
    assert undoable(t.state) == 3       # draw, placement, meeple step of this turn
    t.roll(red=(4,), white=(4,))        # a tie: both roll again (SW-5.3)
    assert t.waiting == "dice"
    assert undoable(t.state) == 1       # the dice entry itself: a typo can be fixed
    with pytest.raises(IllegalMove, match="cannot undo 2 step"):
        decide(t.state, Undo(2))
    t.do(Undo())
    assert t.waiting == "dice" and undoable(t.state) == 3

