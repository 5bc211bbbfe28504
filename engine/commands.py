"""Commands: what a player (or a script) asks for. ``decide`` turns each into events."""

from __future__ import annotations

import msgspec


class PlaceTile(msgspec.Struct, frozen=True):
    """SW-3.1: place the drawn tile at (x, y), turned ``rotation`` degrees clockwise."""

    x: int
    y: int
    rotation: int


class PlaceMeeple(msgspec.Struct, frozen=True):
    """SW-4.1: place a meeple from reserve on ``target`` (see ``meeple.engine.targets``)."""

    target: str
    figure: str = "small"


class SkipMeeple(msgspec.Struct, frozen=True):
    """SW-4.1: place no meeple this turn."""


class TakeBack(msgspec.Struct, frozen=True):
    """CL-7 (La Fiesta): after placing a festival tile, take back one of your followers
    standing on ``target`` of the tile at (x, y)."""

    x: int
    y: int
    target: str


class DrawTile(msgspec.Struct, frozen=True):
    """Table mode: record the tile the player drew from the physical pile (SW-3.1)."""

    tile: str


class RollDice(msgspec.Struct, frozen=True):
    """Table mode: record the physical dice of one battle round, by colour or side (SW-5.6)."""

    rolls: dict[str, tuple[int, ...]] = msgspec.field(default_factory=dict)


class Undo(msgspec.Struct, frozen=True):
    """Take back the last ``steps`` steps, as the game's undo policy allows."""

    steps: int = 1


class Redo(msgspec.Struct, frozen=True):
    """Apply again the last ``steps`` undone steps, if nothing was done since."""

    steps: int = 1


Command = PlaceTile | PlaceMeeple | SkipMeeple | TakeBack | DrawTile | RollDice | Undo | Redo
