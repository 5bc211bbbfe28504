"""The commands that play a game: ``new``, ``continue``, each move (``place``, ``deploy``,
``take-back``, ``skip``, ``draw``, ``roll``), ``undo``, ``redo`` and ``autoplay``.

Each parses its options, calls ``meeple.cli.session`` and reports what was written.
"""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
import re
from typing import Annotated, get_args

import typer

from meeple.cli.guard import guarded
from meeple.cli.output import fail, say
from meeple.cli.params import (
    BOT_HELP,
    COORDS,
    Edition,
    Expansions,
    Fiesta,
    FigureName,
    Game,
    Json,
    MoveTime,
    comma_list,
    expansions,
    parse_colours,
)

commands = typer.Typer()


def _act(path: str, commands: list, as_json: bool, label: str | None = None) -> None:
    """Play commands on a game and report what they wrote (``meeple.cli.session.act``)."""
    from meeple.cli.report import report_move
    from meeple.cli.session import act

    done = act(path, commands, label=label)
    report_move(path, done.state, done.events, done.head, as_json)


@commands.command("continue")
@guarded
def continue_(game: Game, as_json: Json = False) -> None:
    """Write what the rules do next (draws, dice, scoring, the end) up to the next move.

    For a log that stops before the rules' consequences (after `meeple repair`), and for a
    sealed game's seed holder after the other player moved.
    """
    from meeple.cli.report import next_line, report_move
    from meeple.cli.session import resume

    done = resume(game)
    if not done.events:
        say(f"nothing to write: {next_line(done.state)}")
        return
    report_move(game, done.state, done.events, done.head, as_json)


@commands.command()
@guarded
def new(
    game: Game,
    players: Annotated[str, typer.Option(help="Colours in seating order, e.g. red,black.")],
    names: Annotated[str | None, typer.Option(help="Display names, same order.")] = None,
    seed: Annotated[str | None, typer.Option(help="Random seed (default: chosen and "
                                             "recorded).")] = None,
    team: Annotated[bool, typer.Option("--team", help="Team variant (SW-8).")] = False,
    table: Annotated[bool, typer.Option("--table", help="Table mode: players enter draws "
                                        "and dice.")] = False,
    tileset: Annotated[str | None, typer.Option(help="Tile set file (default: the edition's "
                                                "bundled set).")] = None,
    edition: Edition = None,
    fiesta: Fiesta = False,
    expansion: Expansions = None,
    unplaceable: Annotated[str, typer.Option(
        help="discard, or reshuffle in Star Wars (SW-3.2; the classic game discards, CL-3).")] = "discard",
    undo: Annotated[str, typer.Option(help="Undo policy: turn, any or none.")] = "turn",
    sealed: Annotated[bool, typer.Option("--sealed", help="Record only the seed's SHA-256; "
                                         "keep the seed in GAME.seed (mode 0600) until the "
                                         "end reveals it.")] = False,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", help="COLOUR=BOT: a seat a bot plays, recorded in the game (repeatable); "
        "after each move of a person the bots play until a person is to act. COLOUR alone: "
        "the default opponent (lookahead). Engine bots only: random, greedy, lookahead, mcts, mcts:N, "
        "mcts:Xs, greedy-v1, mcts-v1, mcts-learned.", metavar="COLOUR[=BOT]")] = None,
    remote: Annotated[bool, typer.Option("--remote", help="A remote game: each seat signs its "
                                         "lines with its key and draws and dice come from "
                                         "every seat's secret (README, Playing remotely); "
                                         "needs --seat-key for every colour.")] = False,
    seat_key: Annotated[list[str] | None, typer.Option(
        "--seat-key", help="COLOUR=FILE.pub: a seat's OpenSSH Ed25519 public key (repeatable; "
        "remote games).", metavar="COLOUR=FILE")] = None,
    key: Annotated[str, typer.Option(help="Your private key (remote games): it signs your "
                                     "lines and must be one of the seats' keys.",
                                     metavar="FILE")] = "~/.ssh/id_ed25519",
    time_per_move: Annotated[str | None, typer.Option(
        help="Remote games: the time a player has for a move, e.g. 72h, 30m, 2d.",
        metavar="TIME")] = None,
    takeover: Annotated[str | None, typer.Option(
        help="Remote games with a time per move: a seat that lets its time pass is given up "
        "and played on by this bot (greedy or random; the game is then unrated), instead of "
        "losing the game.", metavar="BOT")] = None,
    public: Annotated[bool, typer.Option("--public", help="Remote games: a relay lists the "
                                         "game for anyone to watch (otherwise only those who "
                                         "know its id can).")] = False,
    as_json: Json = False,
) -> None:
    """Start a new game log (never overwrites); in digital mode the first tile is drawn."""
    from meeple.cli.report import report_move
    from meeple.cli.session import parse_seats, start_game
    from meeple.cli.store import game_tileset

    if table and seed is not None:
        fail("--seed and --table exclude each other: in table mode players enter draws and "
             "dice", 2)
    if table and sealed:
        fail("--sealed and --table exclude each other: a table game has no seed", 2)
    if sealed and seed is not None:
        fail("--sealed and --seed exclude each other: a sealed game makes its own 256-bit "
             "seed, so that no one can find it from its SHA-256", 2)
    colours = parse_colours(players)
    remote_setup = None
    if remote:
        from meeple.cli.remote import parse_seat_keys, parse_time

        if table or sealed or seed is not None:
            fail("--remote excludes --table, --sealed and --seed: every seat makes the chance "
                 "of a remote game", 2)
        from meeple.events.model import Takeover

        if takeover is not None and takeover not in get_args(Takeover):
            fail(f"--takeover is a bot anyone replays from the position: "
                 f"{' or '.join(get_args(Takeover))}, not {takeover!r}", 2)
        if takeover is not None and time_per_move is None:
            fail("--takeover needs --time-per-move: a seat is given up when its time passes", 2)
        remote_setup = (key, parse_seat_keys(seat_key or [], colours),
                        parse_time(time_per_move), takeover, public)
    elif seat_key or time_per_move is not None or public or takeover is not None:
        fail("--seat-key, --time-per-move, --takeover and --public go with --remote", 2)
    done = start_game(
        game, colours, game_tileset(edition, tileset, expansions(expansion, fiesta)),
        names=comma_list(names) if names else None, seed=seed, team=team, table=table,
        unplaceable=unplaceable, undo=undo, sealed=sealed,
        bots=parse_seats(bot or [], colours), remote=remote_setup,
    )
    report_move(game, done.state, done.events, done.head, as_json)


