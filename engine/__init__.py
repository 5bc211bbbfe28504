"""The rules of Carcassonne: Star Wars Edition (``meeple.engine``): pure, no I/O.

``decide(state, command)`` checks a command and returns events; ``evolve``
applies an event; ``next_event`` gives the consequence the rules dictate;
``fold`` replays; ``play`` runs a command to the next point a player acts.
"""

from meeple.engine.commands import (
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    RollDice,
    SkipMeeple,
    Undo,
)
from meeple.engine.decide import decide
from meeple.engine.errors import IllegalMove, InvalidCommand, RulesError, TileSetError
from meeple.engine.evolve import FoldError, evolve
from meeple.engine.flow import awaiting, next_event
from meeple.engine.play import fold, play, settle
from meeple.engine.state import GameState

__all__ = [
    "DrawTile",
    "FoldError",
    "GameState",
    "IllegalMove",
    "InvalidCommand",
    "PlaceMeeple",
    "PlaceTile",
    "Redo",
    "RollDice",
    "RulesError",
    "SkipMeeple",
    "TileSetError",
    "Undo",
    "awaiting",
    "decide",
    "evolve",
    "fold",
    "next_event",
    "play",
    "settle",
]
