"""Which recorded events are undone (and not redone), for ``replay``."""

from __future__ import annotations

from meeple.engine.evolve import evolve
from meeple.engine.state import start
from meeple.events.model import Event, GameStarted, Redone, Undone


def undone_seqs(events: list[Event]) -> set[int]:
    """The seqs of events whose steps are undone at the end of the log."""
    first = events[0]
    assert isinstance(first, GameStarted)
    state = start(first)
    marked: set[int] = set()
    for event in events[1:]:
        if isinstance(event, Undone):
            for step in state.steps[-len(event.steps):]:
                marked.update(e.seq for e in step.events)
        elif isinstance(event, Redone):
            for step in state.redo[-len(event.steps):]:
                marked.difference_update(e.seq for e in step.events)
        state = evolve(state, event)
    return marked
