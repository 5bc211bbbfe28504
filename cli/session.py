"""The session layer between the commands and the engine: open a game (read, verify), act
on it (play commands, append what they cause), continue it, start one.

A command in ``meeple.cli.app`` parses its options, calls one function here and reports
the ``Outcome``; reading and writing the log is ``meeple.cli.store``'s, the rules are the
engine's. Nothing here prints.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

import msgspec

from meeple.cli.store import Failure, create_sealed, load, load_valid_prefix
from meeple.cli.views import seated_bots
from meeple.engine import (
    Command,
    Game,
    GameState,
    Redo,
    Undo,
    awaiting_seed,
    new_game,
    sees_only_the_table,
)
from meeple.engine.check import Visit
from meeple.events import log as logfile
from meeple.events.model import MAX_NAME, DiceRolled, Event, TileDrawn, TileSetAside
from meeple.events.text import escaped
from meeple.events.tileset import TileSetDef

if TYPE_CHECKING:
    from meeple.cli.bot_messages import Info


class Outcome(msgspec.Struct):
    """What a command did: the game's state after it, the events it appended (as they stand
    in the log, ``prev`` included) and the log's new head."""

    path: str
    state: GameState
    events: list[Event]
    head: str | None


def open_game(path: str, *, valid_prefix: bool = False,
              notice: Callable[[str], None] | None = None, visit: Visit | None = None) -> Game:
    """A game read, verified and folded in one walk, which ``visit`` sees. With
    ``valid_prefix``, a log with a fault gives the part before it, and ``notice`` is told
    where it stops and why."""
    if not valid_prefix:
        return load(path, visit)
    loaded, why = load_valid_prefix(path, visit)
    if why is not None and notice is not None:
        notice(f"meeple: {path}: showing lines 1 to {len(loaded.events)} only, the valid "
               f"prefix; the log stops being trustworthy at {why}")
    return loaded


def _outcome(game: Game, head: str | None, count: int) -> Outcome:
    """What a command did: the last ``count`` events, as saved."""
    assert game.path is not None
    return Outcome(game.path, game.state, list(game.events[len(game.events) - count:]), head)


#: whether ``act`` leaves the recorded bot seats to play later: ``play``'s screen shows the
#: person's move first, then lets them play (``meeple continue``)
seats_later = False


def act(path: str, commands: Sequence[Command], *, label: str | None = None) -> Outcome:
    """Play ``commands`` on the game at ``path`` and append what they cause; then the bots of
    the game's bot seats (``seated_bots``) play until a person is to act, unless the commands
    were an undo or a redo (a bot would play again at once what was undone). ``label`` is a
    placement read off the board (``b2``), played first: it is read on the game as loaded, so
    the log is read and verified once.

    A move is never played on chance nobody has seen: if the log stops before a draw or a
    roll the rules owe (after `meeple repair`, or a sealed game handed back to its seed's
    holder), the move is refused and `meeple continue` writes those first.

    :raises Failure, RulesError, LogError: nothing is written then.
    """
    game = load(path)
    if game.remote is not None:  # signed lines, this player's seat only
        from meeple.cli import remote

        if label is not None:
            commands = [_labelled(game, label), *commands]
        count = remote.act(game, commands)
        return _outcome(game, game.head, count)
    pending = game.resolve()
    if label is not None:
        commands = [_labelled(game, label), *commands]
    if any(isinstance(e, TileDrawn | DiceRolled | TileSetAside) for e in pending) \
            and not isinstance(commands[0], Undo | Redo):
        raise Failure("the rules have a draw or a roll to write before anyone moves (the log "
                      f"stops before it); run `meeple continue {path}` to write it, then look "
                      "and move", 1)
    for command in commands:
        game.push(command)
    if not isinstance(commands[-1], Undo | Redo) and not seats_later:
        _seats_play(game)
    count = len(game.unsaved)
    return _outcome(game, game.save(), count)


def _labelled(game: Game, label: str) -> Command:
    """The placement a label names in ``game`` (``meeple.engine.notation``).

    :raises Failure: (2) text that is not shaped like a label; ``RulesError`` for a label
        that names no legal spot now.
    """
    from meeple.engine import PlaceTile
    from meeple.engine.notation import parse_placement

    found = parse_placement(game.state, label)
    if found is None:
        raise Failure(f"place takes X Y ROTATION or a label from the board such as b2, not "
                      f"{escaped(label)!r}", 2)
    return PlaceTile(*found)


def _save_interrupted(game: Game) -> NoReturn:
    """Ctrl-C while the bot seats played: what was played stands, written; then exit 130."""
    head = game.save()
    raise Failure(f"interrupted while the bot seats played: every move before is written "
                  f"(head {logfile.short(head)}); `meeple continue {game.path}` lets the bots "
                  "play on", 130)


