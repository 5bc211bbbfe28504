"""Building the ``game_started`` event of a new game (SW-1.5, SW-2, SW-8.1, CL-2)."""

from __future__ import annotations

from meeple.engine.editions import edition_named
from meeple.engine.errors import InvalidCommand
from meeple.engine.state import check_setup, seal
from meeple.engine.tiles import compile_tileset
from meeple.events.model import SCHEMA_VERSION, GameStarted, Options, PlayerDef, TileSetRecord
from meeple.events.tileset import TileSetDef, content_hash


def new_game(
    colours: list[str],
    tileset: TileSetDef,
    *,
    names: list[str] | None = None,
    seed: str | None = None,
    team: bool = False,
    table: bool = False,
    unplaceable: str = "discard",
    undo: str = "turn",
    sealed: bool = False,
) -> GameStarted:
    """A checked ``game_started`` event (seq 0). ``sealed`` records only the seed's SHA-256.

    :raises InvalidCommand: unknown colour, wrong number of names, bad option, bad set-up.
    """
    compile_tileset(tileset)  # an unknown edition or a bad tile set stops here, named
    edition = edition_named(tileset.edition)
    rule = edition.rule("players")
    for colour in colours:
        if colour not in edition.colours:
            raise InvalidCommand(f"unknown colour {colour!r}", rule=rule,
                                 legal=f"colours of the {edition.name} edition are "
                                 + ", ".join(edition.colours))
    if names is not None and len(names) != len(colours):
        raise InvalidCommand(f"{len(names)} names for {len(colours)} players", rule=rule)
    if unplaceable not in ("discard", "reshuffle"):
        raise InvalidCommand(f"unplaceable must be discard or reshuffle, not {unplaceable!r}",
                             rule=edition.rule("unplaceable"))
    if sealed and (table or seed is None):
        raise InvalidCommand("a sealed game is a digital game with a seed",
                             rule=edition.rule("chance"))
    if undo not in ("turn", "any", "none"):
        raise InvalidCommand(f"undo must be turn, any or none, not {undo!r}", rule="undo")
    players = tuple(
        PlayerDef(colour=c, name=(names[i] if names else c))  # type: ignore[arg-type]
        for i, c in enumerate(colours)
    )
    event = GameStarted(
        seq=0,
        schema=SCHEMA_VERSION,
        edition=edition.name,  # type: ignore[arg-type]
        players=players,
        team=team,
        mode="table" if table else "digital",
        seed=None if table or sealed else seed,
        seed_sha256=seal(seed) if sealed and seed is not None and not table else None,
        options=Options(unplaceable=unplaceable, undo=undo),  # type: ignore[arg-type]
        tileset=TileSetRecord(name=tileset.name, sha256=content_hash(tileset),
                              definition=tileset),
    )
    check_setup(event)
    return event
