"""The legal-move listing is the rules: every listed target is accepted by ``decide`` after
the placement, and every target ``decide`` accepts is listed (SW-3.1, SW-4.2, SW-4.3, CL-4).

The oracle is trial placement on a copy of the state followed by the rules' own check of
each meeple target, on random positions of both editions; the first test is the position
where a listing that judged each feature by its own edges offered a field the rules refuse.
"""

import random

import pytest

from meeple.engine import (
    DrawTile,
    Game,
    PlaceMeeple,
    PlaceTile,
    RulesError,
    decide,
    evolve,
    legal_moves,
    placements,
    random_move,
)

from helpers import Table, bundled, classic, mini_set


def accepted_targets(state, x, y, rotation):
    """The rules' answer: place the tile on a copy, then ask ``decide`` about every target."""
    trial = state.copy()
    for event in decide(trial, PlaceTile(x, y, rotation)):
        trial = evolve(trial, event)
    placed = trial.board[(x, y)]
    candidates = list(placed.tile.orientations[placed.r].targets)
    candidates += [f"planet@{x + dx},{y + dy}" for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if (dx, dy) != (0, 0)]
    left = trial.reserve[trial.player]
    figure = next((name for name, n in left.items() if n), "small")
    ok = []
    for target in candidates:
        try:
            decide(trial, PlaceMeeple(target, figure))
        except RulesError:
            continue
        ok.append(target)
    return sorted(ok)


def listed(state):
    """What the engine lists (``legal_moves``, which `meeple moves` prints)."""
    return sorted((m.x, m.y, m.rotation, sorted(m.targets)) for m in legal_moves(state))


def oracle(state):
    tile = state.tileset.types[state.drawn]
    return sorted((x, y, r, accepted_targets(state, x, y, r))
                  for x, y, r in placements(state, tile))


def test_two_fields_of_one_tile_joined_through_the_board_are_one_farm():
    t = Table(["red", "blue"], mini_set({"D": 1, "E": 1, "U": 1, "A": 1, "W": 1}, base=classic()))
    t.turn("E", 0, 1, 180)
    t.turn("U", -1, 0, 0, meeple="field:Nw")
    t.turn("A", 1, 1, 0)
    t.do(DrawTile("W"))
    spot = next(m for m in legal_moves(t.state) if (m.x, m.y, m.rotation) == (1, 0, 90))
    assert "field:Ne" not in spot.targets
    assert listed(t.state) == oracle(t.state)


def two_curves() -> object:
    """A Star Wars set of one tile type carrying two separate routes (an N-E and an S-W
    curve) on every edge: loops on the board join the two routes of a tile being laid."""
    import msgspec

    from meeple.events.tileset import Edges, FeatureDef, TileDef

    curves = TileDef(id="Z", count=40, edges=Edges(N="route", E="route", S="route", W="route"),
                     features=(FeatureDef(kind="route", edges=("N", "E")),
                               FeatureDef(kind="route", edges=("S", "W"))))
    return msgspec.structs.replace(bundled(), name="two-curves", start="Z", tiles=(curves,))


def split_fields() -> object:
    """The classic set and a tile whose two fields meet the edges in halves: the west half of
    every edge is one field, the east half the other (the north edge's halves are Nw and Ne,
    a side's ports may belong to two fields). A farm on the board that touches both halves
    of one edge makes the two fields one as the tile is laid."""
    import msgspec

    from meeple.events.tileset import Edges, FeatureDef, TileDef

    base = classic()
    split = TileDef(id="split", count=12, edges=Edges(N="field", E="field", S="field", W="field"),
                    features=(FeatureDef(kind="field", ports=("Nw", "Wn", "Ws", "Sw")),
                              FeatureDef(kind="field", ports=("Ne", "En", "Es", "Se"))))
    return msgspec.structs.replace(base, name="split-fields", tiles=(*base.tiles, split))


@pytest.mark.parametrize("edition", ["star-wars", *(pytest.param(name, marks=pytest.mark.slow)
                                                    for name in ("classic", "split-fields",
                                                                 "two-curves"))])
def test_the_listing_equals_trial_placement_and_the_rules_check(edition):
    tileset = {"star-wars": bundled, "classic": classic, "two-curves": two_curves,
               "split-fields": split_fields}[edition]()
    chooser = random.Random(edition)
    sample = 1.0 if edition == "two-curves" else 0.35
    checked = 0
    for seed in range(6 if edition != "two-curves" else 12):
        game = Game.new(["red", "black", "green"], tileset=tileset, seed=f"c{seed}")
        while not game.over:
            if game.phase == "place" and chooser.random() < sample:
                assert listed(game.state) == oracle(game.state)
                checked += 1
            game.push(random_move(game.state))
    assert checked > 120
