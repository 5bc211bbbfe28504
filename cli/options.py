"""The options a few commands share (their help written once), given by ``meeple.cli.params``
when first asked for: the commands a start-up must be quick for (``status``) take none of
them."""

from typing import Annotated

import typer

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
Ray = Annotated[bool, typer.Option("--ray", help="Spread the games over a Ray cluster (the "
                                   "optional extra meeple[ray]): a local one unless "
                                   "--ray-address names one.")]
RayAddress = Annotated[str | None, typer.Option("--ray-address", help="The Ray cluster to use "
                                                "with --ray, e.g. ray://host:10001.",
                                                metavar="ADDRESS")]

ValidPrefix = Annotated[bool, typer.Option(
    "--valid-prefix", help="For a log with a fault: use the lines before it (and say where it "
    "stops and why) instead of refusing the log.")]
