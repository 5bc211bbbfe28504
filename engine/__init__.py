"""The rules of Carcassonne: Star Wars Edition and the classic game (``meeple.engine``):
pure, no I/O. This module is the engine's public API: the CLI, the fixture builder and
scripts import from here only (a lint rule bans ``meeple.engine.<module>`` outside the
engine; white-box tests of one module are listed in ``pyproject.toml``).

``Game`` is the object most scripts want: make or load a game, list legal moves, push a
move, copy, undo, read the phase, scores and winners (see ``meeple.engine.game``).
Underneath, a game is a ``GameState`` folded from events: ``decide(state, command)``
checks a command and returns events; ``evolve`` applies one; ``next_event`` gives the
consequence the rules dictate; ``play`` runs a command to the next point a player acts;
``fold`` and ``walk`` replay a log; ``verify`` re-checks a recorded one. Editions are
objects (``EDITIONS``); targets are ``Target``; legal moves are ``legal_moves``.
Search bots play on detached copies: ``detach``, ``play_move``, ``advance``, ``playout``;
bots are named by specs (``bot_named``: ``random``, ``greedy``, ``mcts:1000``).
"""

from importlib import import_module
from typing import TYPE_CHECKING

from meeple.engine.applying import FoldError, evolve
from meeple.engine.board import (
    nth_placement,
    placement_at,
    placement_count,
    placements,
    sample_placement,
)
from meeple.engine.botspec import BOT_NAMES, BOT_SYNTAX, read_spec, sees_only_the_table
from meeple.engine.check import Finding, Verdict, command_of, verify
from meeple.engine.commands import (
    Command,
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    RollDice,
    SkipMeeple,
    TakeBack,
    Undo,
)
from meeple.engine.compiled import compile_tileset
from meeple.engine.deciding import (
    decide,
    followers_to_take_back,
    legal_targets,
    moves_with_targets,
    undoable,
)
from meeple.engine.edition import Edition, Expansion, Figure, Term, formula
from meeple.engine.editions import (
    DEFAULT,
    EDITIONS,
    EXPANSIONS,
    EditionNotInstalled,
    edition_named,
    expansion_named,
    register_edition,
    register_expansion,
)
from meeple.engine.errors import IllegalMove, InvalidCommand, RulesError, TileSetError
from meeple.engine.flow import awaiting, awaiting_seed, next_event
from meeple.engine.geometry import SIDES
from meeple.engine.moves import Move, legal_moves
from meeple.engine.playing import fold, play, settle, walk
from meeple.engine.scoring import projected
from meeple.engine.setup import new_game, seal, start
from meeple.engine.snapshot import (
    PHASES,
    breakdown,
    effective_events,
    export,
    realm_extent,
    reserves,
)
from meeple.engine.state import GameState
from meeple.engine.targets import Target
from meeple.engine.tiles import TileSet, TileType

if TYPE_CHECKING:
    from meeple.engine.bots import (
        BOTS,
        bot_named,
        check_can_play,
        greedy_move,
        random_move,
        run_turns,
    )
    from meeple.engine.detached import advance, detach, play_move, playout
    from meeple.engine.game import Game
    from meeple.engine.mcts import mcts_move, move_options, search

#: names imported on first use: the bots, the search, playouts and ``Game`` (each command is
#: a process of its own, and most use none of them)
_LAZY = {
    **dict.fromkeys(("BOTS", "bot_named", "check_can_play", "greedy_move", "random_move",
                     "run_turns"), "meeple.engine.bots"),
    **dict.fromkeys(("advance", "detach", "play_move", "playout"), "meeple.engine.detached"),
    "Game": "meeple.engine.game",
    **dict.fromkeys(("mcts_move", "move_options", "search"), "meeple.engine.mcts"),
}


if not TYPE_CHECKING:  # (a type checker sees the imports above, and so every misspelling)

    def __getattr__(name: str) -> object:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "BOT_SYNTAX",
    "DEFAULT",
    "EDITIONS",
    "EditionNotInstalled",
    "register_edition",
    "register_expansion",
    "EXPANSIONS",
    "PHASES",
    "SIDES",
    "Command",
    "DrawTile",
    "Edition",
    "Expansion",
    "Figure",
    "Finding",
    "FoldError",
    "Game",
    "GameState",
    "IllegalMove",
    "InvalidCommand",
    "Move",
    "PlaceMeeple",
    "PlaceTile",
    "Redo",
    "RollDice",
    "RulesError",
    "SkipMeeple",
    "TakeBack",
    "Target",
    "TileSet",
    "TileSetError",
    "TileType",
    "Undo",
    "Verdict",
    "advance",
    "awaiting",
    "awaiting_seed",
    "bot_named",
    "check_can_play",
    "breakdown",
    "command_of",
    "compile_tileset",
    "decide",
    "detach",
    "edition_named",
    "effective_events",
    "evolve",
    "expansion_named",
    "export",
    "fold",
    "followers_to_take_back",
    "greedy_move",
    "legal_moves",
    "legal_targets",
    "mcts_move",
    "move_options",
    "moves_with_targets",
    "new_game",
    "next_event",
    "nth_placement",
    "placement_at",
    "placement_count",
    "placements",
    "play",
    "play_move",
    "playout",
    "projected",
    "random_move",
    "realm_extent",
    "reserves",
    "read_spec",
    "sample_placement",
    "sees_only_the_table",
    "Term",
    "formula",
    "run_turns",
    "seal",
    "search",
    "settle",
    "start",
    "undoable",
    "verify",
    "walk",
]