@commands.command(context_settings=COORDS)
@guarded
def place(
    game: Game,
    where: Annotated[list[str], typer.Argument(
        help="X Y ROTATION (column growing east, row growing north, 0/90/180/270 degrees "
        "clockwise), or a label from the board: b2 is cell b, rotation 2 (90 degrees).",
        metavar="X Y ROTATION | LABEL", show_default=False)],
    meeple: Annotated[str | None, typer.Option(
        help="Also place a meeple on this target: route:E, asteroid:N, planet, planet@X,Y; "
        "classic: road:E, city:N, cloister, field:Nw.", metavar="TARGET")] = None,
    large: Annotated[bool, typer.Option("--large", help="The meeple is the large one (--figure "
                                        "large).")] = False,
    figure: FigureName = None,
    no_meeple: Annotated[bool, typer.Option("--no-meeple", help="Also skip the meeple "
                                            "step.")] = False,
    as_json: Json = False,
) -> None:
    """Place the drawn tile; with --meeple or --no-meeple also finish the turn."""
    from meeple.engine import PlaceMeeple, PlaceTile, SkipMeeple

    if meeple is not None and no_meeple:
        fail("--meeple and --no-meeple exclude each other", 2)
    if (large or figure is not None) and meeple is None:
        fail(f"{'--large' if large else '--figure'} goes with --meeple TARGET", 2)
    commands: list = []
    label = where[0] if len(where) == 1 else None
    if label is None:
        commands.append(PlaceTile(*_placement(where)))
    if meeple is not None:
        commands.append(PlaceMeeple(meeple, _figure(large, figure)))
    elif no_meeple:
        commands.append(SkipMeeple())
    _act(game, commands, as_json, label=label)


def _placement(where: list[str]) -> tuple[int, int, int]:
    """``place``'s spot as three integers (a label is read by the session, on the game)."""
    if len(where) == 3:
        try:
            x, y, rotation = (int(word) for word in where)
        except ValueError:
            fail(f"X Y ROTATION must be integers, not {' '.join(where)!r}", 2)
        return x, y, rotation
    fail(f"place takes X Y ROTATION or a label from the board such as b2, not "
         f"{' '.join(where)!r}", 2)


