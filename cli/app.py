"""The ``meeple`` command line: parse, load, call the engine, render (DESIGN.md, "CLI").

Results go to stdout (text, or one JSON document with ``--json``); messages
and errors to stderr. Exit codes: 0 ok, 1 illegal or invalid command or
invalid game, 2 usage, 3 unreadable or corrupt log, 4 internal error.
Engine modules are imported inside the commands, so a command loads only
what it uses.

The commands live in modules by topic (``meeple.cli.commands.playing``, ``.status``,
``.showing``, ``.tools``, ``.rules``, ``meeple.cli.bots.commands``); this module joins them into
one app in the order ``meeple --help`` lists them (``app``, loaded when first asked for), and runs a command
line, loading the module of the command it names alone. ``play`` is here: each line typed at
its prompt is run as a command line of this app.
"""


# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start, which cost a third of `meeple status`'s start-up.
import copy
import functools
import gc
import os
import sys
from importlib import import_module
from typing import Annotated

import typer

from meeple.cli.guard import guarded
from meeple.cli.output import fail, note, say, wants_json
from meeple.cli.params import BOT_HELP, Game, MoveTime

#: the root: its options and ``play``; the other commands are joined in by ``whole``
_root = typer.Typer(
    name="meeple",
    no_args_is_help=True,
    add_completion=True,
    help="An event-sourced referee for Carcassonne: Star Wars Edition and the classic game "
    "(2011, with farmers and La Fiesta): play, undo, replay and check games kept as "
    "hash-chained JSON-lines logs.",
    pretty_exceptions_enable=False,
)




def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import version

        say(f"meeple {version('meeple')}")
        raise typer.Exit(0)


@_root.callback()
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


@_root.command()
@guarded
def play(
    game: Game,
    bot: Annotated[list[str] | None, typer.Option(
        help="A bot seat for this session, COLOUR=BOT (repeatable), e.g. black=mcts; COLOUR "
        "alone: the default opponent (lookahead); bots: " + BOT_HELP + " Seats recorded at "
        "`new --bot` play as well.", metavar="COLOUR[=BOT]")] = None,
    move_time: MoveTime = 10.0,
    relay: Annotated[str | None, typer.Option(
        help="A remote game played live through this relay (`meeple serve`): your moves go "
        "to it, and the session waits for the others' lines.", metavar="URL")] = None,
    lines: Annotated[bool, typer.Option(
        "--lines", help="Line by line at a terminal too (as from a pipe, with line editing), "
        "instead of one screen.")] = False,
) -> None:
    """Play at the terminal: type moves without the file name; bots take their seats."""
    from meeple.cli.interactive import run_play
    from meeple.cli.session import check_move_time, parse_seats

    check_move_time(move_time)
    raise typer.Exit(run_play(game, parse_seats(bot or []), move_time, run_command, relay,
                              lines))


#: every command, in the order `meeple --help` lists them
ORDER = ("continue", "new", "status", "moves", "place", "deploy", "take-back", "skip", "draw",
         "roll", "undo", "redo", "show", "export", "import", "replay", "score", "check", "join", "send",
         "receive", "signatures", "claim-timeout", "serve", "watch", "autoplay", "play", "arena",
         "simulate", "bot-check", "tiles", "rules", "demo", "bench", "repair", "schema")


#: the module of each command but ``play``, by topic (a command line loads its own alone)
MODULES = {
    "meeple.cli.commands.playing": ("continue", "new", "place", "deploy", "take-back", "skip",
                                    "draw", "roll", "undo", "redo", "autoplay"),
    "meeple.cli.commands.status": ("status",),
    "meeple.cli.commands.showing": ("moves", "show", "export", "replay", "score", "tiles"),
    "meeple.cli.commands.interop": ("import",),
    "meeple.cli.commands.tools": ("check", "demo", "bench", "repair", "schema"),
    "meeple.cli.commands.remote": ("join", "send", "receive", "signatures", "claim-timeout",
                                   "serve", "watch"),
    "meeple.cli.commands.rules": ("rules",),
    "meeple.cli.bots.commands": ("arena", "simulate", "bot-check"),
}
_MODULE_OF = {name: module for module, names in MODULES.items() for name in names}
#: the groups of commands (``meeple key new ...``), listed after the commands, by module
GROUPS = {"key": "meeple.cli.commands.keys"}


def _command(name: str):
    """The registered command ``name`` (typer's ``CommandInfo``), its module loaded."""
    module = _MODULE_OF.get(name)
    infos = (_root.registered_commands if module is None
             else import_module(module).commands.registered_commands)
    return next(info for info in infos if _name_of(info) == name)


@functools.cache
def whole() -> typer.Typer:
    """The whole app: every command in ``ORDER``, then the groups (every module loaded)."""
    _root.registered_commands = [_command(name) for name in ORDER]
    for name, module in GROUPS.items():
        _root.add_typer(import_module(module).commands, name=name)
    return _root


def __getattr__(name: str) -> typer.Typer:
    if name == "app":  # (the whole app, made when first asked for)
        return whole()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point.

    Typer builds its command tree from the signature of every command, a few milliseconds
    at each start. A command line naming a command gets a tree of that command alone, with
    the same root options, so what it prints is the same; anything else (no command, a
    mistyped one, top-level ``--help``) gets the whole tree.
    """
    gc.freeze()  # what the imports made lives as long as the process: collections skip it
    from meeple.events import tilecache

    tilecache.use(tilecache.from_environment())  # compiled tile sets kept between commands
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
            if type(exc).__name__ == "NoArgsIsHelpError":  # `meeple key`: its help was shown
                return 2
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
    """The whole app, or a copy of its root holding only the command ``argv`` names (see
    ``main``), whose module alone is loaded."""
    name = _command_named(argv)
    if name is None or any(key.startswith("_MEEPLE_COMPLETE") for key in os.environ):
        return whole()  # shell completion asks the whole tree
    return _app_named(name)


@functools.cache
def _app_named(name: str) -> typer.Typer:
    """The copy of the root that holds only the command (or group) ``name``: one object per
    name, so that what is built from it (typer's command tree) may be kept."""
    if name in GROUPS:
        app = whole()
        one = copy.copy(app)
        one.registered_commands = []
        one.registered_groups = [info for info in app.registered_groups if info.name == name]
        return one
    one = copy.copy(_root)
    one.registered_commands = [_command(name)]
    one.registered_groups = []
    return one


#: the root options that take a value (see ``_options``)
_VALUED = ("--lock-timeout",)


def _command_named(argv: list[str]) -> str | None:
    """The command a command line names, if it is one of the app's, else None."""
    names = {*ORDER, *GROUPS}
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
