"""Placement and target enumeration: the fast path agrees with the plain one (SW-3.1, SW-4)."""

from meeple.engine.board import placements, planets_around
from meeple.engine.bots import random_move
from meeple.engine.decide import moves_with_targets
from meeple.engine.flow import awaiting
from meeple.engine.geometry import STEP, facing_port
from meeple.engine.play import play, settle
from meeple.engine.setup import new_game
from meeple.engine.state import start

from helpers import bundled


def targets_for(state, tile, x, y, rotation):
    """The plain way: for each feature, look across each of its sides at the neighbour's realm."""
    o = tile.orientations[rotation // 90]
    free = []
    for f in tile.features:
        taken = False
        for side in (o.feature_sides[f.index] if f.kind != "planet" else ()):
            dx, dy = STEP[side]
            other = state.board.get((x + dx, y + dy))
            if other is not None:
                their = other.tile.orientations[other.r].ports[facing_port(side * 3 + 1)]
                taken = taken or (their >= 0 and bool(state.realms.realm(other.nodes[their]).meeples))
        if not taken:
            free.append(o.targets[f.index])
    return free + [f"planet@{px},{py}" for px, py in planets_around(state, x, y)]


def test_moves_with_targets_matches_placements_and_targets_for():
    checked = 0
    for seed in range(12):
        state, _ = settle(start(new_game(["red", "black", "orange"], bundled(), seed=f"b{seed}")))
        while awaiting(state) != "over":
            if awaiting(state) == "place":
                tile = state.tileset.types[state.drawn]
                fast = sorted((x, y, r, sorted(t)) for x, y, r, t in moves_with_targets(state, tile))
                plain = sorted((x, y, r, sorted(targets_for(state, tile, x, y, r)))
                               for x, y, r in placements(state, tile))
                assert fast == plain
                checked += 1
            state, _ = play(state, random_move(state))
    assert checked > 800
