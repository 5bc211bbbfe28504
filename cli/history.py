"""Which recorded events are undone (and not redone), for ``replay`` and the HTML viewer."""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine import GameState
from meeple.events.model import Event, Redone, Undone


def undone_seqs(events: Sequence[Event], state: GameState) -> set[int]:
    """The seqs of the events of ``events`` (a log folded to ``state``) whose steps are not
    in effect at its end: every event but an undo or redo belongs to a step, and the state
    keeps the steps in effect, redone ones included."""
    in_effect = {event.seq for step in state.history.steps for event in step.events}
    return {event.seq for event in events
            if event.seq not in in_effect and not isinstance(event, (Undone, Redone))}
