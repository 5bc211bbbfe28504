"""Undone events read off the final state match a replay that marks them as it goes."""

from pathlib import Path

import pytest

from meeple.cli.history import undone_seqs
from meeple.cli.store import load
from meeple.engine import evolve, start
from meeple.events.model import Redone, Undone

FIXTURES = Path(__file__).parents[2] / "fixtures"


def marked_while_replaying(events):
    """The oracle: mark the steps each undo takes back, unmark those each redo brings back."""
    state = start(events[0])
    marked: set[int] = set()
    for event in events[1:]:
        if isinstance(event, Undone):
            for step in state.history.steps[-len(event.steps):]:
                marked.update(e.seq for e in step.events)
        elif isinstance(event, Redone):
            for step in state.history.redo[-len(event.steps):]:
                marked.difference_update(e.seq for e in step.events)
        state = evolve(state, event)
    return marked


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*undo*.jsonl")), ids=lambda p: p.stem)
def test_undone_events_are_those_a_replay_marks(path):
    game = load(str(path))
    expected = marked_while_replaying(game.events)
    assert expected, "the fixture undoes something"
    assert undone_seqs(game.events, game.state) == expected
