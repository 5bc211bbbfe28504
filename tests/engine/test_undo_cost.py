"""Undo costs what it takes back: snapshots at step boundaries, not a replay from line 1.

A hostile (but legal) log of undo/redo pairs must not make every reader refold the
game at every pair; and the snapshot path must give exactly the state a full rebuild
gives. Copies of a state are independent.
"""

import importlib
import random

import pytest

from meeple.engine import (
    Redo,
    Undo,
    awaiting,
    export,
    fold,
    new_game,
    play,
    random_move,
    settle,
    start,
    undoable,
)
from meeple.engine.history import KeptStates

from helpers import bundled, classic

# the package exports the function evolve, which hides the module of the same name
evolve_module = importlib.import_module("meeple.engine.applying")


def _game(tileset, seed: str, undo: str = "any"):
    first = new_game(["red", "black"], tileset, seed=seed, undo=undo)
    state, events = settle(start(first))
    return state, [first, *events]


def _undo_redo_chain(pairs: int):
    """A placement followed by ``pairs`` undo/redo pairs: legal under the default policy."""
    state, log = _game(bundled(), "7", undo="turn")
    state, new = play(state, random_move(state))
    log += new
    for _ in range(pairs):
        for command in (Undo(), Redo()):
            state, new = play(state, command)
            log += new
    return log


def test_a_chain_of_undo_redo_pairs_rebuilds_the_game_at_most_once(monkeypatch):
    log = _undo_redo_chain(500)
    rebuilds = []
    real_start = evolve_module.start

    def counting_start(*args, **kwargs):
        rebuilds.append(1)
        return real_start(*args, **kwargs)

    monkeypatch.setattr(evolve_module, "start", counting_start)
    state = fold(log)
    assert awaiting(state) == "meeple"
    assert len(rebuilds) <= 1, f"{len(rebuilds)} rebuilds from the first line for 500 undos"


@pytest.mark.parametrize("edition", ["star-wars", pytest.param("classic", marks=pytest.mark.slow)])
def test_undo_through_snapshots_gives_the_state_a_full_rebuild_gives(edition, monkeypatch):
    tileset = bundled() if edition == "star-wars" else classic()
    chooser = random.Random(11)
    state, log = _game(tileset, "3")
    while awaiting(state) != "over" and len(log) < 600:
        if awaiting(state) in ("place", "meeple") and undoable(state) and chooser.random() < 0.3:
            command = Undo(chooser.randint(1, min(4, undoable(state))))
        elif state.history.redo and chooser.random() < 0.5:
            command = Redo(chooser.randint(1, len(state.history.redo)))
        else:
            command = random_move(state)
        state, new = play(state, command)
        log += new
    assert any(type(e).__name__ == "Undone" for e in log)
    with_snapshots = [export(s) for s in _states(log)]
    monkeypatch.setattr(KeptStates, "LIMIT", 0)
    without = [export(s) for s in _states(log)]
    assert with_snapshots == without


def _states(log):
    state = start(log[0])
    for event in log[1:]:
        state = evolve_module.evolve(state, event)
        yield state


def test_a_copy_is_independent_of_the_state_it_was_taken_from():
    state, log = _game(bundled(), "5")
    for _ in range(30):
        state, new = play(state, random_move(state))
    before = export(state)
    twin = state.copy()
    assert export(twin) == before
    for _ in range(30):
        if awaiting(twin) == "over":
            break
        twin, _ = play(twin, random_move(twin))
    assert export(state) == before
    assert export(twin) != before
