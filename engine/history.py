"""The undo history of a game (DESIGN.md, "Events and the log"): the steps in effect,
the steps undone that a redo may bring back, and states kept at step boundaries so that
taking steps back costs what it takes back, not the game.

A step is one input event (a placement, a meeple, a draw or roll in table mode) with the
consequences that followed it; undo takes whole steps off the top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from meeple.events.model import Event

if TYPE_CHECKING:
    from meeple.engine.state import GameState

#: the undo policy and redo, rules of meeple's own (``meeple rules UN-1``, ``UN-2``), not an
#: edition's
UNDO_RULE = "UN-1"
REDO_RULE = "UN-2"


class KeptStates:
    """States at step boundaries, kept when an undo rebuilds one, so undoing to the same
    point again (undo/redo pairs) costs a copy, not a replay from the first line.

    Shared by the states of one line of play (a fold, and ``GameState.continued``); a copy
    (``GameState.copy``) starts its own. At most ``LIMIT`` states, the oldest used dropped
    first. Keyed by the ``seq`` of the last step in effect: the steps before a step
    never change (undo takes steps off the top; redo puts the same ones back).
    """

    LIMIT = 16

    def __init__(self) -> None:
        self._states: dict[int, tuple[int, GameState]] = {}

    def nearest(self, steps: list[Step]) -> tuple[int, GameState] | None:
        """The snapshot after the longest prefix of ``steps`` that is kept, with its length."""
        best: tuple[int, GameState] | None = None
        for key, (length, state) in self._states.items():
            if length <= len(steps) and steps[length - 1].seq == key \
                    and (best is None or length > best[0]):
                best = (length, state)
        if best is not None:
            key = steps[best[0] - 1].seq
            self._states[key] = self._states.pop(key)  # most recently used last
        return best

    def keep(self, steps: list[Step], state: GameState) -> None:
        """Keep a copy of ``state``, the state after ``steps``."""
        self._put(steps, state.copy())

    def stash(self, steps: list[Step], state: GameState) -> None:
        """Keep ``state`` itself, the state after ``steps``, which an undo supersedes: from
        now on it is only ever copied (see ``GameState.closed``), so a redo of the same
        steps costs a copy instead of playing them again."""
        state.closed = True
        self._put(steps, state)

    def _put(self, steps: list[Step], state: GameState) -> None:
        self._states.pop(steps[-1].seq, None)
        self._states[steps[-1].seq] = (len(steps), state)
        while len(self._states) > self.LIMIT:
            del self._states[next(iter(self._states))]


class Step(msgspec.Struct):
    """A unit of undo: an input event and the consequences that followed it."""

    events: list[Event]
    player: str
    turn: int
    chance: bool = False

    @property
    def seq(self) -> int:
        return self.events[0].seq


class History(msgspec.Struct):
    """What undo and redo work on: the steps in effect (``steps``), the steps undone that a
    redo may apply again, newest last (``redo``), and the states kept at step boundaries
    (``kept``, shared by the states of one line of play; made when first asked for).
    """

    steps: list[Step] = msgspec.field(default_factory=list)
    redo: list[Step] = msgspec.field(default_factory=list)
    _kept: KeptStates | None = None

    @property
    def kept(self) -> KeptStates:
        kept = self._kept
        if kept is None:
            kept = self._kept = KeptStates()
        return kept

    @kept.setter
    def kept(self, kept: KeptStates) -> None:
        self._kept = kept

    def copy(self) -> History:
        """An independent history with states kept of its own (a copy's steps from now on
        are not the original's); the steps before the last are shared: they never change."""
        steps = self.steps[:]
        if steps:
            last = steps[-1]
            steps[-1] = Step(last.events[:], last.player, last.turn, last.chance)
        return History(steps, self.redo[:])
