"""The ``meeple`` command line: parse, load, call the engine, render (DESIGN.md, "CLI").

Results go to stdout (text, or one JSON document with ``--json``); messages
and errors to stderr. Exit codes: 0 ok, 1 illegal or invalid command or
invalid game, 2 usage, 3 unreadable or corrupt log, 4 internal error.
Engine modules are imported inside the commands, so a command loads only
what it uses.
"""


# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start, which cost a third of `meeple status`'s start-up.
import copy
import functools
import gc
import os
import re
import sys
from typing import Annotated

import typer

from meeple.cli.output import WRITE_FAULTS, emit_json, fail, note, say, wants_json

app = typer.Typer(
    name="meeple",
    no_args_is_help=True,
    add_completion=True,
    help="An event-sourced referee for Carcassonne: Star Wars Edition and the classic game "
    "(2011, with farmers and La Fiesta): play, undo, replay and check games kept as "
    "hash-chained JSON-lines logs.",
    pretty_exceptions_enable=False,
)

Game = Annotated[str, typer.Argument(help="The game log file (JSON lines).", metavar="GAME")]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
Edition = Annotated[str | None, typer.Option(help="star-wars (default) or classic (the 2011 "
                                             "base game with farmers).")]
Fiesta = Annotated[bool, typer.Option("--fiesta", help="Classic: add the 10 La Fiesta tiles "
                                      "(CL-7); the same as --expansion la-fiesta.")]
Expansions = Annotated[list[str] | None, typer.Option(
    "--expansion", help="Add an expansion's tiles and rules (repeatable): la-fiesta (classic).",
    metavar="NAME")]
COORDS = {"ignore_unknown_options": True}
Ray = Annotated[bool, typer.Option("--ray", help="Spread the games over a Ray cluster (the "
                                   "optional extra meeple[ray]): a local one unless "
                                   "--ray-address names one.")]
RayAddress = Annotated[str | None, typer.Option("--ray-address", help="The Ray cluster to use "
                                                "with --ray, e.g. ray://host:10001.",
                                                metavar="ADDRESS")]
BOT_HELP = ("random, greedy, mcts, mcts:N (N iterations a move), mcts:Xs (X CPU seconds a "
            "move), or cmd:PATH (a bot program, see the README).")
MoveTime = Annotated[float, typer.Option(help="Seconds a cmd:PATH bot may take for one move "
                                         "(above 0, at most 3600).", metavar="SECONDS")]


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import version

        say(f"meeple {version('meeple')}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
    lock_timeout: Annotated[float | None, typer.Option(
        "--lock-timeout", min=0, help="Seconds to wait for a game log another meeple process "
        "holds (default $MEEPLE_LOCK_TIMEOUT, else 10).", metavar="SECONDS")] = None,
) -> None:
    """Options for every command."""
    from meeple.events import log as logfile

    try:
        logfile.configure_locks(timeout=lock_timeout,
                                notify=lambda text: note(f"meeple: {text}"))
        logfile.lock_timeout()
    except ValueError as exc:
        fail(str(exc), 2)


