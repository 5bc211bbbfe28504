"""Full verification of a recorded game (``meeple check``, DESIGN.md).

Every input is re-decided from the state before it, and every consequence is
recomputed and compared with the recorded one. The first difference is
reported with its ``seq`` (the line is ``seq + 1``), what was expected and
what was found.
"""

from __future__ import annotations

import msgspec

from meeple.engine.commands import (
    Command,
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    RollDice,
    SkipMeeple,
    Undo,
)
from meeple.engine.decide import decide
from meeple.engine.errors import RulesError
from meeple.engine.evolve import evolve, is_input
from meeple.engine.flow import next_event
from meeple.engine.state import GameState, start
from meeple.events.model import (
    DiceRolled,
    Event,
    GameStarted,
    MeeplePlaced,
    MeepleSkipped,
    Redone,
    TileDrawn,
    TilePlaced,
    Undone,
    encode,
)


class Finding(msgspec.Struct):
    """Where a recorded game departs from the rules."""

    seq: int
    message: str
    rule: str | None = None
    expected: str | None = None
    found: str | None = None

    @property
    def line(self) -> int:
        return self.seq + 1


class Verdict(msgspec.Struct):
    """The result of re-verifying a game: the state reached and the first finding, if any."""

    state: GameState | None
    finding: Finding | None
    pending: bool = False


def command_of(event: Event) -> Command | None:
    """The command that a recorded input event answers to."""
    if isinstance(event, TilePlaced):
        return PlaceTile(event.x, event.y, event.rotation)
    if isinstance(event, MeeplePlaced):
        return PlaceMeeple(event.target, event.large)
    if isinstance(event, MeepleSkipped):
        return SkipMeeple()
    if isinstance(event, TileDrawn):
        return DrawTile(event.tile)
    if isinstance(event, DiceRolled):
        return RollDice({r.side: r.values for r in event.rolls})
    if isinstance(event, Undone):
        return Undo(len(event.steps))
    if isinstance(event, Redone):
        return Redo(len(event.steps))
    return None


def _text(event: Event) -> str:
    return encode(msgspec.structs.replace(event, prev=None)).decode()


def _same(a: Event, b: Event) -> bool:
    return msgspec.structs.replace(a, prev=None) == msgspec.structs.replace(b, prev=None)


def verify(events: list[Event]) -> Verdict:
    """Re-run the rules over a structurally sound log (see ``meeple.events.log.read``)."""
    first = events[0]
    assert isinstance(first, GameStarted)
    try:
        state = start(first)
    except RulesError as exc:
        return Verdict(None, Finding(0, f"bad set-up: {exc.message}", exc.rule))
    for event in events[1:]:
        expected = next_event(state)
        if expected is None:
            finding = _check_input(state, event)
        elif not _same(expected, event):
            finding = Finding(event.seq, "the recorded consequence differs from the rules'",
                              _rule_of(expected), _text(expected), _text(event))
        else:
            finding = None
        if finding is not None:
            return Verdict(state, finding)
        state = evolve(state, event)
    return Verdict(state, None, pending=next_event(state) is not None)


def _rule_of(event: Event) -> str | None:
    return getattr(event, "rule", None)


def _check_input(state: GameState, event: Event) -> Finding | None:
    command = command_of(event)
    if command is None or not (is_input(state, event) or isinstance(event, (Undone, Redone))):
        return Finding(event.seq, "the game was waiting for a player's move here, not a "
                       "consequence", None, "an input (placement, meeple, draw, dice or undo)",
                       _text(event))
    try:
        decided = decide(state, command)
    except RulesError as exc:
        return Finding(event.seq, f"illegal: {exc.message}", exc.rule, exc.legal, _text(event))
    if not _same(decided[0], event):
        return Finding(event.seq, "the recorded move differs from what the rules record for it",
                       None, _text(decided[0]), _text(event))
    return None
