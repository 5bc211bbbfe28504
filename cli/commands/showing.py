"""The commands that show a game without changing it: ``moves``, ``show``, ``export`` (an
HTML replay, a JCloisterZone save, a CarcassonneLab link), ``replay``, ``score``; and ``tiles``,
a tile set. (``status`` has a module of its own, ``meeple.cli.commands.status``.)"""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
from typing import Annotated

import typer

from meeple.cli.guard import guarded
from meeple.cli.params import (
    Edition,
    Expansions,
    Fiesta,
    Game,
    Json,
    ValidPrefix,
    expansions,
    open_game_or_prefix,
)

commands = typer.Typer()


@commands.command()
@guarded
def moves(game: Game, as_json: Json = False) -> None:
    """Every legal placement of the drawn tile with the meeple targets each allows."""
    from meeple.cli.report import print_moves
    from meeple.cli.session import open_game

    print_moves(open_game(game).state, as_json)


@commands.command()
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
    from meeple.cli.report import StateAt, print_board

    kept = StateAt(at, turn)
    loaded = open_game_or_prefix(game, valid_prefix, kept)
    print_board(loaded, kept.of(loaded), plain=ascii_, compact=compact, as_json=as_json, svg=svg)


@commands.command()
@guarded
def export(
    game: Game,
    html: Annotated[str | None, typer.Option(help="Write a self-contained HTML replay of the "
                                             "game to this file (-: stdout).",
                                             metavar="FILE")] = None,
    jcz: Annotated[str | None, typer.Option(help="Write a JCloisterZone save of a classic game "
                                            "to this new file.", metavar="OUT.jcz")] = None,
    carcassonnelab: Annotated[bool, typer.Option(help="Print the CarcassonneLab link of a "
                                                 "2-player classic game.")] = False,
) -> None:
    """The game as one HTML page that replays it offline, as a JCloisterZone save, or as a
    CarcassonneLab link; a save or link is read back and checked to be the same game first."""
    from meeple.cli.store import Failure

    if sum((html is not None, jcz is not None, carcassonnelab)) != 1:
        raise Failure("export takes one of --html FILE, --jcz OUT.jcz, --carcassonnelab", 2)
    if html is None:
        from meeple.cli.interop.exchange import export_jcz, export_link
        from meeple.cli.output import say
        from meeple.cli.session import open_game

        loaded = open_game(game)
        if jcz is not None:
            export_jcz(loaded, jcz)
        else:
            say(export_link(loaded))
        return
    from meeple.cli.pictures.viewer import Frames, PageTooLarge, refuse_too_large
    from meeple.cli.report import export_html
    from meeple.cli.session import open_game
    from meeple.events import log as logfile

    try:  # measured from its lines before any rule is applied to them
        refuse_too_large(logfile.read(game).events)
    except PageTooLarge as exc:
        raise Failure(str(exc), 1) from None
    frames = Frames()  # made as the log is read and checked: one walk
    export_html(open_game(game, visit=frames), html, frames)


@commands.command()
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
    from meeple.cli.report import TurnBoards, print_replay

    boards = TurnBoards(from_, to) if board and not as_json else None
    print_replay(open_game_or_prefix(game, valid_prefix, boards), first=from_, last=to,
                 boards=boards, as_json=as_json, heads=heads)


@commands.command()
@guarded
def score(game: Game, valid_prefix: ValidPrefix = False, as_json: Json = False) -> None:
    """The score table with a per-realm breakdown; after the end, the winners."""
    from meeple.cli.report import print_score

    print_score(open_game_or_prefix(game, valid_prefix).state, as_json)


@commands.command()
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

    print_tiles(game_tileset(edition, tileset, expansions(expansion, fiesta)), as_json, svg=svg)