def guarded(fn):
    """Turn every failure into one line on stderr and its exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from meeple.cli import output
        from meeple.cli.store import Failure
        from meeple.engine import RulesError
        from meeple.events.log import REFUSALS, LogError

        as_json = output.errors_as_json
        output.errors_as_json = as_json or bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:
            # the reader stopped early (`meeple replay GAME | head`): end quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            raise typer.Exit(0) from None
        except Failure as exc:
            fail(exc.message, exc.code, rule=exc.rule, legal=exc.legal)
        except OSError as exc:
            if exc.errno not in WRITE_FAULTS:
                raise
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # what is left unwritten is dropped
            fail(f"cannot write the output: {exc.strerror}", 3, kind="write")
        except LogError as exc:
            fail(str(exc), 1 if exc.kind in REFUSALS else 3, kind=f"log_{exc.kind}")
        except RulesError as exc:
            illegal = type(exc).__name__ == "IllegalMove"
            fail(f"{'illegal move' if illegal else 'invalid'}: {exc}", 1,
                 kind="illegal_move" if illegal else "invalid_command", rule=exc.rule,
                 legal=exc.legal)
        except Exception as exc:  # noqa: BLE001 - the last guard before a user's terminal
            if os.environ.get("MEEPLE_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (rerun with MEEPLE_DEBUG=1 "
                 "and report it)", 4, kind="internal")
        finally:
            output.errors_as_json = as_json

    return wrapper


def _act(path: str, commands: list, as_json: bool) -> None:
    """Play commands on a game and report what they wrote (``meeple.cli.session.act``)."""
    from meeple.cli.report import report_move
    from meeple.cli.session import act

    done = act(path, commands)
    report_move(path, done.state, done.events, done.head, as_json)


@app.command("continue")
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


@app.command()
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
        "the default opponent (mcts:500). Engine bots only: random, greedy, mcts, mcts:N, "
        "mcts:Xs.", metavar="COLOUR[=BOT]")] = None,
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
    colours = _colours(players)
    done = start_game(
        game, colours, game_tileset(edition, tileset, _expansions(expansion, fiesta)),
        names=_split(names) if names else None, seed=seed, team=team, table=table,
        unplaceable=unplaceable, undo=undo, sealed=sealed,
        bots=parse_seats(bot or [], colours),
    )
    report_move(game, done.state, done.events, done.head, as_json)


ValidPrefix = Annotated[bool, typer.Option(
    "--valid-prefix", help="For a log with a fault: use the lines before it (and say where it "
    "stops and why) instead of refusing the log.")]


def _open(game: str, valid_prefix: bool):
    """Load a game; with ``valid_prefix``, only the part before its first fault, said on
    stderr."""
    from meeple.cli.session import open_game

    return open_game(game, valid_prefix=valid_prefix, notice=note)


def _expansions(names: list[str] | None, fiesta: bool) -> list[str]:
    """The expansions asked for; ``--fiesta`` stands for ``--expansion la-fiesta``."""
    return list(names or ()) + (["la-fiesta"] if fiesta else [])


def _ray(on: bool, address: str | None) -> None:
    """``--ray`` and ``--ray-address``: the work goes to Ray (``meeple.cli.parallel``)."""
    if address is not None and not on:
        fail("--ray-address goes with --ray", 2)
    if on:
        from meeple.cli.parallel import use_ray

        use_ray(address)


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _colours(text: str) -> list[str]:
    """Colours as typed, in any case (``RED,Black``)."""
    return [colour.lower() for colour in _split(text)]


@app.command()
@guarded
def status(game: Game, as_json: Json = False) -> None:
    """Turn, whose move, phase, drawn tile, reserves, scores and the head hash."""
    from meeple.cli.report import print_status
    from meeple.cli.session import open_game

    loaded = open_game(game)
    print_status(game, loaded.state, loaded.head, as_json)


@app.command()
@guarded
def moves(game: Game, as_json: Json = False) -> None:
    """Every legal placement of the drawn tile with the meeple targets each allows."""
    from meeple.cli.report import print_moves
    from meeple.cli.session import open_game

    print_moves(open_game(game).state, as_json)


@app.command(context_settings=COORDS)
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
    figure: Annotated[str | None, typer.Option(help="Which figure: small (the default) or "
                                               "large.")] = None,
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
    commands: list = [PlaceTile(*_placement(game, where))]
    if meeple is not None:
        commands.append(PlaceMeeple(meeple, _figure(large, figure)))
    elif no_meeple:
        commands.append(SkipMeeple())
    _act(game, commands, as_json)


def _placement(game: str, where: list[str]) -> tuple[int, int, int]:
    """``place``'s spot: three integers, or a label read off the board (``b2``)."""
    if len(where) == 3:
        try:
            x, y, rotation = (int(word) for word in where)
        except ValueError:
            fail(f"X Y ROTATION must be integers, not {' '.join(where)!r}", 2)
        return x, y, rotation
    if len(where) == 1:
        from meeple.cli.labels import parse_placement
        from meeple.cli.session import open_game

        found = parse_placement(open_game(game).state, where[0])
        if found is not None:
            return found
    fail(f"place takes X Y ROTATION or a label from the board such as b2, not "
         f"{' '.join(where)!r}", 2)


