"""Replaying and playing: ``fold`` rebuilds a game from its events, ``play`` runs a command.

Both use only ``decide``, ``evolve`` and ``next_event``, exactly as
``meeple check`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from meeple.engine.applying import evolve
from meeple.engine.commands import Command
from meeple.engine.deciding import decide
from meeple.engine.flow import consequence, next_event
from meeple.engine.setup import start
from meeple.engine.state import GameState
from meeple.events.model import Event, GameStarted

#: a judge of each recorded event, given the state before it (``meeple.engine.check``)
Judge = Callable[[GameState, Event], None]
#: what sees each event with the state right after it, as a walk passes
Visit = Callable[[Event, GameState], None]


def walk(events: Iterable[Event], secret: str | None = None, *, judge: Judge | None = None,
         visit: Visit | None = None, state: GameState | None = None) -> GameState:
    """The one walker over a log, in one fold (linear): the set-up from its first event, then
    each event in turn, judged (``judge``, called with the state before each event after the
    first: it may raise to stop the walk there) and applied; ``visit`` sees each event with
    the state right after it. Returns the state after the last event. Fold, verify, ``show
    --at`` and the replay page all walk a log through here. Given ``state``, the walk goes on
    from it over the events that follow it (and changes it: give it a copy to keep it).

    The state a visitor sees is the live one, changed by the next step: copy it
    (``state.copy()``) to keep it. Each event costs a call of ``evolve`` and of the callbacks
    given, nothing more (no generator is resumed per event).

    :raises FoldError: on a ``seq`` out of order; ``InvalidCommand`` on a bad set-up.
    """
    iterator = iter(events)
    if state is None:
        first = next(iterator)
        if not isinstance(first, GameStarted):
            raise ValueError("a game starts with game_started")
        state = start(first, secret)
        if visit is not None:
            visit(first, state)
    # (a loop for each set of callbacks given: none is tested per event)
    if judge is None and visit is None:
        for event in iterator:
            state = evolve(state, event)
    elif visit is None:
        assert judge is not None
        for event in iterator:
            judge(state, event)
            state = evolve(state, event)
    else:
        for event in iterator:
            if judge is not None:
                judge(state, event)
            state = evolve(state, event)
            visit(event, state)
    return state


def fold(events: Iterable[Event], secret: str | None = None) -> GameState:
    """The state after a sequence of events, the first being ``game_started`` (no rule is
    checked: ``verify`` does that).

    :raises FoldError: on a ``seq`` out of order; ``InvalidCommand`` on a bad set-up.
    """
    return walk(events, secret)


#: ``next_event``'s answer where a player must act
_NO_EVENT: tuple[Event | None] = (None,)


def settle(state: GameState) -> tuple[GameState, list[Event]]:
    """Write every consequence the rules dictate until a player must act (or the game ends)."""
    written: list[Event] = []
    event = next_event(state)
    while event is not None:
        state = evolve(state, event)
        written.append(event)
        event = consequence(state)  # (``next_event`` of a state that evolve just changed)
    state.memo.next = _NO_EVENT
    return state, written


def play(state: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """Decide a command, apply it and everything it causes; returns the new state and events.
    Changes ``state`` in place when the command is legal (use the state returned).

    :raises InvalidCommand, IllegalMove: from ``decide``; the state is then unchanged (if
        consequences were pending, they are written on a copy first).
    """
    pending: list[Event] = []
    if next_event(state) is not None:
        state, pending = settle(state.continued())
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    state, consequences = settle(state)
    return state, pending + events + consequences
