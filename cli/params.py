"""What the commands share: the arguments and options several take (their help written once),
and the helpers that read them."""

from typing import Annotated

import typer

from meeple.cli.output import note

Game = Annotated[str, typer.Argument(help="The game log file (JSON lines).", metavar="GAME")]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
Edition = Annotated[str | None, typer.Option(help="star-wars (default), classic (the 2011 base "
                                             "game with farmers) or one an installed package "
                                             "adds.")]
FigureName = Annotated[str | None, typer.Option(
    "--figure", help="Which figure, by name; by default the edition's everyday one (small in "
    "both bundled editions).")]
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
            "move), greedy-v1 and mcts-v1 (the bots' first versions), or cmd:PATH (a bot program, see "
            "the README).")
MoveTime = Annotated[float, typer.Option(help="Seconds a cmd:PATH bot may take for one move "
                                         "(above 0, at most 3600).", metavar="SECONDS")]

ValidPrefix = Annotated[bool, typer.Option(
    "--valid-prefix", help="For a log with a fault: use the lines before it (and say where it "
    "stops and why) instead of refusing the log.")]


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