@app.command(context_settings=COORDS)
@guarded
def deploy(
    game: Game,
    target: Annotated[str, typer.Argument(help="route:E, asteroid:N, planet or planet@X,Y; "
                                          "classic: road:E, city:N, cloister, field:Nw.")],
    large: Annotated[bool, typer.Option("--large", help="Use the large meeple (--figure "
                                        "large).")] = False,
    figure: Annotated[str | None, typer.Option(help="Which figure: small (the default) or "
                                               "large.")] = None,
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
    return "large" if large else (figure or "small").lower()


@app.command("take-back", context_settings=COORDS)
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


@app.command()
@guarded
def skip(game: Game, as_json: Json = False) -> None:
    """Place no meeple this turn; ends the turn."""
    from meeple.engine import SkipMeeple

    _act(game, [SkipMeeple()], as_json)


@app.command()
@guarded
def draw(game: Game, tile: Annotated[str, typer.Argument(help="The tile id drawn (see "
                                                          "`meeple tiles`).")],
         as_json: Json = False) -> None:
    """Table mode: record the tile drawn from the physical pile."""
    from meeple.engine import DrawTile

    _act(game, [DrawTile(tile)], as_json)


@app.command()
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


@app.command()
@guarded
def undo(game: Game, steps: Annotated[int, typer.Option(help="How many steps.")] = 1,
         as_json: Json = False) -> None:
    """Take back steps, as the game's undo policy allows; appended, never deleted."""
    from meeple.engine import Undo

    _act(game, [Undo(steps)], as_json)


@app.command()
@guarded
def redo(game: Game, steps: Annotated[int, typer.Option(help="How many steps.")] = 1,
         as_json: Json = False) -> None:
    """Apply again steps that were just undone."""
    from meeple.engine import Redo

    _act(game, [Redo(steps)], as_json)


@app.command()
@guarded
def show(
    game: Game,
    at: Annotated[int | None, typer.Option(help="The board after this seq.")] = None,
    turn: Annotated[int | None, typer.Option(help="The board at the end of this turn.")] = None,
    ascii_: Annotated[bool, typer.Option("--ascii", help="Plain ASCII, no colour.")] = False,
    compact: Annotated[bool, typer.Option("--compact", help="3 characters per tile.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The state as JSON: the snapshot "
                                          "format of `check --expect`.")] = False,
    svg: Annotated[str | None, typer.Option(help="Write the board as SVG to this file "
                                            "(-: stdout).", metavar="FILE")] = None,
    valid_prefix: ValidPrefix = False,
) -> None:
    """The board as text (or SVG): edges, realms, symbols and meeples; the last placement marked."""
    from meeple.cli.report import print_board

    loaded = _open(game, valid_prefix)
    print_board(loaded, at=at, turn=turn, plain=ascii_, compact=compact, as_json=as_json, svg=svg)


@app.command()
@guarded
def export(
    game: Game,
    html: Annotated[str, typer.Option(help="Write a self-contained HTML replay of the game to "
                                      "this file (-: stdout).", metavar="FILE")],
) -> None:
    """The game as one HTML page that replays it offline: board, scores, battles, narrative."""
    from meeple.cli.report import export_html
    from meeple.cli.session import open_game

    export_html(open_game(game), html)


@app.command()
@guarded
def replay(
    game: Game,
    from_: Annotated[int | None, typer.Option("--from", help="First seq to tell.")] = None,
    to: Annotated[int | None, typer.Option(help="Last seq to tell.")] = None,
    board: Annotated[bool, typer.Option("--show", help="The board after each turn.")] = False,
    heads: Annotated[bool, typer.Option("--heads", help="The head hash after each turn, to "
                                        "compare with what players wrote down.")] = False,
    valid_prefix: ValidPrefix = False,
    as_json: Json = False,
) -> None:
    """The game told event by event; undone steps are marked."""
    from meeple.cli.report import print_replay

    print_replay(_open(game, valid_prefix), first=from_, last=to, boards=board,
                 as_json=as_json, heads=heads)


@app.command()
@guarded
def score(game: Game, valid_prefix: ValidPrefix = False, as_json: Json = False) -> None:
    """The score table with a per-realm breakdown; after the end, the winners."""
    from meeple.cli.report import print_score

    print_score(_open(game, valid_prefix).state, as_json)


@app.command()
@guarded
def check(
    games: Annotated[list[str], typer.Argument(help="Game logs to verify.", metavar="GAME...")],
    expect: Annotated[str | None, typer.Option(
        help="Compare the final state with this JSON snapshot (from `show --json`); or, given "
        "a folder, each X.jsonl with X.expected.json in that folder.",
        metavar="FILE|FOLDER")] = None,
    failures_only: Annotated[bool, typer.Option(
        "--failures-only", help="Report only the games that fail, and the summary.")] = False,
    jobs: Annotated[int, typer.Option(help="Processes to use (0: one per core).")] = 0,
    head: Annotated[str | None, typer.Option(help="Also tell whether this hash (12 hex digits "
                                             "or more) is the head of the one GAME, or the "
                                             "head after an earlier line.",
                                             metavar="HASH")] = None,
    ray: Ray = False,
    ray_address: RayAddress = None,
    as_json: Json = False,
) -> None:
    """Verify games in full: structure, hash chain, every move legal, every consequence."""
    from meeple.cli.checking import run_check

    _ray(ray, ray_address)
    raise typer.Exit(run_check(games, expect, as_json, jobs, head=head,
                               failures_only=failures_only))


@app.command()
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


@app.command()
@guarded
def play(
    game: Game,
    bot: Annotated[list[str] | None, typer.Option(
        help="A bot seat for this session, COLOUR=BOT (repeatable), e.g. black=mcts; COLOUR "
        "alone: the default opponent (mcts:500); bots: " + BOT_HELP + " Seats recorded at "
        "`new --bot` play as well.", metavar="COLOUR[=BOT]")] = None,
    move_time: MoveTime = 10.0,
) -> None:
    """Play at the terminal: type moves without the file name; bots take their seats."""
    from meeple.cli.interactive import run_play
    from meeple.cli.session import check_move_time, parse_seats

    check_move_time(move_time)
    raise typer.Exit(run_play(game, parse_seats(bot or []), move_time))


@app.command()
@guarded
def arena(
    bots: Annotated[str, typer.Option(help="Two to five bots, comma-separated: " + BOT_HELP)],
    games: Annotated[int, typer.Option(help="How many games, rounded up to every seating of "
                                       "each seed.")] = 20,
    seed: Annotated[str, typer.Option(help="Base seed; seed i is SEED-i.")] = "1",
    out: Annotated[str | None, typer.Option(help="Folder for the game logs (default "
                                            "arena-SEED).")] = None,
    sprt: Annotated[str | None, typer.Option(help="Stop when Wald's test decides: P0,P1, "
                                             "e.g. 0.5,0.65 (two bots).")] = None,
    move_time: MoveTime = 10.0,
    jobs: Annotated[int, typer.Option(help="Processes to use (0: one per core).")] = 0,
    edition: Edition = None,
    ray: Ray = False,
    ray_address: RayAddress = None,
    as_json: Json = False,
) -> None:
    """Bots against each other: paired games, every log written, wins with 95% intervals."""
    from meeple.cli.arena import run_arena

    _ray(ray, ray_address)
    from meeple.cli.store import game_tileset
    from meeple.engine import DEFAULT

    test = None
    if sprt is not None:
        try:
            p0, p1 = (float(v) for v in sprt.split(","))
        except ValueError:
            fail(f"--sprt takes P0,P1 (two win rates, e.g. 0.5,0.65), not {sprt!r}", 2)
        if not 0 < p0 < p1 < 1:
            fail("--sprt needs 0 < P0 < P1 < 1", 2)
        test = (p0, p1)
    name = edition or DEFAULT
    run_arena(_split(bots), games, seed, out or f"arena-{seed}", name,
              game_tileset(edition, None, []), jobs, test, move_time, as_json)


@app.command()
@guarded
def simulate(
    out: Annotated[str, typer.Option(help="Folder to write the games to.")],
    players: Annotated[str, typer.Option(help="Colours, e.g. red,black.")] = "red,black",
    games: Annotated[int, typer.Option(help="How many games.")] = 10,
    seed: Annotated[str, typer.Option(help="Base seed; game i uses SEED-i.")] = "1",
    bot: Annotated[str, typer.Option(help=BOT_HELP)] = "random",
    team: Annotated[bool, typer.Option("--team", help="Team variant.")] = False,
    unplaceable: Annotated[str, typer.Option(
        help="discard, or reshuffle in Star Wars (SW-3.2).")] = "discard",
    jobs: Annotated[int, typer.Option(help="Processes to use (0: one per core).")] = 0,
    edition: Edition = None,
    fiesta: Fiesta = False,
    expansion: Expansions = None,
    ray: Ray = False,
    ray_address: RayAddress = None,
    as_json: Json = False,
) -> None:
    """Write complete bot-played games, one log per game."""
    from meeple.cli.simulating import run_simulate

    _ray(ray, ray_address)
    from meeple.cli.store import game_tileset

    run_simulate(out, _colours(players), games, seed, bot, team, unplaceable, as_json, jobs,
                 game_tileset(edition, None, _expansions(expansion, fiesta)))


@app.command()
@guarded
def tiles(
    tileset: Annotated[str | None, typer.Option(help="A tile set file (default: the edition's "
                                                "bundled set).")] = None,
    edition: Edition = None,
    fiesta: Fiesta = False,
    expansion: Expansions = None,
    as_json: Json = False,
    svg: Annotated[str | None, typer.Option(help="Write the tile sheet as SVG to this file "
                                            "(-: stdout).", metavar="FILE")] = None,
) -> None:
    """The tile set: every tile type drawn with its id and count, and its status."""
    from meeple.cli.report import print_tiles
    from meeple.cli.store import game_tileset

    print_tiles(game_tileset(edition, tileset, _expansions(expansion, fiesta)), as_json, svg=svg)


@app.command()
@guarded
def demo(
    out: Annotated[str | None, typer.Option(help="Keep the game in this file (by default it is "
                                            "played in a temporary folder, removed after).")
                   ] = None,
    seed: Annotated[str, typer.Option(help="Random seed.")] = "2013",
    players: Annotated[str, typer.Option(help="Colours.")] = "red,black,orange",
) -> None:
    """Play a seeded game between search bots, then show its battles, attacks and scoring,
    the board, the score table and the check; and what to try next."""
    import tempfile

    from meeple.cli.demo import next_steps, run_demo

    if out == "":
        fail("--out '': give a file name to keep the game in (or leave --out out)", 2)
    with tempfile.TemporaryDirectory(prefix="meeple-demo-") as folder:
        code = run_demo(out or os.path.join(folder, "demo.jsonl"), _colours(players), seed)
    say(next_steps(out))
    raise typer.Exit(code)


@app.command()
@guarded
def bench(
    quick: Annotated[bool, typer.Option("--quick", help="Fewer repeats.")] = False,
    against: Annotated[str | None, typer.Option(
        help="A saved `bench --json` report: show each figure as a ratio to it.",
        metavar="OLD.json")] = None,
    as_json: Json = False,
) -> None:
    """Measure the engine in CPU time: legal moves, apply, copy, playouts, replay, check,
    random games, start-up."""
    import msgspec

    from meeple.cli import bench as benchmarks
    from meeple.cli.store import Failure
    from meeple.events.files import NotReadable, read_regular

    old = None
    if against is not None:
        try:
            old = msgspec.json.decode(read_regular(against, 1 << 20))
        except (NotReadable, msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise Failure(f"{against}: cannot read a saved bench report: {exc}", 2) from None
        if not isinstance(old, dict) or not isinstance(old.get("results"), dict):
            raise Failure(f"{against}: not a `meeple bench --json` report", 2)
    report = benchmarks.run(quick)
    ratios = benchmarks.against(report, old) if old is not None else None
    if as_json:
        emit_json({**report, "against": ratios} if ratios is not None else report)
    else:
        say(benchmarks.render(report, ratios))


@app.command()
@guarded
def repair(game: Game) -> None:
    """Cut off a torn last line (a write cut short by a crash), keeping a backup copy; or give
    back the newline a whole last line lost.

    Never automatic, and it changes nothing else: a log with any other fault is refused.
    """
    from meeple.events import log as logfile

    result = logfile.repair(game)
    if result is None:
        say(f"{game}: nothing to repair")
        return
    if result.newline_restored:
        say(f"{game}: line {result.line} was whole but had lost its newline; the newline is "
            f"restored (nothing cut, no backup needed); head now {logfile.short(result.head)}")
        return
    say(f"{game}: cut off the torn line {result.line} ({result.cut} bytes); the file as it was "
        f"is kept in {result.backup}; head now {logfile.short(result.head)}")


@app.command()
@guarded
def schema() -> None:
    """The JSON Schema of one log line, for other tools to validate logs."""
    from meeple.events.model import line_schema

    emit_json(line_schema())


def main() -> None:
    """Console-script entry point.

    Typer builds its command tree from the signature of every command, a few milliseconds
    at each start. A command line naming a command gets a tree of that command alone, with
    the same root options, so what it prints is the same; anything else (no command, a
    mistyped one, top-level ``--help``) gets the whole tree.
    """
    gc.freeze()  # what the imports made lives as long as the process: collections skip it
    argv = sys.argv[1:]
    # A usage error is one line too, or under --json one JSON object (see ``output.fail``).
    from meeple.cli import output

    output.errors_as_json = wants_json(argv)
    sys.exit(output.written(lambda: _main(argv)))


def _main(argv: list[str]) -> int:
    """``main`` up to its exit code (``output.written`` then writes what stdout holds)."""
    from meeple.cli import output

    if not argv:  # the whole help, as typer shows it (exit 2)
        try:
            app_for(argv)(prog_name="meeple")
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 0
        return 0
    code = run_command(argv)
    if code == 130 and not output.error_said:
        output.tell_error("interrupted (Ctrl-C)", 130, kind="interrupted")
    return code


def run_command(argv: list[str]) -> int:
    """Run one command line in this process (``main``, and each line of ``play``); returns
    its exit code. A usage error is said in one line, naming the help to read."""
    # click's exceptions as typer raises them (its own copy of click in some versions)
    usage_error: type[Exception] = next(
        c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        try:
            code = app_for(argv)(argv, prog_name="meeple", standalone_mode=False)
        except usage_error as exc:
            message = getattr(exc, "format_message", exc.__str__)()
            context = getattr(exc, "ctx", None)
            if context is not None:
                message += f" (see `{context.command_path} --help`)"
            fail(message, getattr(exc, "exit_code", 2), kind="usage")
        except typer.Abort:
            fail("aborted", 1, kind="aborted")
    except typer.Exit as exc:
        code = exc.exit_code
    return code if isinstance(code, int) else 0


def app_for(argv: list[str]) -> typer.Typer:
    """``app``, or a copy of it holding only the command ``argv`` names (see ``main``)."""
    name = _command_named(argv)
    if name is None or any(key.startswith("_MEEPLE_COMPLETE") for key in os.environ):
        return app  # shell completion asks the whole tree
    one = copy.copy(app)
    one.registered_commands = [info for info in app.registered_commands
                               if _name_of(info) == name]
    return one


#: the root options that take a value (see ``_options``)
_VALUED = ("--lock-timeout",)


def _command_named(argv: list[str]) -> str | None:
    """The command a command line names, if it is one of ``app``'s, else None."""
    names = {_name_of(info) for info in app.registered_commands}
    at = 0
    while at < len(argv) and argv[at].startswith("-"):
        if argv[at] in ("--help", "--version"):
            return None
        at += 2 if argv[at] in _VALUED else 1
    if at < len(argv) and argv[at] in names:
        return argv[at]
    return None


def _name_of(info) -> str:
    """A registered command's name, as typer derives it."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


if __name__ == "__main__":
    main()
