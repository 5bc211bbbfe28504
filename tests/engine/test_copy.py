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
    game = Game.new(["red", "black"], EDITIONS[edition](), seed=seed)
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
