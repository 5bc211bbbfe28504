"""The commands that set bots to play many games: ``arena`` and ``simulate``."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
from typing import Annotated

import typer

from meeple.cli.bots.cluster import ray_option
from meeple.cli.guard import guarded
from meeple.cli.output import fail
from meeple.cli.params import (
    BOT_HELP,
    Edition,
    Expansions,
    Fiesta,
    Json,
    MoveTime,
    Ray,
    RayAddress,
    comma_list,
    expansions,
    parse_colours,
)

commands = typer.Typer()


@commands.command()
@guarded
def arena(
    bots: Annotated[str | None, typer.Option(help="Two to five bots, comma-separated (a "
                                            "ladder: up to 16): " + BOT_HELP)] = None,
    games: Annotated[int, typer.Option(help="How many games, rounded up to every seating of "
                                       "each seed.")] = 20,
    seed: Annotated[str, typer.Option(help="Base seed; seed i is SEED-i.")] = "1",
    out: Annotated[str | None, typer.Option(help="Folder for the game logs (default "
                                            "arena-SEED).")] = None,
    sprt: Annotated[str | None, typer.Option(help="Stop when the SPRT on game pairs decides "
                                             "the first bot's score a game: P0,P1, e.g. "
                                             "0.5,0.65 (two bots).")] = None,
    ladder: Annotated[bool, typer.Option("--ladder", help="Every two bots at a table of two, "
                                         "both seatings, rated by Elo.")] = False,
    resume: Annotated[str | None, typer.Option(help="Finish the arena in this folder and "
                                               "tally it from its logs.")] = None,
    move_time: MoveTime = 10.0,
    jobs: Annotated[int, typer.Option(help="Processes to use (0: one per core).")] = 0,
    edition: Edition = None,
    ray: Ray = False,
    ray_address: RayAddress = None,
    as_json: Json = False,
) -> None:
    """Bots against each other: paired games in every seating, every log written, wins with
    95% intervals, Elo ratings."""
    from meeple.cli.bots.arena import resume_arena, run_arena

    ray_option(ray, ray_address)
    if resume is not None:
        if sprt is not None or ladder or out is not None or edition is not None:
            fail("--resume takes the arena's settings from its folder: give it with --jobs, "
                 "--ray, --json and (to run its program bots) --bots only", 2)
        resume_arena(resume, jobs, as_json, None if bots is None else bots.split(","))
        return
    if bots is None:
        fail("arena needs --bots (or --resume FOLDER)", 2)
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
    run_arena(comma_list(bots), games, seed, out or f"arena-{seed}", name,
              game_tileset(edition, None, []), jobs, test, move_time, as_json, ladder)


@commands.command()
@guarded
def simulate(
    out: Annotated[str, typer.Option(help="Folder to write the games to.")],
    players: Annotated[str | None, typer.Option(help="Colours (by default red,black, or the "
                                                "edition's first two where it has no such "
                                                "colours).")] = None,
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
    from meeple.cli.bots.simulating import run_simulate
    from meeple.engine import edition_named

    ray_option(ray, ray_address)
    from meeple.cli.store import game_tileset

    tileset = game_tileset(edition, None, expansions(expansion, fiesta))
    if players is None:  # red and black, as always, where the edition has them
        box = edition_named(tileset.edition).colours
        players = "red,black" if {"red", "black"} <= set(box) else ",".join(box[:2])
    colours = parse_colours(players)
    run_simulate(out, colours, games, seed, bot, team, unplaceable, as_json, jobs, tileset)


@commands.command(name="bot-check")
@guarded
def bot_check(
    bot: Annotated[str, typer.Argument(help="The program to check: cmd:PATH (options as "
                                            "cmd:PATH:NAME=VALUE).")],
    move_time: MoveTime = 10.0,
    as_json: Json = False,
) -> None:
    """Check a bot program against the bot protocol: each check passed or failed, with why."""
    from meeple.cli.bots.conformance import EDITIONS, check_program
    from meeple.cli.output import emit_json, say
    from meeple.cli.session import check_bot, check_move_time
    from meeple.cli.store import game_tileset

    if not bot.startswith("cmd:"):
        fail(f"bot-check checks a bot program, cmd:PATH, not {bot!r}", 2)
    check_bot(bot)
    check_move_time(move_time)
    checks = check_program(bot, move_time,
                           {edition: game_tileset(edition, None, []) for edition in EDITIONS})
    passed = all(check.passed for check in checks)
    if as_json:
        emit_json({"bot": bot, "passed": passed,
                   "checks": [{"name": c.name, "passed": c.passed, "detail": c.detail}
                              for c in checks]})
    else:
        for check in checks:
            say(f"{'pass' if check.passed else 'FAIL'}  {check.name}: {check.detail}")
        say(f"{bot}: {'every check passed' if passed else 'failed'} "
            f"({sum(c.passed for c in checks)} of {len(checks)})")
    if not passed:
        raise typer.Exit(1)
