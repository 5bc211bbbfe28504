"""The public API of the rules (``from meeple.engine import Game``): one typed object per game.

A ``Game`` holds the events of a game and the state they fold to. Reading it never
changes it; the methods that change it say so (``push``, ``undo``, ``redo``: they append
events, like python-chess's ``Board.push``); ``copy`` is cheap and independent. An
illegal command raises and leaves the game exactly as it was.

>>> from meeple.events.tileset import bundled
>>> game = Game.new(["red", "black"], bundled("star-wars"), seed="7")
>>> game.phase, game.player, game.drawn
('place', 'red', 'R')
>>> move = game.legal_moves()[0]
>>> written = game.push(PlaceTile(move.x, move.y, move.rotation))
>>> game.phase
'meeple'
>>> len(game.copy().events) == len(game.events)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from meeple.engine.check import verify
from meeple.engine.commands import Command, PlaceTile, Redo, Undo, checked
from meeple.engine.deciding import followers_to_take_back
from meeple.engine.edition import Edition
from meeple.engine.errors import InvalidCommand
from meeple.engine.flow import awaiting
from meeple.engine.moves import Move, legal_moves
from meeple.engine.playing import play, settle
from meeple.engine.setup import new_game, start
from meeple.engine.snapshot import export
from meeple.engine.state import GameState
from meeple.events.model import Event, GameStarted, Spot
from meeple.events.tileset import TileSetDef

Phase = Literal["place", "meeple", "draw", "dice", "over"]


class Game:
    """A game: its events (``events``) and the state they fold to (``state``)."""

    def __init__(self, events: Sequence[Event], state: GameState) -> None:
        self._events = list(events)
        self._state = state

    # -- making and reading ------------------------------------------------------------

    @classmethod
    def new(cls, colours: Sequence[str], tileset: TileSetDef, *,
            names: Sequence[str] | None = None, seed: str | None = None, table: bool = False,
            team: bool = False, unplaceable: str = "discard", undo: str = "turn") -> Game:
        """A new game, set up and run to its first move (in a digital game, the first draw).

        The tile set decides the edition: ``meeple.events.tileset.bundled("classic")`` for a
        bundled one (``with_expansion`` adds an expansion's tiles), or a set decoded from a
        file.

        :raises InvalidCommand: a bad set-up, naming the rule.
        """
        first = new_game(list(colours), tileset, names=list(names) if names else None,
                         seed=seed, team=team, table=table, unplaceable=unplaceable, undo=undo)
        state, events = settle(start(first))
        return cls([first, *events], state)

    @classmethod
    def from_events(cls, events: Sequence[Event], secret: str | None = None) -> Game:
        """The game a recorded log holds, every move and consequence checked again.

        :raises InvalidCommand: where the log departs from the rules (its line and rule).
        """
        verdict = verify(list(events), secret)
        if verdict.finding is not None or verdict.state is None:
            finding = verdict.finding
            assert finding is not None
            raise InvalidCommand(f"line {finding.line}: {finding.message}", rule=finding.rule)
        return cls(events, verdict.state)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, the first being ``game_started``."""
        return tuple(self._events)

    @property
    def state(self) -> GameState:
        """The folded state. Treat it as read-only: change the game through its methods."""
        return self._state

    @property
    def setup(self) -> GameStarted:
        first = self._events[0]
        assert isinstance(first, GameStarted)
        return first

    @property
    def edition(self) -> Edition:
        return self._state.edition

    @property
    def phase(self) -> Phase | None:
        """What the game waits for: ``place``, ``meeple``, ``draw`` (table mode), ``dice``
        (table mode), ``over``; None while the rules have consequences to write."""
        return awaiting(self._state)  # type: ignore[return-value]

    @property
    def over(self) -> bool:
        return self._state.phase == "over"

    @property
    def player(self) -> str:
        """The colour whose turn it is."""
        return self._state.player

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def drawn(self) -> str | None:
        """The id of the tile in hand, if any."""
        return self._state.drawn

    @property
    def scores(self) -> dict[str, int]:
        """Points by side (colour, or team in the team variant)."""
        return dict(self._state.scores)

    @property
    def winners(self) -> tuple[str, ...]:
        """The sides sharing the highest score once the game is over (SW-7.3); empty before."""
        return tuple(self._state.winners or ())

    def reserve(self, colour: str) -> dict[str, int]:
        """The figures ``colour`` has left, by kind: ``{"small": 4, "large": 1}`` (SW-1.6, CL-2)."""
        return dict(self._state.reserve[colour])

    def export(self) -> dict:
        """The visible state as plain data (``meeple.engine.export``): what ``show --json``
        prints and ``check --expect`` compares."""
        return export(self._state)

    def legal_moves(self) -> list[Move]:
        """In the placement step, every legal placement with the targets it allows; in the
        meeple step, the placement made with its legal targets; else nothing. Targets and
        figures are empty when the player has no figure left (``meeple.engine.moves``)."""
        return legal_moves(self._state)

    def take_back_options(self) -> list[Spot]:
        """CL-7: where the player may take a follower back, after placing a festival tile."""
        return followers_to_take_back(self._state)

    # -- changing ----------------------------------------------------------------------

    def push(self, command: Command) -> list[Event]:
        """Play a command and everything the rules do after it; returns the events appended.
        Changes the game.

        :raises InvalidCommand, IllegalMove: the game is left exactly as it was (a value that
            is no command, or a field of the wrong type, is an ``InvalidCommand`` too).
        """
        state, events = play(self._state, checked(command))
        self._state = state
        self._events += events
        return events

    def undo(self, steps: int = 1) -> list[Event]:
        """Take back steps as the game's undo policy allows (appended). Changes the game."""
        return self.push(Undo(steps))

    def redo(self, steps: int = 1) -> list[Event]:
        """Apply again steps just undone (appended). Changes the game."""
        return self.push(Redo(steps))

    def copy(self) -> Game:
        """An independent copy: playing on either leaves the other as it was."""
        return Game(self._events, self._state.copy())

    def __repr__(self) -> str:
        return (f"<Game {self.edition.name} turn {self.turn}, {self.player} to "
                f"{self.phase or 'resolve'}, {len(self._events)} events>")


__all__ = ["Game", "Move", "Phase", "PlaceTile"]