@commands.command(context_settings=COORDS)
@guarded
def deploy(
    game: Game,
    target: Annotated[str, typer.Argument(help="route:E, asteroid:N, planet or planet@X,Y; "
                                          "classic: road:E, city:N, cloister, field:Nw.")],
    large: Annotated[bool, typer.Option("--large", help="Use the large meeple (--figure "
                                        "large).")] = False,
    figure: FigureName = None,
    as_json: Json = False,
) -> None:
    """Place a meeple on the tile just placed, or attack a planet around it; ends the turn."""
    from meeple.engine import PlaceMeeple

    _act(game, [PlaceMeeple(target, _figure(large, figure))], as_json)


def _figure(large: bool, figure: str | None) -> str:
    """The figure named by ``--large`` or ``--figure`` (case does not matter)."""
    import re

    if figure is not None and not re.fullmatch(r"[a-z][a-z-]{0,39}", figure.lower()):
        fail("--figure takes the name of a figure, e.g. small or large", 2)
    if large and figure is not None and figure.lower() != "large":
        fail("--large and --figure name two figures", 2)
    return "large" if large else (figure or "").lower()  # "": the edition's everyday figure


@commands.command("take-back", context_settings=COORDS)
@guarded
def take_back(
    game: Game,
    x: Annotated[int, typer.Argument(help="x of the tile the follower stands on.")],
    y: Annotated[int, typer.Argument(help="y of that tile.")],
    target: Annotated[str, typer.Argument(help="Where on it: road:E, city:N, cloister, "
                                          "field:Nw, ...")],
    as_json: Json = False,
) -> None:
    """La Fiesta (CL-7): after placing a festival tile, take one of your followers back."""
    from meeple.engine import TakeBack

    _act(game, [TakeBack(x, y, target)], as_json)


@commands.command()
@guarded
def skip(game: Game, as_json: Json = False) -> None:
    """Place no meeple this turn; ends the turn."""
    from meeple.engine import SkipMeeple

    _act(game, [SkipMeeple()], as_json)


@commands.command()
@guarded
def draw(game: Game, tile: Annotated[str, typer.Argument(help="The tile id drawn (see "
                                                          "`meeple tiles`).")],
         as_json: Json = False) -> None:
    """Table mode: record the tile drawn from the physical pile."""
    from meeple.engine import DrawTile

    _act(game, [DrawTile(tile)], as_json)


@commands.command()
@guarded
def roll(game: Game,
         dice: Annotated[list[str], typer.Argument(help="COLOR=4,6 for each side rolling.",
                                                   metavar="COLOR=N[,N...]...")],
         as_json: Json = False) -> None:
    """Table mode: record the physical dice of the pending battle round."""
    from meeple.engine import RollDice

    rolls: dict[str, tuple[int, ...]] = {}
    for item in dice:
        who, _, values = item.partition("=")
        numbers = values.split(",")
        if not all(re.fullmatch(r"\s*-?[0-9]{1,4000}\s*", n) for n in numbers):
            fail(f"cannot read dice {item!r}: write COLOR=N or COLOR=N,N (e.g. red=4,6)", 2)
        if who.strip().lower() in rolls:
            fail(f"dice for {who.strip()!r} given twice: give each side's dice once", 2)
        rolls[who.strip().lower()] = tuple(int(n) for n in numbers)
    _act(game, [RollDice(rolls)], as_json)


@commands.command()
@guarded
def undo(game: Game, steps: Annotated[int, typer.Option(help="How many steps.")] = 1,
         as_json: Json = False) -> None:
    """Take back steps, as the game's undo policy allows; appended, never deleted."""
    from meeple.engine import Undo

    _act(game, [Undo(steps)], as_json)


@commands.command()
@guarded
def redo(game: Game, steps: Annotated[int, typer.Option(help="How many steps.")] = 1,
         as_json: Json = False) -> None:
    """Apply again steps that were just undone."""
    from meeple.engine import Redo

    _act(game, [Redo(steps)], as_json)


@commands.command()
@guarded
def autoplay(
    game: Game,
    bot: Annotated[str, typer.Option(help=BOT_HELP)] = "random",
    turns: Annotated[int, typer.Option(help="How many turns to play.")] = 1,
    to_end: Annotated[bool, typer.Option("--to-end", help="Play to the end.")] = False,
    move_time: MoveTime = 10.0,
    as_json: Json = False,
) -> None:
    """Let a bot play the current and following turns of a digital game."""
    from meeple.cli.report import report_move
    from meeple.cli.session import autoplay as play_bot
    from meeple.cli.session import check_bot, check_move_time

    check_bot(bot)
    check_move_time(move_time)
    if turns < 1 and not to_end:
        fail(f"--turns must be at least 1; got {turns}", 2)
    done = play_bot(game, bot, None if to_end else turns, move_time)
    report_move(game, done.state, done.events, done.head, as_json)
