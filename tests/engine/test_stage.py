"""``Game.stage``: where a game stands as one tagged value, carrying what belongs to it."""

from __future__ import annotations

import msgspec
import pytest

from meeple.engine import Game
from meeple.engine.stage import Deploying, Drawing, Over, Placing, Resolving, Rolling, stage_of
from meeple.events import log as logfile

from helpers import RECORDED


@pytest.mark.parametrize("every", [pytest.param(False), pytest.param(True, marks=pytest.mark.slow)])
def test_each_stage_carries_what_the_state_holds_at_every_line_of_recorded_games(every):
    """Every recorded game in the full run; in the everyday run, those of table mode (where
    battles wait for dice) and one of each edition."""
    from meeple.engine.playing import walk

    seen: set[str] = set()
    chosen = RECORDED if every else [p for p in RECORDED if "table" in p.name] + [
        next(p for p in RECORDED if p.name.startswith("classic_random")),
        next(p for p in RECORDED if p.name.startswith("random_2p"))]

    def visit(_, state) -> None:
        stage = stage_of(state)
        seen.add(type(stage).__name__)
        match stage:
            case Placing(player=player, tile=tile):
                assert (player, tile) == (state.player, state.drawn)
            case Deploying(tile=tile, cell=cell):
                assert cell == state.placed_at and tile == state.board[cell].tile.id
            case Rolling(dice=dice):
                assert state.battle is not None and dice == {
                    side: state.battle.dice[side] for side in state.battle.active}
            case Over(scores=scores, winners=winners):
                assert scores == state.scores and winners == tuple(state.winners or ())
            case Drawing() | Resolving():
                pass

    for path in chosen:
        walk(logfile.read(path).events, visit=visit)
    assert {"Placing", "Deploying", "Resolving", "Over", "Drawing", "Rolling"} <= seen


def test_a_stage_is_tagged_data():
    game = Game.new(["red", "blue"], "classic", seed="stage")
    stage = game.stage
    assert isinstance(stage, Placing) and stage.tile == game.drawn
    encoded = msgspec.json.decode(msgspec.json.encode(stage))
    assert encoded == {"type": "place", "player": "red", "tile": game.drawn}
