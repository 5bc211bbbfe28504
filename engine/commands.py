"""Commands: what a player (or a script) asks for. ``decide`` turns each into events."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlaceTile:
    """SW-3.1: place the drawn tile at (x, y), turned ``rotation`` degrees clockwise."""

    x: int
    y: int
    rotation: int


@dataclass(frozen=True)
class PlaceMeeple:
    """SW-4.1: place a meeple from reserve on ``target`` (see ``meeple.engine.targets``)."""

    target: str
    large: bool = False


@dataclass(frozen=True)
class SkipMeeple:
    """SW-4.1: place no meeple this turn."""


@dataclass(frozen=True)
class DrawTile:
    """Table mode: record the tile the player drew from the physical pile (SW-3.1)."""

    tile: str


@dataclass(frozen=True)
class RollDice:
    """Table mode: record the physical dice of one battle round, by colour or side (SW-5.6)."""

    rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Undo:
    """Take back the last ``steps`` steps, as the game's undo policy allows."""

    steps: int = 1


@dataclass(frozen=True)
class Redo:
    """Apply again the last ``steps`` undone steps, if nothing was done since."""

    steps: int = 1


Command = PlaceTile | PlaceMeeple | SkipMeeple | DrawTile | RollDice | Undo | Redo
