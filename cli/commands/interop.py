"""``import``: a game from elsewhere (a JCloisterZone save, a CarcassonneLab link) as a new
meeple log (docs/guide/interop.md)."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
from typing import Annotated

import typer

from meeple.cli.guard import guarded
from meeple.cli.params import Json

commands = typer.Typer()


@commands.command(name="import")
@guarded
def import_game(
    source: Annotated[str, typer.Argument(help="A JCloisterZone save (.jcz) or a "
                                          "CarcassonneLab link (or its #/... part).")],
    out: Annotated[str, typer.Option(help="The new game log to write (never over a file).",
                                     metavar="GAME.jsonl")],
    as_json: Json = False,
) -> None:
    """A classic game from a JCloisterZone save or a CarcassonneLab link, as a table-mode log
    with the draws as recorded; every move is checked by the rules."""
    from meeple.cli.interop.exchange import import_source, write_new
    from meeple.cli.output import emit_json, say

    game = import_source(source)
    write_new(out, game)
    if as_json:
        emit_json({"game": out, "lines": len(game.events), "over": game.over,
                   "turn": game.turn, "player": game.player, "phase": game.phase,
                   "scores": game.scores, "head": game.head})
        return
    state = "over" if game.over else f"turn {game.turn}, {game.player} to {game.phase}"
    scores = ", ".join(f"{side} {points}" for side, points in game.scores.items())
    say(f"{out}: {len(game.events)} lines, {state}; scores {scores}")
