"""Undo and redo: appended events, the three policies, and chance that undo cannot change."""

import pytest

from meeple.engine import (
    DrawTile,
    IllegalMove,
    PlaceTile,
    Redo,
    SkipMeeple,
    Undo,
    awaiting,
    decide,
    fold,
    new_game,
    play,
    random_move,
    settle,
    start,
    undoable,
)
from meeple.events.model import Undone

from helpers import Table, bundled


def digital(undo="turn", seed="5"):
    state, events = settle(start(first := new_game(["red", "black"], bundled(), seed=seed,
                                                  undo=undo)))
    return state, [first, *events]


def test_turn_policy_takes_back_a_placement_before_the_meeple_step():
    state, log = digital()
    tile = state.drawn
    state, new = play(state, random_move(state))
    log += new
    assert awaiting(state) == "meeple" and undoable(state) == 1
    state, new = play(state, Undo())
    log += new
    assert isinstance(new[0], Undone) and new[0].steps == (log[-2].seq,)
    assert awaiting(state) == "place" and state.drawn == tile
    assert len(state.board) == 1
    assert fold(log).board.keys() == state.board.keys()


def test_turn_policy_refuses_after_the_next_draw_and_says_why():
    state, log = digital()
    state, _ = play(state, random_move(state))
    state, _ = play(state, SkipMeeple())
    assert undoable(state) == 0
    with pytest.raises(IllegalMove, match="before anything random is revealed"):
        decide(state, Undo())


def test_none_policy_refuses_every_undo():
    state, _ = digital(undo="none")
    state, _ = play(state, random_move(state))
    with pytest.raises(IllegalMove, match="undo off"):
        decide(state, Undo())


def test_any_policy_goes_back_over_draws_and_the_same_tiles_come_again():
    state, log = digital(undo="any")
    drawn = []
    for _ in range(3):
        drawn.append(state.drawn)
        state, new = play(state, random_move(state))
        log += new
        state, new = play(state, random_move(state))
        log += new
    scores = dict(state.scores)
    state, new = play(state, Undo(steps=6))
    log += new
    assert len(state.board) == 1 and state.drawn == drawn[0]
    state, new = play(state, Redo(steps=6))
    log += new
    assert len(state.board) == 4 and state.scores == scores
    assert fold(log).scores == scores


def test_redo_needs_something_undone_and_a_new_move_clears_it():
    state, log = digital(undo="any")
    with pytest.raises(IllegalMove, match="nothing was undone"):
        decide(state, Redo())
    state, _ = play(state, random_move(state))
    state, _ = play(state, Undo())
    assert len(state.history.redo) == 1
    state, _ = play(state, random_move(state))
    assert state.history.redo == []
    with pytest.raises(IllegalMove, match="nothing was undone"):
        decide(state, Redo())


def test_table_mode_can_fix_a_mistyped_draw_in_the_current_turn():
    t = Table(["red", "black"])
    t.do(DrawTile("U"))
    t.do(Undo())
    assert awaiting(t.state) == "draw" and t.state.remaining["U"] == 6
    assert t.state.tiles_left() == sum(t.state.remaining.values())
    t.do(DrawTile("V"))
    t.do(PlaceTile(*_first_spot(t)))
    t.do(SkipMeeple())
    assert undoable(t.state) == 0, "the turn is over"
    assert fold(t.events).remaining == t.state.remaining


def _first_spot(t):
    from meeple.engine import placements

    return placements(t.state, t.state.tileset.types[t.state.drawn])[0]
