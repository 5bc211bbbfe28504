"""Copies of a state are cheap (shared, copy-on-write realms and steps) and independent: a
state and its copies, each played on along its own line, all equal a fold of their own events.
"""

import pytest

from meeple.engine import Game, PlaceMeeple, PlaceTile, SkipMeeple, export, fold

from helpers import bundled, classic

EDITIONS = {"star-wars": bundled, "classic": classic}


def _move(game: Game, line: int):
    """A legal move that differs from line to line."""
    moves = game.legal_moves()
    if game.phase == "place":
        move = moves[(line * 7 + game.turn) % len(moves)]
        return PlaceTile(move.x, move.y, move.rotation)
    targets = moves[0].targets
    if not targets or (line + game.turn) % 3 == 0:
        return SkipMeeple()
    return PlaceMeeple(targets[(line + game.turn) % len(targets)], moves[0].figures[0])


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("seed", ["1", "2"])
def test_a_state_and_its_copies_played_apart_each_match_a_fold_of_their_events(edition, seed):
    game = Game.new(["red", "black"], edition, seed=seed)
    lines = [game]
    while not game.over:
        if game.turn % 6 == 0 and game.phase == "place" and len(lines) < 10:
            lines.append(game.copy())
        for number, line in enumerate(lines):
            if not line.over:
                line.push(_move(line, number))
    for line in lines:
        assert export(line.state) == export(fold(line.events))
    assert len({str(export(line.state)) for line in lines}) == len(lines)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_copies_that_part_and_then_undo_each_go_back_along_their_own_line(edition):
    """Undo of a copy goes back along the copy's own steps: two copies that place apart, skip
    and undo must each equal a fold of their own events, not the other's position (a copy's
    undo snapshots are its own; they were once shared, keyed by step)."""
    game = Game.new(["red", "black"], edition, seed="7", undo="any")
    first, second = game, game.copy()
    moves = first.legal_moves()
    for line, move in ((first, moves[0]), (second, moves[-1])):
        line.push(PlaceTile(move.x, move.y, move.rotation))
        line.push(SkipMeeple())
    for line in (first, second):
        line.undo()
    assert export(first.state) == export(fold(first.events))
    assert export(second.state) == export(fold(second.events))
    assert sorted(first.state.board) != sorted(second.state.board)
