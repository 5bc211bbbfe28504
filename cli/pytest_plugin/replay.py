"""For tests of bots and rules built on meeple: a game made in one call (the ``meeple_game``
fixture), and ``assert_replays_same``, which plays a recorded game again from its set-up and
names the first line where today's play departs from the recording (``docs/pytest.md``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from meeple.events.model import (
    Event,
    GameEnded,
    GameStarted,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    TilePlaced,
)
from meeple.events.text import escaped

if TYPE_CHECKING:
    from meeple.engine import Command, Game, GameState

#: the recorded events a bot is asked to choose again: a player's own decisions
DECISIONS = (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack)
#: a new game's seed where the test names none
DEFAULT_SEED = "0"
#: the longest event shown whole in a difference
_SHOWN = 400

Play = Callable[["GameState", "Command"], tuple["GameState", list[Event]]]
Bot = Callable[["GameState"], "Command"]


class GameDiverged(AssertionError):
    """A recorded game that does not play the same again: the line, and both events."""


def make_game(path: str | os.PathLike[str] | None = None, *,
              players: Sequence[str] | None = None, edition: str | None = None,
              seed: str | None = None, **options: Any) -> Game:
    """A recorded game loaded from ``path`` (every move checked: ``Game.load``), or a new one
    of ``players`` (``Game.new``, with ``edition``, ``seed`` and its other ``options``); a
    new digital game's seed is ``"0"`` unless given, so that a test plays the same each run.

    :raises TypeError: both a path and a new game's set-up, or neither.
    """
    from meeple.engine import Game

    if path is not None:
        if players is not None or edition is not None or seed is not None or options:
            raise TypeError("meeple_game takes a path to load, or a new game's players, "
                            "edition, seed and options: not both")
        return Game.load(path)
    if players is None:
        raise TypeError("meeple_game takes a path to load, or players to start a new game")
    if seed is None and not options.get("table") and not options.get("sealed"):
        seed = DEFAULT_SEED
    return Game.new(players, edition, seed=seed, **options)


def assert_replays_same(path: str | os.PathLike[str], bot: str | Bot | None = None, *,
                        play: Play | None = None, secret: str | None = None) -> None:
    """Play the game recorded at ``path`` again from its set-up: each recorded input given
    again (with ``bot``, a spec such as ``greedy`` or a function of the state, the player's
    own decisions are the bot's instead), each consequence as the rules (or ``play``, the
    engine's ``meeple.engine.playing.play`` or a changed one) write it; every event must be
    the recorded one. A sealed game takes the seed its last line reveals, or ``secret``.

    :raises GameDiverged: at the first line that differs (its number, the recorded event and
        the one played), or where the recording cannot be read.
    """
    __tracebackhide__ = True
    from meeple.engine import Game, RulesError, bot_named
    from meeple.engine.check import command_of
    from meeple.engine.playing import play as engine_play
    from meeple.events import log as logfile

    where = escaped(os.fspath(path))
    try:
        recorded = [_bare(event) for event in logfile.read(path).events]
    except logfile.LogError as exc:
        raise GameDiverged(f"{where}: cannot be read: {escaped(str(exc))}") from None
    first = recorded[0]
    assert isinstance(first, GameStarted)
    if secret is None and first.seed_sha256 is not None and isinstance(recorded[-1], GameEnded):
        secret = recorded[-1].seed
    choose = bot_named(bot) if isinstance(bot, str) else bot
    step = play or engine_play
    try:
        game = Game.begin(first, secret)
    except RulesError as exc:
        raise GameDiverged(f"{where}:1: the set-up is refused: {escaped(exc.message)}") from None
    played, state = list(game.events), game.state
    _compare(where, recorded, played, 0)
    while len(played) < len(recorded):
        wanted = recorded[len(played)]
        command = choose(state) if choose is not None and isinstance(wanted, DECISIONS) \
            else command_of(wanted)
        if command is None:
            raise GameDiverged(_differ(where, len(played), wanted, None,
                                       "the replay waits for a player here"))
        try:
            state, events = step(state, command)
        except RulesError as exc:
            rule = f" ({exc.rule})" if exc.rule else ""
            raise GameDiverged(_differ(where, len(played), wanted, None,
                                       f"the rules refuse it: {exc.message}{rule}")) from None
        before = len(played)
        played += [_bare(event) for event in events]
        _compare(where, recorded, played, before)


def _bare(event: Event) -> Event:
    return msgspec.structs.replace(event, prev=None) if event.prev is not None else event


def _compare(where: str, recorded: list[Event], played: list[Event], start: int) -> None:
    """Raise at the first of ``played[start:]`` that is not the recorded event there."""
    for index in range(start, len(played)):
        wanted = recorded[index] if index < len(recorded) else None
        if wanted != played[index]:
            raise GameDiverged(_differ(where, index, wanted, played[index]))


def _differ(where: str, index: int, wanted: Event | None, found: Event | None,
            why: str = "the replay departs from the recording") -> str:
    """The difference at line ``index + 1``, one thing a line: the recorded event, the one
    played, and the fields in which they differ."""
    from meeple.cli.compare import event_differences

    recorded, replayed = _json(wanted), _json(found)
    lines = [f"{where}:{index + 1}: {why}",
             f"    recorded: {_short(recorded) if recorded else 'nothing (the recording ends)'}",
             f"    replayed: {_short(replayed) if replayed else 'nothing'}"]
    for difference in event_differences(replayed, recorded):
        lines.append(f"    {difference['field']}: recorded {_short(_dumped(difference['recorded']))}"
                     f", replayed {_short(_dumped(difference['rules']))}")
    return "\n".join(escaped(line) for line in lines)


def _json(event: Event | None) -> str | None:
    return msgspec.json.encode(event).decode() if event is not None else None


def _dumped(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
