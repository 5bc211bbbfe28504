"""``meeple status``: a game's turn, whose move, phase, reserves, scores and head hash.

It has a module of its own, holding only what it takes (``GAME``, ``--json``): a command line
loads its command's module alone (``meeple.cli.app.MODULES``), and ``status`` is the command
whose start-up is measured against the bare interpreter (docs/performance.md, "Start-up").
"""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
import typer

from meeple.cli.guard import guarded
from meeple.cli.params import Game, Json

commands = typer.Typer()


@commands.command()
@guarded
def status(game: Game, as_json: Json = False) -> None:
    """Turn, whose move, phase, drawn tile, reserves, scores and the head hash."""
    from meeple.cli.report import print_status
    from meeple.cli.session import open_game

    loaded = open_game(game)
    remote = None
    if loaded.remote is not None:
        from meeple.cli.remote import remote_view

        remote = remote_view(loaded)
    print_status(game, loaded.state, loaded.head, as_json, remote)
