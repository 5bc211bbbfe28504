"""``meeple import`` and ``meeple export --jcz/--carcassonnelab``: a game from elsewhere read
into a new log, and a classic game written out, each export read back and compared line for
line with the game before anything is written (docs/guide/interop.md)."""

from __future__ import annotations

import os

import msgspec

from meeple.cli.interop import carcassonnelab, jcz, jcz_writing
from meeple.cli.interop.moves import (
    COLOURS,
    Refused,
    Turn,
    fiesta_of,
    names_of,
    new_table_game,
    play_turn,
    turns_of,
)
from meeple.cli.store import Failure
from meeple.engine import Game
from meeple.events.files import NotReadable, read_regular


def is_link(source: str) -> bool:
    """Whether SOURCE is a link (``...#/0/0/...``, or that part alone) rather than a file."""
    return "#/" in source and not os.path.exists(source)


def import_source(source: str) -> Game:
    """The game a ``.jcz`` save or a CarcassonneLab link (or its ``#/...`` part) holds.

    :raises Failure: exit 3 for a source meeple cannot take, 2 for a missing file.
    """
    if is_link(source):
        try:
            return from_link(source)
        except Refused as exc:
            raise Failure(f"the CarcassonneLab link: {exc}", 3) from None
    try:
        data = read_regular(source, jcz.MAX_SAVE)
    except NotReadable as exc:
        raise Failure(f"{source}: {exc.reason}", 2 if exc.missing else 3) from None
    try:
        return jcz.read_save(data)[0]
    except Refused as exc:
        raise Failure(f"{source}: {exc}", 3) from None


def from_link(link: str) -> Game:
    names, colours, turns = carcassonnelab.read_link(link)
    if colours is not None and (len(set(colours)) != 2 or any(c not in COLOURS for c in colours)):
        raise Refused("the link's colours: two different classic colours "
                      f"({', '.join(COLOURS)})")
    game = new_table_game(names, fiesta=False, colours=colours)
    replay(game, turns)
    return game


def replay(game: Game, turns: list[Turn]) -> None:
    for number, turn in enumerate(turns, 1):
        play_turn(game, turn, f"turn {number}")


def write_new(path: str, game: Game) -> None:
    """Save ``game`` as a new log at ``path``, never over a file."""
    if os.path.lexists(path):
        raise Failure(f"{path} exists: import never writes over a file", 1)
    game.save(path)


def _exportable(game: Game, colours: list[str] | None) -> tuple[list[Turn], Game]:
    """The turns of ``game`` and the table game they replay to (the game as the other
    program holds it: draws as recorded)."""
    try:
        turns = turns_of(game)
        canonical = new_table_game(names_of(game), fiesta_of(game), colours)
    except Refused as exc:
        raise Failure(f"cannot export: {exc}", 1) from None
    if _played(canonical) != _played(game):
        raise Failure("cannot export: the game is not played with meeple's classic tile set", 1)
    try:
        replay(canonical, turns)
    except Refused as exc:
        raise Failure(f"cannot export: {exc}", 1) from None
    return turns, canonical


def _played(game: Game) -> tuple:
    """What of a game's tile set plays (CL-1): its start tile and each tile's id, count, edges
    and features; not its notes."""
    definition = game.setup.tileset.definition
    return definition.start, tuple(
        (t.id, t.count, t.edges, t.features, t.festival, t.cloister) for t in definition.tiles)


def _same(written: Game, canonical: Game, what: str) -> None:
    """The game read back from an export against the game exported, line for line."""
    mine = [msgspec.json.encode(event) for event in canonical.events]
    back = [msgspec.json.encode(event) for event in written.events]
    if mine != back:
        line = next((i for i, (a, b) in enumerate(zip(mine, back, strict=False)) if a != b),
                    min(len(mine), len(back)))
        raise Failure(f"the {what} does not read back as the same game (line {line + 1}); "
                      "nothing was written", 4)


def export_jcz(game: Game, path: str) -> None:
    """Write ``game`` as a JCloisterZone save at ``path`` (never over a file), once it
    reads back as the same game."""
    turns, canonical = _exportable(game, None)
    try:
        text = jcz_writing.write_save(game, turns, game_id=_game_id(game), fiesta=fiesta_of(game))
    except Refused as exc:
        raise Failure(f"cannot export: {exc}", 1) from None
    try:
        back = jcz.read_save(text.encode())[0]
    except Refused as exc:
        raise Failure(f"the save does not read back: {exc}; nothing was written", 4) from None
    _same(back, canonical, "JCloisterZone save")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise Failure(f"{path} exists: export never writes over a file", 1) from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def export_link(game: Game) -> str:
    """The CarcassonneLab link of a 2-player classic game without La Fiesta, once it reads
    back as the same game."""
    if len(game.setup.players) != 2 or fiesta_of(game):
        raise Failure("cannot export: CarcassonneLab links hold 2-player base games only", 1)
    colours: list[str] = [player.colour for player in game.setup.players]
    turns, canonical = _exportable(game, colours)
    try:
        link = carcassonnelab.write_link(names_of(game), colours, turns)
        back = from_link(link)
    except Refused as exc:
        raise Failure(f"cannot export: {exc}", 1) from None
    _same(back, canonical, "CarcassonneLab link")
    return link


def _game_id(game: Game) -> str:
    """A game id for the save: the first 32 hex digits of the game's first line."""
    import hashlib

    return hashlib.sha256(msgspec.json.encode(game.events[0])).hexdigest()[:32]
