"""What the commands share: the arguments and options several take (their help written once),
and the helpers that read them."""

from typing import TYPE_CHECKING, Annotated

import typer

from meeple.cli.output import note
from meeple.events.lazy import lazy_names

if TYPE_CHECKING:  # (re-exported: see ``_LAZY``)
    from meeple.cli.options import (
        Edition,
        Expansions,
        Fiesta,
        FigureName,
        Ray,
        RayAddress,
        ValidPrefix,
    )

Game = Annotated[str, typer.Argument(help="The game log file (JSON lines).", metavar="GAME")]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
BOT_HELP = ("random, greedy, lookahead (two turns ahead, the opponent's reply included), mcts, "
            "mcts:N (N iterations a move), mcts:Xs (X CPU seconds a "
            "move), greedy-v1 and mcts-v1 (the bots' first versions), mcts-learned (mcts with a "
            "learned leaf value; not stronger), or cmd:PATH (a bot program: docs/bot-protocol.md).")
MoveTime = Annotated[float, typer.Option(help="Seconds a cmd:PATH bot may take for one move "
                                         "(above 0, at most 3600).", metavar="SECONDS")]
COORDS = {"ignore_unknown_options": True}


def open_game_or_prefix(game: str, valid_prefix: bool, visit=None):
    """Load a game; with ``valid_prefix``, only the part before its first fault, said on
    stderr; ``visit`` sees the walk that checks it."""
    from meeple.cli.session import open_game

    return open_game(game, valid_prefix=valid_prefix, notice=note, visit=visit)


def expansions(names: list[str] | None, fiesta: bool) -> list[str]:
    """The expansions asked for; ``--fiesta`` stands for ``--expansion la-fiesta``."""
    return list(names or ()) + (["la-fiesta"] if fiesta else [])


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_colours(text: str) -> list[str]:
    """Colours as typed, in any case (``RED,Black``)."""
    return [colour.lower() for colour in comma_list(text)]


#: the options a few commands take, made when one of them is first imported from here (each
#: ``Annotated`` with its ``typer.Option`` costs about 0.3 M instructions at every start)
_LAZY = {name: "meeple.cli.options" for name in ("Edition", "Expansions", "Fiesta", "FigureName", "Ray",
                                                 "RayAddress", "ValidPrefix")}

if not TYPE_CHECKING:
    __getattr__ = lazy_names(__name__, _LAZY, globals())