def _seats_play(game: Game, *, every_seat: str = "refuse") -> None:
    """The recorded bot seats play up to the next person's move (none if a person is to
    act); Ctrl-C saves what they played and exits 130. A log with a bot in every seat is
    refused (``every_seat`` ``refuse``: a log from elsewhere), or its seats ``play`` (a game
    this command just set up so, the demo's), or are ``leave``-n to the bot that ``autoplay``
    was asked to play with.

    :raises Failure: a recorded bot this meeple does not have.
    """
    seats = seated_bots(game.state)
    if not seats or game.phase not in ("place", "meeple") or game.player not in seats:
        return
    if set(seats) >= set(game.state.players) and every_seat != "play":
        if every_seat == "leave":
            return
        # (read as `new` reads its options: a game needs a person, or the seats play on
        # for as long as their recorded budgets say, unasked)
        raise Failure(f"{game.path}: the log records a bot in every seat ("
                      + ", ".join(f"{c} {escaped(s)}" for c, s in seats.items())
                      + "): `new` refuses such a game, for no person plays it; to let bots "
                      "play it, `meeple autoplay GAME --to-end`", 3)
    import time

    from meeple.engine import bot_named

    if every_seat != "play":  # (a game just set up has the seats `new` checked)
        from meeple.cli.seat_ceiling import check_recorded_seats

        check_recorded_seats(game.path, seats)
    # the seats were read and checked with the set-up (``meeple.engine.read_spec``)
    bots = {colour: _announced(colour, spec, bot_named(spec, time.process_time))
            for colour, spec in seats.items()}
    try:
        bot_turns(game, bots, None)
    except KeyboardInterrupt:
        if game.path is None:
            raise
        _save_interrupted(game)


#: a recorded seat's budget a move past which it is announced before it plays: seconds, or
#: iterations (a few seconds of search)
LONG_SECONDS, LONG_ITERATIONS = 10.0, 20_000


def _announced(colour: str, spec: str, choose: Callable[[GameState], Command]
               ) -> Callable[[GameState], Command]:
    """``choose``, saying on stderr before its first move here when the seat may think long:
    a log received from someone else chooses its budget, and a wait with nothing said looks
    like a hang."""
    from meeple.cli.output import note
    from meeple.engine import read_spec

    _, iterations, seconds = read_spec(spec)
    if (seconds or 0) <= LONG_SECONDS and (iterations or 0) <= LONG_ITERATIONS:
        return choose
    budget = f"{seconds:g} s" if seconds else f"{iterations:,} iterations"
    said = False

    def announcing(state: GameState) -> Command:
        nonlocal said
        if not said:
            note(f"{colour}'s bot seat ({spec}, recorded in the game) may think up to "
                 f"{budget} a move; Ctrl-C stops it and keeps every move before")
            said = True
        return choose(state)

    return announcing


def check_seat(spec: str, what: str, code: int, *, table: bool = False,
               sealed: bool = False) -> None:
    """A bot that may take a seat recorded in the log: an engine bot (a log names no program
    to run), and in table mode or a sealed game one that plays from what a player sees.

    :raises Failure: with ``code`` otherwise.
    """
    if spec.startswith("cmd:"):
        raise Failure(f"{what}: a bot program cannot be recorded in the game (a log that "
                      "names a program would run it on whoever plays on): give it to `meeple "
                      "play --bot` or `autoplay --bot` instead", code)
    check_bot(spec, code)
    from meeple.cli.seat_ceiling import check_new_seat

    check_new_seat(spec, what)
    if (table or sealed) and not sees_only_the_table(spec):
        raise Failure(f"{what}: {spec} takes its choices from the game's seed, which a "
                      f"{'table' if table else 'sealed'} game does not give it; use lookahead or mcts", code)


def parse_seats(specs: Sequence[str], colours: Sequence[str] | None = None) -> dict[str, str]:
    """``COLOUR=BOT`` options as {colour: bot spec}; a colour alone takes the default
    opponent, ``DEFAULT_OPPONENT``. With ``colours``, each must be one of them.

    :raises Failure: (2) a malformed option, a bot that is none, a colour that does not play,
        a bot in every seat of ``colours`` (a game needs a person).
    """
    found: dict[str, str] = {}
    for spec in specs:
        colour, equals, bot = spec.partition("=")
        colour, bot = colour.strip().lower(), bot.strip() if equals else DEFAULT_OPPONENT
        if not colour or not bot:
            raise Failure(f"--bot takes COLOUR=BOT (e.g. black=mcts) or COLOUR, not {spec!r}", 2)
        if colours is not None and colour not in colours:
            raise Failure(f"--bot {spec}: {colour} does not play; players are "
                          + ", ".join(colours), 2)
        check_bot(bot)
        found[colour] = bot
    if colours is not None and found and set(found) == set(colours):
        raise Failure("--bot seats every player: a game needs a person to play it (for games "
                      "between bots, `meeple simulate` or `meeple arena`)", 2)
    return found


