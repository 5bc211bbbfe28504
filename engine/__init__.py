"""The rules of Carcassonne: Star Wars Edition and the classic game (``meeple.engine``):
pure, no I/O.

``Game`` is the public API: make or load a game, list legal moves, push a move, copy,
undo, read the phase, scores and winners (see ``meeple.engine.game``). Underneath,
``decide(state, command)`` checks a command and returns events; ``evolve`` applies an
event; ``next_event`` gives the consequence the rules dictate; ``fold`` replays; ``play``
runs a command to the next point a player acts. Editions are objects
(``meeple.engine.editions``).
"""

from meeple.engine.commands import (
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    RollDice,
    SkipMeeple,
    TakeBack,
    Undo,
)
from meeple.engine.decide import decide
from meeple.engine.edition import Edition, Expansion, Figure
from meeple.engine.editions import EDITIONS, EXPANSIONS, edition_named
from meeple.engine.errors import IllegalMove, InvalidCommand, RulesError, TileSetError
from meeple.engine.evolve import FoldError, evolve
from meeple.engine.flow import awaiting, next_event
from meeple.engine.game import Game
from meeple.engine.moves import Move, legal_moves
from meeple.engine.play import fold, play, settle
from meeple.engine.state import GameState

__all__ = [
    "EDITIONS",
    "EXPANSIONS",
    "DrawTile",
    "Edition",
    "Expansion",
    "Figure",
    "Game",
    "Move",
    "TakeBack",
    "edition_named",
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
    "legal_moves",
    "next_event",
    "play",
    "settle",
]
