"""Commands: what a player (or a script) asks for. ``decide`` turns each into events."""

from __future__ import annotations

import msgspec

from meeple.engine.errors import InvalidCommand


class PlaceTile(msgspec.Struct, frozen=True):
    """Place the drawn tile at (x, y), turned ``rotation`` degrees clockwise."""

    x: int
    y: int
    rotation: int


class PlaceMeeple(msgspec.Struct, frozen=True):
    """Place a figure from reserve on ``target`` (see ``meeple.engine.targets``): the one
    called ``figure``, or where that is empty the edition's everyday one (its first)."""

    target: str
    figure: str = ""


class SkipMeeple(msgspec.Struct, frozen=True):
    """Place no meeple this turn."""


class TakeBack(msgspec.Struct, frozen=True):
    """After placing a tile that lets one (``Edition.take_back_mark``), take back a figure
    standing on ``target`` of the tile at (x, y)."""

    x: int
    y: int
    target: str


class DrawTile(msgspec.Struct, frozen=True):
    """Table mode: record the tile the player drew from the physical pile."""

    tile: str


class RollDice(msgspec.Struct, frozen=True):
    """Table mode: record the physical dice of one battle round, by colour or side."""

    rolls: dict[str, tuple[int, ...]] = msgspec.field(default_factory=dict)


class Commit(msgspec.Struct, frozen=True):
    """A remote game: a seat commits to its hash chains, the last link of each
    (``meeple.engine.joint``)."""

    player: str
    chains: tuple[str, ...]


class Reveal(msgspec.Struct, frozen=True):
    """A remote game: a seat reveals element ``index`` of its hash chain for ``slot``."""

    player: str
    slot: str
    index: int
    element: str


class ClaimTimeout(msgspec.Struct, frozen=True):
    """A remote game: ``player`` claims that ``against`` let the time per move pass, at
    ``at`` (Unix seconds, the claimer's clock)."""

    player: str
    against: str
    at: int


class Undo(msgspec.Struct, frozen=True):
    """Take back the last ``steps`` steps, as the game's undo policy allows."""

    steps: int = 1


class Redo(msgspec.Struct, frozen=True):
    """Apply again the last ``steps`` undone steps, if nothing was done since."""

    steps: int = 1


Command = (PlaceTile | PlaceMeeple | SkipMeeple | TakeBack | DrawTile | RollDice | Undo | Redo
           | Commit | Reveal | ClaimTimeout)

#: every command type, for a check of what a script passes
COMMANDS = (PlaceTile, PlaceMeeple, SkipMeeple, TakeBack, DrawTile, RollDice, Undo, Redo,
            Commit, Reveal, ClaimTimeout)


def not_a_command(value: object) -> InvalidCommand:
    """The error for a value passed as a command that is none."""
    return InvalidCommand(f"not a command: a {type(value).__name__}",
                          legal="a command is one of " + ", ".join(
                              kind.__name__ for kind in COMMANDS) + " (from meeple.engine)")


def checked(command: object) -> Command:
    """``command``, if it is a command whose fields hold the types they declare (a script may
    pass anything: ``PlaceTile("1", "0", "0")`` is refused here, not misread later).

    :raises InvalidCommand: naming the command and the field.
    """
    # the moves every game plays, checked without a conversion
    if isinstance(command, PlaceTile):
        if type(command.x) is int and type(command.y) is int and type(command.rotation) is int:
            return command
    elif isinstance(command, PlaceMeeple):
        if type(command.target) is str and type(command.figure) is str:
            return command
    elif isinstance(command, SkipMeeple):
        return command
    if not isinstance(command, COMMANDS):
        raise not_a_command(command)
    try:
        msgspec.convert(msgspec.to_builtins(command), type(command))
    except (msgspec.ValidationError, TypeError) as exc:
        raise InvalidCommand(f"{type(command).__name__}: {exc}") from None
    return command