#: the bot a seat gets when ``--bot COLOUR`` names none, and ``hint``'s: ``lookahead``, two
#: turns ahead, which beats ``greedy`` at least as often as ``mcts`` at 1,200 iterations (the
#: old default, ``mcts:500``, is a smaller budget of that search), at less CPU a turn
#: (docs/bots.md)
DEFAULT_OPPONENT = "lookahead"


def resume(path: str) -> Outcome:
    """Write what the rules do next (draws, dice, scoring, the end) up to the next move, and
    the moves of the bot seats up to a person's; ``events`` is empty when there is nothing
    to write.

    :raises Failure: when only a sealed game's seed holder can write what comes next.
    """
    game = load(path)
    if game.remote is not None:  # what this seat owes now, and its bot's moves, signed
        from meeple.cli.remote import player_of

        player = player_of(game)
        player.owe(game)
        player.bot_plays(game)
        count = len(game.unsaved)
        return _outcome(game, player.save(game) if count else game.head, count)
    game.resolve()
    _seats_play(game)
    count = len(game.unsaved)
    if not count and awaiting_seed(game.state):
        raise Failure("what comes next (a draw, a roll or the end) needs this sealed game's "
                      f"seed: only its holder, where {path}.seed is, can continue", 1)
    return _outcome(game, game.save() if count else game.head, count)


def check_bot(spec: str, code: int = 2) -> None:
    """A ``--bot`` spec that names a bot: an engine bot (``meeple.engine.bot_named``) or
    ``cmd:PATH``, a program speaking the bot protocol (``meeple.cli.external``).

    :raises Failure: (``code``; 2, a usage error, by default) otherwise, with the bots there
        are.
    """
    import time

    from meeple.engine import BOT_SYNTAX, RulesError, bot_named

    if spec.startswith("cmd:"):
        from meeple.cli.program_spec import ProgramError, program_of

        try:
            program_of(spec)
        except ProgramError as exc:
            raise Failure(f"--bot {escaped(spec)}: {exc}; cmd:PATH runs a bot program (see "
                          "docs/bot-protocol.md)", 2) from None
        return
    try:
        bot_named(spec, time.process_time)
    except RulesError as exc:
        raise Failure(f"--bot: {exc.message}; {exc.legal or BOT_SYNTAX}, cmd:PATH",
                      code) from None


def check_move_time(seconds: float) -> None:
    """``--move-time``: a finite number of seconds above 0.

    :raises Failure: (2) otherwise.
    """
    if not math.isfinite(seconds) or not 0 < seconds <= 3600:
        raise Failure(f"--move-time must be a number of seconds above 0 and at most 3600, "
                      f"not {seconds}", 2)


def bot_label(spec: str) -> str:
    """How a bot is named as a player: its spec, a program by its file name; at most
    ``MAX_NAME`` characters."""
    if spec.startswith("cmd:"):
        from meeple.cli.program_spec import split_spec

        return f"cmd:{os.path.basename(split_spec(spec)[0])}"[:MAX_NAME]
    label = spec
    return label[:MAX_NAME]


def make_bot(spec: str, move_time: float | None = None,
             on_info: Callable[[Info], None] | None = None):
    """A bot to play with, as a context that stops it afterwards: an engine bot, or an
    ``ExternalBot`` for ``cmd:PATH`` (``move_time``: its seconds a move; ``on_info``: given
    each ``info`` line it sends)."""
    import contextlib
    import time

    from meeple.engine import bot_named

    if spec.startswith("cmd:"):
        from meeple.cli.external import DEFAULT_MOVE_TIME, ExternalBot

        return ExternalBot(spec, move_time or DEFAULT_MOVE_TIME, on_info)
    return contextlib.nullcontext(bot_named(spec, time.process_time))


def bot_turns(game: Game, seats: dict, default, turns: int | None = None):
    """Let bots play ``turns`` turns (None: to the end): the bot in ``seats`` for a colour
    there, else ``default`` (None: stop at a colour no bot plays). Changes the game; returns
    the ``BotFailure`` that stopped it, if one did (the moves before it stand). Ctrl-C stops
    it with every move before played.
    """
    from meeple.cli.external import BotFailure

    game.resolve()
    last = None if turns is None else game.turn + turns
    try:
        # a table or a sealed game may wait for a draw or a roll: the bots stop there
        while game.phase in ("place", "meeple") and (last is None or game.turn < last):
            choose = seats.get(game.player, default)
            if choose is None:
                break
            game.push(choose(game.state))
    except BotFailure as exc:
        return exc
    return None


