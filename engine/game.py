"""The public API of the rules (``from meeple.engine import Game``): one typed object per game.

A ``Game`` holds the events of a game and the state they fold to. Reading it never
changes it; the methods that change it say so (``push``, ``push_text``, ``pop``, ``undo``,
``redo``, ``resolve``: they append events, like python-chess's ``Board.push``); ``copy`` is
cheap and independent. An illegal command raises and leaves the game exactly as it was.
``Game.load`` and ``save`` hand the file work to ``meeple.events.log`` (locks, the hash
chain, fsync); the rules themselves do no I/O.

>>> game = Game.new(["red", "black"], seed="7")
>>> game.phase, game.player, game.drawn
('place', 'red', 'R')
>>> written = game.push(game.legal_moves()[0])
>>> game.phase
'meeple'
>>> written = game.push_text("skip")
>>> game.player, game.phase
('black', 'place')
>>> len(game.copy().events) == len(game.events)
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from meeple.engine.applying import evolve
from meeple.engine.check import Verdict, Visit, verify, verify_after
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, Redo, SkipMeeple, Undo, checked
from meeple.engine.deciding import decide, followers_to_take_back
from meeple.engine.edition import Edition
from meeple.engine.editions import DEFAULT, edition_named, expansion_named
from meeple.engine.errors import InvalidCommand, InvalidGame
from meeple.engine.flow import awaiting, next_event
from meeple.engine.moves import Move, legal_moves
from meeple.engine.playing import play, settle
from meeple.engine.setup import new_game, start
from meeple.engine.stage import Stage, stage_of
from meeple.engine.state import GameState, Waiting
from meeple.events.model import SCHEMA_VERSION, Event, GameStarted, Remote, Spot
from meeple.events.tileset import TileSetDef, decode_tileset, with_expansion

if TYPE_CHECKING:
    from meeple.events.log import GameLog

Phase = Waiting


class Game:
    """A game: its events (``events``), the state they fold to (``state``), and where it is
    kept (``path``, ``head``: the hash of the last line written there), if anywhere."""

    def __init__(self, events: Sequence[Event], state: GameState, *, path: str | None = None,
                 head: str | None = None, hashes: Sequence[str] = (),
                 schema: int = SCHEMA_VERSION, signers: Sequence[int] | None = None) -> None:
        self._events = list(events)
        #: ``events`` as last handed out (events are only ever appended, or given their
        #: ``prev`` when saved, which hands out a new tuple)
        self._frozen: tuple[Event, ...] | None = None
        self._state = state
        self._path = path
        self._head = head
        #: the SHA-256 of each line written, by seq; the events past them are not saved yet
        self._hashes = hashes
        self._saved = len(hashes) if path is not None else 0
        self._schema = schema
        #: a remote game's: the seat that signed each line saved (``meeple.events.signed``)
        self._signers = list(signers) if signers is not None else None

    # -- making and reading ------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], edition: str | None = None, *,
            tileset: TileSetDef | None = None, expansions: Sequence[str] = (),
            names: Sequence[str] | None = None, seed: str | None = None, table: bool = False,
            team: bool = False, unplaceable: str = "discard", undo: str = "turn",
            sealed: bool = False, bots: dict[str, str] | None = None,
            remote: Remote | None = None) -> Game:
        """A new game of ``players`` (colours, in seating order), set up and run to its first
        move (in a digital game, the first draw). The edition's own tile set
        (``Edition.tileset_file``) is used unless ``tileset`` is given (its edition then
        decides); ``expansions`` add tiles.
        A ``sealed`` game records only the seed's SHA-256; the seed stays in this object.
        A ``remote`` game records each seat's key and takes its chance from every seat's hash
        chains (``meeple.engine.joint``); each line is signed when saved.

        :raises InvalidCommand: a bad set-up, naming the rule.
        """
        if isinstance(players, str) or not all(isinstance(p, str) for p in players):
            raise InvalidCommand("players are a list of colours, e.g. [\"red\", \"black\"]")
        if seed is not None and not isinstance(seed, str):
            raise InvalidCommand(f"the seed is a text, not a {type(seed).__name__}")
        if table and seed is not None:
            raise InvalidCommand("a table game has no seed: its players enter draws and dice")
        if tileset is None:
            chosen = edition_named(DEFAULT if edition is None else edition)
            tileset = decode_tileset(chosen.tileset_file())
        elif edition is not None and tileset.edition != edition:
            raise InvalidCommand(f"a tile set of the {tileset.edition} edition, not {edition!r}")
        game_edition = edition_named(tileset.edition)
        if seed is None and not table and remote is None:
            raise InvalidCommand("a digital game's draws and dice come from its seed: pass "
                                 "seed=TEXT (any text; the same seed gives the same game)",
                                 rule=game_edition.rule("chance"))
        for name in dict.fromkeys(expansions):
            extra = decode_tileset(expansion_named(name, game_edition).tileset_file())
            try:
                tileset = with_expansion(tileset, extra)
            except ValueError as exc:
                raise InvalidCommand(str(exc)) from None
        first = new_game(list(players), tileset, names=list(names) if names else None,
                         seed=seed, team=team, table=table, unplaceable=unplaceable, undo=undo,
                         sealed=sealed, bots=bots, remote=remote)
        return cls.begin(first, seed if sealed else None)

    @classmethod
    def begin(cls, first: GameStarted, secret: str | None = None) -> Game:
        """The game a ``game_started`` event sets up (``meeple.engine.setup.new_game``), run
        to its first move; ``secret`` is a sealed game's seed.

        :raises InvalidCommand: a bad set-up, naming the rule.
        """
        state, events = settle(start(first, secret))
        return cls([first, *events], state)

    @classmethod
    def from_events(cls, events: Sequence[Event], secret: str | None = None) -> Game:
        """The game a recorded log holds, every move and consequence checked again
        (``secret``: a sealed game's seed, where its holder loads it).

        :raises InvalidGame: where the log departs from the rules (its line and rule).
        """
        return cls(events, _verified(events, secret))

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, secret: str | None = None,
             visit: Visit | None = None) -> Game:
        """The game recorded at ``path``, read (``meeple.events.log.read``: the hash chain,
        each line's form) and every move checked again; ``save`` appends to it.

        :raises LogError: an unreadable, torn or tampered file (from ``meeple.events``).
        :raises InvalidGame: a log whose moves the rules refuse (its line and rule).
        """
        from meeple.events.log import read

        return cls.from_log(read(path), secret=secret, visit=visit)

    @classmethod
    def from_log(cls, log: GameLog, *, secret: str | None = None,
                 visit: Visit | None = None) -> Game:
        """The game of a log already read (``meeple.events.log.read``), every move checked
        again in one walk, which ``visit`` sees (each event with the state after it; see
        ``meeple.engine.check.verify``); ``save`` appends to its file.

        :raises InvalidGame: a log whose moves the rules refuse (its line and rule).
        """
        return cls(log.events, _verified(log.events, secret, visit, log.signers), path=log.path,
                   head=log.head, hashes=log.hashes, schema=log.schema, signers=log.signers)

    def extended(self, log: GameLog) -> Game:
        """This game with the lines of ``log`` after its own (``log`` holds this game's lines
        and more, as ``meeple.events.log.extend`` reads them), each new move checked from
        this game's state as ``from_log`` checks every one: for a holder that keeps a game
        and checks only what comes. This game is unchanged.

        :raises InvalidGame: a new line the rules refuse (its line and rule).
        :raises ValueError: for a sealed game, whose whole log is checked with the seed it
            reveals at its end (``from_log``).
        """
        if self.setup.seed_sha256 is not None:
            raise ValueError("a sealed game is checked whole, with the seed it reveals")
        new = log.events[len(self._events):]
        verdict = verify_after(self._state, new, signers=log.signers)
        return Game(log.events, _state_of(verdict), path=log.path, head=log.head,
                    hashes=log.hashes, schema=log.schema, signers=log.signers)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, the first being ``game_started`` (those saved or loaded as
        the log holds them, with their ``prev``)."""
        if self._frozen is None or len(self._frozen) != len(self._events):
            self._frozen = tuple(self._events)
        return self._frozen

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
    def path(self) -> str | None:
        """The file the game was loaded from or saved to, if any."""
        return self._path

    @property
    def head(self) -> str | None:
        """The SHA-256 of the last line written to ``path``: the fingerprint of the game as
        saved (None if it never was)."""
        return self._head

    @property
    def hashes(self) -> Sequence[str]:
        """The SHA-256 of each line saved, by seq."""
        return self._hashes

    def kept_at(self, path: str | os.PathLike[str]) -> Game:
        """This game as the file at ``path`` holds it, every line saved there (a remote game's
        lines received and verified, then appended as they are): ``save`` appends to it."""
        return Game(self._events, self._state, path=os.fspath(path), head=self._head,
                    hashes=self._hashes, schema=self._schema, signers=self._signers)

    @property
    def signers(self) -> tuple[int, ...] | None:
        """A remote game's: the seat whose key signed each line saved, by seq; None for a
        local game."""
        return None if self._signers is None else tuple(self._signers)

    @property
    def remote(self) -> Remote | None:
        """A remote game's id, seats' keys and clock; None for a local game."""
        remote = self.setup.remote
        return remote if isinstance(remote, Remote) else None

    @property
    def unsaved(self) -> tuple[Event, ...]:
        """The events played since the game was loaded or last saved."""
        return tuple(self._events[self._saved:])

    @property
    def edition(self) -> Edition:
        return self._state.edition

    @property
    def phase(self) -> Phase | None:
        """What the game waits for: ``place``, ``meeple``, ``draw`` (table mode), ``dice``
        (table mode), ``over``; None while the rules have consequences to write
        (``resolve`` writes them)."""
        return awaiting(self._state)

    @property
    def stage(self) -> Stage:
        """Where the game stands, with what belongs to it (``meeple.engine.stage``): match on
        ``Placing(tile=...)``, ``Deploying(cell=...)``, ``Rolling(dice=...)``, ``Over(winners=...)``
        and the rest."""
        return stage_of(self._state)

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
        """The sides sharing the highest score once the game is over (the edition's rule of winners); empty
        before."""
        return tuple(self._state.winners or ())

    def reserve(self, colour: str) -> dict[str, int]:
        """The figures ``colour`` has left, by kind, e.g. ``{"small": 4, "large": 1}``.

        :raises InvalidCommand: a colour that does not play.
        """
        left = self._state.reserve.get(colour)
        if left is None:
            raise InvalidCommand(f"{colour!r} does not play",
                                 legal="players are " + ", ".join(self._state.players))
        return dict(left)

    def export(self) -> dict:
        """The visible state as plain data (``meeple.engine.snapshot.export``): what
        ``show --json`` prints and ``check --expect`` compares."""
        from meeple.engine.snapshot import export  # (loaded only where a game is exported)

        return export(self._state)

    def legal_moves(self) -> list[Move]:
        """In the placement step, every legal placement with the targets it allows (``push``
        one to place the tile); in the meeple step, the placement made with its legal
        targets; else nothing. Targets and figures are empty when the player has no figure
        left (``meeple.engine.moves``)."""
        return legal_moves(self._state)

    def take_back_options(self) -> list[Spot]:
        """Where the player may take a figure back, where the edition allows it (an
        expansion's festival tile, for example)."""
        return followers_to_take_back(self._state)

    def parse(self, text: str) -> list[Command]:
        """The commands a person's text names here (``b2 route:E``, ``1 0 90``, ``skip``,
        ``undo``; see ``meeple.engine.notation.parse``); plays nothing.

        :raises InvalidCommand, IllegalMove: text that names no legal command now.
        """
        if not isinstance(text, str):
            raise InvalidCommand(f"what a person types is a text, not a {type(text).__name__}")
        from meeple.engine.notation import parse  # (loaded only where text is read)

        return parse(self._state, text)

    # -- changing ----------------------------------------------------------------------

    def push(self, move: Move | Command) -> list[Event]:
        """Play a command, or a ``Move`` from ``legal_moves()`` (it places the tile), and
        everything the rules do after it; returns the events appended. Changes the game.

        :raises InvalidCommand, IllegalMove: the game is left exactly as it was (a value that
            is no command, or a field of the wrong type, is an ``InvalidCommand`` too).
        """
        # (the moves of every turn, checked as ``checked`` checks them, without its call)
        command: Command
        if type(move) is PlaceTile:
            command = move if type(move.x) is int and type(move.y) is int \
                and type(move.rotation) is int else checked(move)
        elif type(move) is SkipMeeple:
            command = move  # (a command with no field: nothing to check)
        elif type(move) is PlaceMeeple:
            command = move if type(move.target) is str and type(move.figure) is str \
                else checked(move)
        elif isinstance(move, Move):
            command = PlaceTile(move.x, move.y, move.rotation)
        else:
            command = checked(move)
        # (``play``, inline: a call for every move cost a game's moves 1% more instructions)
        state = self._state
        if next_event(state) is not None:  # consequences pending: written on a copy first
            state, written = settle(state.continued())
            written += decide(state, command)
        else:
            written = decide(state, command)
        for event in written:
            state = evolve(state, event)
        state, consequences = settle(state)
        written += consequences
        self._state = state
        self._events += written
        return written

    def push_text(self, text: str) -> list[Event]:
        """Play what a person typed (``b2 route:E``: the placement and the meeple), all of it
        or nothing. Changes the game.

        :raises InvalidCommand, IllegalMove: the game is left exactly as it was.
        """
        commands = self.parse(text)
        state = self._state.copy() if len(commands) > 1 else self._state
        written: list[Event] = []
        for command in commands:
            state, events = play(state, command)
            written += events
        self._state = state
        self._events += written
        return written

    def pop(self) -> list[Event]:
        """Take back the last step, as the game's undo policy allows (an ``undone`` event is
        appended: nothing is deleted). Changes the game."""
        return self.undo(1)

    def undo(self, steps: int = 1) -> list[Event]:
        """Take back steps as the game's undo policy allows (appended). Changes the game."""
        return self.push(Undo(steps))

    def redo(self, steps: int = 1) -> list[Event]:
        """Apply again steps just undone (appended). Changes the game."""
        return self.push(Redo(steps))

    def resolve(self) -> list[Event]:
        """Write what the rules owe before anyone moves (a draw, dice, scoring, the end),
        for a log that stops before it; returns the events appended. Changes the game."""
        if next_event(self._state) is None:
            return []
        state, events = settle(self._state.continued())
        self._state = state
        self._events += events
        return events

    def copy(self) -> Game:
        """An independent copy (not tied to the file): playing on either leaves the other as
        it was."""
        return Game(self._events, self._state.copy())

    # -- keeping -----------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str] | None = None, *,
             sign: Callable[[bytes], str] | None = None, seat: int | None = None) -> str | None:
        """Write the game: a new log at ``path`` (never over an existing file), or, for a game
        loaded or saved before, append what was played since after the head it holds (the
        file must not have moved on). Returns the new head. Changes where the game is kept.

        A remote game's lines are signed by ``sign`` (``meeple.events.signing.Signer.sign``)
        for ``seat``, the seat whose key it holds; they are written only if that seat writes
        every one of them (RM-1), so that no other seat would refuse them.

        :raises LogError: the file exists (a new log), has moved on, or cannot be written.
        :raises InvalidGame: a remote game's lines that ``seat`` does not write.
        """
        from meeple.events import log

        if self.remote is not None:
            self._check_signers(sign, seat)
        if path is not None and (self._path is None or os.fspath(path) != self._path):
            written = log.create_log(path, self._events, sign=sign)
            self._path, self._hashes = os.fspath(path), written.hashes
        elif self._path is None:
            raise InvalidCommand("the game has no file yet: save(path) creates one")
        elif self._saved == len(self._events):
            return self._head
        else:
            assert self._head is not None
            written = log.append_log(self._path, self._events[self._saved:], self._head,
                                     lines=self._saved, schema=self._schema, sign=sign)
            self._hashes = [*self._hashes, *written.hashes]
        if self._signers is not None and seat is not None:
            self._signers += [seat] * len(written.events)
        self._events[self._saved:] = written.events
        self._saved, self._head, self._frozen = len(self._events), written.head, None
        return self._head

    def _check_signers(self, sign: Callable[[bytes], str] | None, seat: int | None) -> None:
        """RM-1: a remote game's unsaved lines are all ``seat``'s to write."""
        if sign is None or seat is None:
            raise InvalidCommand("a remote game's lines are signed: save(sign=..., seat=...)")
        saved = 0 if self._path is None else self._saved
        if self._path is None:
            self._signers = []
        assert self._signers is not None
        signers = self._signers[:saved] + [seat] * (len(self._events) - saved)
        _verified(self._events, None, None, signers)

    # -- showing -----------------------------------------------------------------------

    def __str__(self) -> str:
        """The board as plain text (``meeple show --ascii``): the edition's glyphs, the last
        placement marked, a label on each cell where the tile in hand fits. Drawn by the
        CLI's picture modules, which the rules never import."""
        from meeple.cli.pictures.board import render, to_plain

        return to_plain(render(self._state, width=120, unicode=False,
                               highlight=self._state.placed_at))

    def _repr_svg_(self) -> str:
        """The board as SVG (``meeple show --svg``), which a notebook shows."""
        from meeple.cli.pictures.svg import board_svg

        return board_svg(self._state, highlight=self._state.placed_at, note=None)

    def __repr__(self) -> str:
        return (f"<Game {self.edition.name} turn {self.turn}, {self.player} to "
                f"{self.phase or 'resolve'}, {len(self._events)} events>")


def _verified(events: Sequence[Event], secret: str | None,
              visit: Visit | None = None, signers: Sequence[int] | None = None) -> GameState:
    return _state_of(verify(list(events), secret, visit=visit, signers=signers))


def _state_of(verdict: Verdict) -> GameState:
    """The state a verdict reached, or its finding raised as ``InvalidGame``."""
    finding = verdict.finding
    if finding is not None or verdict.state is None:
        assert finding is not None
        raise InvalidGame(finding.message, line=finding.line, rule=finding.rule,
                          legal=finding.expected)
    return verdict.state


__all__ = ["Game", "Phase"]
