"""Replaying and playing: ``fold`` rebuilds a game from its events, ``play`` runs a command.

Both use only ``decide``, ``evolve`` and ``next_event``, exactly as
``meeple check`` does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

from meeple.engine.applying import evolve
from meeple.engine.commands import Command
from meeple.engine.deciding import decide
from meeple.engine.flow import consequence, next_event
from meeple.engine.setup import start
from meeple.engine.state import GameState
from meeple.events.model import Event, GameStarted

#: a judge of each recorded event, given the state before it (``meeple.engine.check``)
Judge = Callable[[GameState, Event], None]


def walk(events: Iterable[Event], secret: str | None = None, *,
         judge: Judge | None = None) -> Iterator[tuple[Event, GameState]]:
    """The one walker over a log: each event with the state right after it, in one fold
    (linear). ``judge`` is called with the state before each event after the first and may
    raise to stop the walk there (``verify`` judges every move and consequence); fold,
    verify, ``show --at`` and the replay page all walk a log through here.

    The state is the live one, changed by the next step: copy it (``state.copy()``) to keep it.

    :raises FoldError: on a ``seq`` out of order; ``InvalidCommand`` on a bad set-up.
    """
    iterator = iter(events)
    first = next(iterator)
    if not isinstance(first, GameStarted):
        raise ValueError("a game starts with game_started")
    state = start(first, secret)
    yield first, state
    for event in iterator:  # (``walk_on``, inline: a generator that delegates costs a step)
        if judge is not None:
            judge(state, event)
        state = evolve(state, event)
        yield event, state


def walk_on(state: GameState, events: Iterable[Event], *,
            judge: Judge | None = None) -> Iterator[tuple[Event, GameState]]:
    """``walk`` from ``state`` (which it changes: give it a copy to keep the original) over
    the events that follow it."""
    for event in events:
        if judge is not None:
            judge(state, event)
        state = evolve(state, event)
        yield event, state


def fold(events: Iterable[Event], secret: str | None = None) -> GameState:
    """The state after a sequence of events, the first being ``game_started`` (no rule is
    checked: ``verify`` does that).

    :raises FoldError: on a ``seq`` out of order; ``InvalidCommand`` on a bad set-up.
    """
    return deque(walk(events, secret), maxlen=1)[0][1]


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