def _show_info(info: Info) -> None:
    """An ``info`` line of a bot program, dim on stderr (escaped already)."""
    import typer

    from meeple.cli.bot_messages import said

    typer.secho(f"  bot: {said(info)}", dim=True, err=True)


def autoplay(path: str, bot: str, turns: int | None, move_time: float | None = None) -> Outcome:
    """Let a bot play ``turns`` turns (None: to the end) of the digital game at ``path``.

    A bot program that fails stops the game where it failed: every move before stays
    written, and the failure is raised (``Failure``, exit 1) with its reason.
    """
    from meeple.engine import check_can_play

    game = load(path)
    if not sees_only_the_table(bot):
        check_can_play(game.state)
    count = 0
    try:
        with make_bot(bot, move_time, _show_info) as choose:
            failure = bot_turns(game, {}, choose, turns)
            if failure is None and hasattr(choose, "finish"):
                choose.finish(game.state)
            # written before the bot is closed: its grace to exit may be cut short
            count = len(game.unsaved)
            if count:
                game.save()
    except KeyboardInterrupt:
        game.save()  # the moves made before Ctrl-C stand
        raise
    if failure is None:  # then the recorded bot seats, up to a person's turn
        _seats_play(game, every_seat="leave")
    count += len(game.unsaved)
    head = game.save() if game.unsaved else game.head
    if failure is not None:
        raise Failure(f"{failure}; the game stops there: every move before it is written "
                      f"(head {logfile.short(head)})", 1)
    return _outcome(game, head, count)


def start_game(path: str, colours: list[str], tileset: TileSetDef, *,
               names: list[str] | None = None, seed: str | None = None, team: bool = False,
               table: bool = False, unplaceable: str = "discard", undo: str = "turn",
               sealed: bool = False, bots: dict[str, str] | None = None,
               remote: tuple[str, list[str], int | None, str | None, bool] | None = None
               ) -> Outcome:
    """Create the log of a new game (never over another) and write its opening: in digital
    mode the first draw. Without a seed a digital game gets a random one (256 bits when
    sealed; then the seed goes to ``PATH.seed`` and the log records only its SHA-256).
    ``bots`` are the seats bots play, recorded in the log; if the first seat is one, the
    bots play up to the first person's turn."""
    for colour, spec in (bots or {}).items():
        check_seat(spec, f"--bot {colour}={spec}", 2, table=table, sealed=sealed)
    if os.path.isdir(path):
        raise Failure(f"{path} is a directory; give a file name for the game", 1)
    if os.path.lexists(path):  # refused before any bot seat plays, not after
        raise logfile.LogError("exists", path, "already exists; a game log is never overwritten")
    if remote is not None:
        for colour, spec in (bots or {}).items():  # (a remote game has no seed to give them)
            check_seat(spec, f"--bot {colour}={spec}", 2, sealed=True)
        return _start_remote(path, colours, tileset, names=names, team=team,
                             unplaceable=unplaceable, undo=undo, remote=remote, bots=bots)
    import secrets

    chosen = None if table else (seed if seed is not None else secrets.token_hex(32 if sealed
                                                                                else 8))
    first = new_game(colours, tileset, names=names, seed=chosen, team=team, table=table,
                     unplaceable=unplaceable, undo=undo, sealed=sealed, bots=bots)
    game = Game.begin(first, chosen if sealed else None)
    _seats_play(game, every_seat="play")
    if not sealed:
        head = game.save(path)
        return Outcome(path, game.state, list(game.events), head)
    assert chosen is not None
    head = create_sealed(path, list(game.events), chosen)
    return Outcome(path, game.state, logfile.chained(game.events, None), head)


def _start_remote(path: str, colours: list[str], tileset: TileSetDef, *,
                  names: list[str] | None, team: bool, unplaceable: str, undo: str,
                  remote: tuple[str, list[str], int | None, str | None, bool],
                  bots: dict[str, str] | None) -> Outcome:
    """A remote game: ``remote`` is the writer's private key, each seat's public key (in
    seat order), the time per move, the bot that plays a seat given up (None: a timeout
    claim ends the game) and whether a relay lists the
    game for anyone to watch; ``bots`` the seats a bot
    plays, each run by the player who holds that seat's key, and signed with it."""
    from meeple.cli import remote as seats

    key, keys, time_per_move, takeover, public = remote
    signer = seats.load_signer(key)
    host = seats.seat_of_key_text(keys, signer.public.openssh)
    tiles = sum(t.count for t in tileset.tiles)
    first = new_game(colours, tileset, names=names, team=team, unplaceable=unplaceable,
                     undo=undo, bots=bots, remote=seats.new_remote(keys, host, tiles,
                                                                   time_per_move, takeover,
                                                                   public))
    game = seats.start(path, first, key)
    return Outcome(path, game.state, list(game.events), game.head)
