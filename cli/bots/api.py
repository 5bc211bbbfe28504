"""Bots from Python, as python-chess's ``chess.engine`` opens UCI engines: any bot program
that speaks the bot protocol (``cmd:PATH``, ``docs/bot-protocol.md``) or any of meeple's
own bots (``greedy``, ``mcts:500``, ``mcts:2s``, ...) through one interface, ``Bot``.

``Bot.open(spec)`` gives a bot; ``bot.play(game)`` is its move for a ``meeple.engine.Game``
(a ``Command`` to ``game.push``); ``bot.configure(name=value)`` sets a program's options
(those its ``hello`` declares); ``bot.info`` holds the ``info`` lines it sent for its last
move and ``bot.id`` its name, author and version once it has said them; ``bot.finish(game)``
tells a program the result of a game that ended; ``bot.close()``, or leaving ``with``,
stops it and its whole process group, whatever the way out (an exception, Ctrl-C, the end
of the script: an exit hook stops a bot never closed). This lives beside the CLI, not in
``meeple.engine``: starting processes is no part of the rules.

A program is started at its first move of a game (its ``hello`` names the game's edition,
players and seat) and started again for another game or after ``configure``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.engine import Command, Game, GameState

if TYPE_CHECKING:
    from meeple.cli.bot_messages import Info
    from meeple.cli.external import ExternalBot
    from meeple.events.model import Event

#: what an option's name and value may hold, as a ``cmd:`` spec carries them
#: (``meeple.cli.program_spec``: options are separated by ``:``)
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}", re.ASCII)
_VALUE = re.compile(r"[^:,\x00-\x1f\x7f]{0,200}")


class BotError(Exception):
    """A bot that cannot be opened, configured or asked: its spec is not a bot's, it takes
    no such option, or its program failed (the reason, as the arena reports it)."""


class Bot:
    """One bot, engine or program; see the module. Use ``Bot.open``."""

    def __init__(self, spec: str, move_time: float) -> None:
        self.spec = spec
        self.move_time = move_time
        #: the ``info`` lines the bot sent for its last move (``score``, ``depth``, ``nodes``,
        #: ``line``, ``text``; the text escaped)
        self.info: list[Info] = []
        self._options: dict[str, str] = {}
        self._program: ExternalBot | None = None  # (while a game runs)
        self._engine: Callable[[GameState], Command] | None = None
        self._first: Event | None = None  # the set-up of the game the program plays

    @classmethod
    def open(cls, spec: str, *, move_time: float = 10.0,
             options: dict[str, str] | None = None) -> Bot:
        """A bot from its spec, as ``--bot`` takes it; ``move_time`` is a program's seconds
        a move (an engine bot's budget is in its spec).

        :raises BotError: no such bot, or an option it cannot take.
        """
        from meeple.cli.session import check_bot, check_move_time
        from meeple.cli.store import Failure

        try:
            check_bot(spec)
            check_move_time(move_time)
        except Failure as exc:
            raise BotError(exc.message) from None
        bot = cls(spec, move_time)
        if not spec.startswith("cmd:"):
            from meeple.engine import bot_named

            bot._engine = bot_named(spec, time.process_time)
        if options:
            bot.configure(**options)
        return bot

    @property
    def is_program(self) -> bool:
        return self.spec.startswith("cmd:")

    @property
    def id(self) -> dict[str, str] | None:
        """A version 2 program's name, author and version (from its ``hello``), once it has
        answered; an engine bot's name."""
        if not self.is_program:
            return {"name": self.spec, "author": "meeple", "version": ""}
        hello = getattr(self._program, "hello", None)
        if hello is None:
            return None
        return {"name": hello.name, "author": hello.author, "version": hello.version}

    def configure(self, **options: object) -> None:
        """Set a program's options (sent in its ``hello``; a running program is started
        again at its next move to learn them).

        :raises BotError: an engine bot (its budget is in its spec), or a name or value a
            spec cannot carry.
        """
        if not self.is_program:
            raise BotError(f"{self.spec} takes no options: an engine bot's budget is in its "
                           "spec (e.g. mcts:500, mcts:2s)")
        for name, value in options.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            if not (_NAME.fullmatch(name) and _VALUE.fullmatch(text)):
                raise BotError(f"option {name}={text!r}: a name is a letter then up to 39 "
                               "letters, digits, _ or -; a value holds no ':', ',' or control "
                               "character (at most 200)")
            self._options[name] = text
        self._stop()

    def play(self, game: Game) -> Command:
        """The bot's move for ``game`` (to ``game.push``), where the game waits for a
        placement or a follower.

        :raises BotError: the game waits for no player's move, or the program failed (it is
            then stopped, as it is when anything else, Ctrl-C included, cuts the move short).
        """
        if game.phase not in ("place", "meeple"):
            raise BotError(f"the game waits for no player's move (phase {game.phase})")
        self.info = []
        if self._engine is not None:
            return self._engine(game.state)
        from meeple.cli.external import BotFailure

        if self._program is not None and self._first != game.events[0]:
            self._stop()  # another game: a program plays one game a run
        if self._program is None:
            self._program = self._start()
            self._first = game.events[0]
        try:
            return self._program(game.state)
        except BotFailure as exc:
            self._stop()
            raise BotError(str(exc)) from None
        except BaseException:
            self._stop()  # (an answer to a request cut short must never answer the next)
            raise

    def finish(self, game: Game) -> None:
        """Tell a version 2 program the result of ``game``, over (``over``)."""
        if self._program is not None and self._first == game.events[0]:
            self._program.finish(game.state)

    def _start(self) -> ExternalBot:
        from meeple.cli.external import ExternalBot

        spec = self.spec
        if self._options:
            from meeple.cli.program_spec import split_spec

            written, given = split_spec(spec)
            merged = {**given, **self._options}
            spec = "cmd:" + written + "".join(f":{k}={v}" for k, v in merged.items())
        return ExternalBot(spec, self.move_time, lambda info: self.info.append(info))

    def _stop(self) -> None:
        program, self._program = self._program, None
        if program is not None:
            program.close()

    def close(self) -> None:
        """Stop the program, if one runs, and its whole process group."""
        self._stop()

    def __enter__(self) -> Bot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Bot.open({self.spec!r})"
