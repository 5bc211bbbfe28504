"""The commands about logs and meeple itself: ``check``, ``repair``, ``schema``, ``demo`` and
``bench``."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
import os
from typing import Annotated

import typer

from meeple.cli.bots.cluster import ray_option
from meeple.cli.guard import guarded
from meeple.cli.output import emit_json, fail, say
from meeple.cli.params import Game, Json, Ray, RayAddress, parse_colours

commands = typer.Typer()


@commands.command()
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
    keys: Annotated[str | None, typer.Option(
        help="Remote games: also require each seat's key to be allowed for that seat (its "
        "colour or name) in this OpenSSH allowed_signers file.", metavar="FILE")] = None,
    relay_key: Annotated[str | None, typer.Option(
        help="Remote games: also check the relay's receipts kept beside the log "
        "(GAME.receipts) with the relay's public key.", metavar="FILE")] = None,
    as_json: Json = False,
) -> None:
    """Verify games in full: structure, hash chain, every move legal, every consequence.

    A remote game's signatures are checked too; two copies of one remote game are also
    compared, and where they fork both lines are shown with their signers."""
    from meeple.cli.checking import run_check

    ray_option(ray, ray_address)
    code = run_check(games, expect, as_json, jobs, head=head, failures_only=failures_only)
    if keys is not None or len(games) == 2 or relay_key is not None:
        code = max(code, _remote_checks(games, keys, relay_key))
    raise typer.Exit(code)


def _remote_checks(games: list[str], keys: str | None, relay_key: str | None) -> int:
    """``check --keys``, ``--relay-key`` and the comparison of two copies of one remote
    game."""
    from meeple.cli.output import tell_error
    from meeple.cli.signatures import check_keys, check_receipts, compare_copies, is_remote

    code = 0
    if relay_key is not None:
        for game in games:
            held, faults = check_receipts(game, relay_key)
            for fault in faults:
                tell_error(fault, 1, kind="receipt")
                code = 1
            say(f"{game}: {held} receipt(s) of the relay hold")
    if keys is not None:
        for game in games:
            for fault in check_keys(game, keys):
                tell_error(fault, 1, kind="keys")
                code = 1
    if len(games) == 2 and all(map(is_remote, games)):
        report, found = compare_copies(*games)
        say(report)
        code = max(code, found)
    return code


@commands.command()
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
    if out is not None:
        code = run_demo(out, parse_colours(players), seed)
    else:  # (played in a folder removed at the end, named as the file it would be kept in)
        here = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="meeple-demo-") as folder:
            os.chdir(folder)
            try:
                code = run_demo("demo.jsonl", parse_colours(players), seed, kept=False)
            finally:
                os.chdir(here)
    say(next_steps(out))
    raise typer.Exit(code)


@commands.command()
@guarded
def bench(
    quick: Annotated[bool, typer.Option("--quick", help="Fewer repeats.")] = False,
    against: Annotated[str | None, typer.Option(
        help="A saved `bench --json` report: show each figure as a ratio to it.",
        metavar="OLD.json")] = None,
    as_json: Json = False,
    relay: Annotated[bool, typer.Option(
        "--relay", help="Instead, the relay's load: concurrent games of bots through a "
        "`meeple serve` on 127.0.0.1 (wall-clock append latency).")] = False,
    games: Annotated[int, typer.Option(help="With --relay: concurrent games (--quick: 10).",
                                       min=1, max=1000)] = 200,
    seconds: Annotated[float, typer.Option(help="With --relay: stop after this long.",
                                           min=1.0)] = 60.0,
    pace: Annotated[float, typer.Option(help="With --relay: seconds between one game's "
                                        "messages (0: each at once).", min=0.0,
                                        max=3600.0)] = 5.0,
    workers: Annotated[int, typer.Option(help="With --relay: the relay's processes "
                                         "(`serve --workers`).", min=1, max=64)] = 1,
) -> None:
    """Measure the engine in CPU time: legal moves, apply, copy, playouts, replay, check,
    random games, start-up. With --relay, the relay's load in wall time."""
    import msgspec

    if relay:
        from meeple.cli.relay import load

        report = load.run(min(games, 10) if quick else games, seconds, pace, workers)
        if as_json:
            emit_json(report)
        else:
            say(load.render(report))
        return

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


@commands.command()
@guarded
def repair(game: Game) -> None:
    """Cut off a torn last line (a write cut short by a crash), keeping a backup copy; or give
    back the newline a whole last line lost.

    Never automatic, and it changes nothing else: a log with any other fault is refused.
    """
    from meeple.cli.checking import refuse_unless_valid
    from meeple.events import log as logfile

    result = logfile.repair(game, accept=refuse_unless_valid)
    if result is None:
        say(f"{game}: nothing to repair")
        return
    if result.newline_restored:
        say(f"{game}: line {result.line} was whole but had lost its newline; the newline is "
            f"restored (nothing cut, no backup needed); head now {logfile.short(result.head)}")
        return
    say(f"{game}: cut off the torn line {result.line} ({result.cut} bytes); the file as it was "
        f"is kept in {result.backup}; head now {logfile.short(result.head)}")


@commands.command()
@guarded
def schema() -> None:
    """The JSON Schema of one log line, for other tools to validate logs."""
    from meeple.events.model import line_schema

    emit_json(line_schema())
