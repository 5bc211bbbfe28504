"""The rules of Carcassonne (``meeple.engine``): pure, no I/O. ``Game`` is the object scripts
want: make or load a game, list legal moves, push a move or what a person types, copy, undo,
save (see ``meeple.engine.game``). This module's ``__all__`` is the public API: ``Game``, the
commands, the errors, the editions and their registry, ``Target``, ``GameState``, ``verify``
and ``bot_named``.

Documented submodules hold the rest: ``meeple.engine.bots`` and ``meeple.engine.mcts`` (the
bots), ``meeple.engine.check`` (full verification), ``meeple.engine.notation`` (what a person
types), ``meeple.engine.snapshot`` (the visible state as data), ``meeple.engine.playing``
(``fold``, ``walk``, ``play``), ``meeple.engine.chance`` (the seeded stream). The other names
below are meeple's own, kept reachable here for its CLI; they are not part of the API.
"""


from typing import TYPE_CHECKING

from meeple.engine.check import verify
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
from meeple.engine.edition import Edition, Expansion, Figure
from meeple.engine.editions import (
    DEFAULT,
    EDITIONS,
    EXPANSIONS,
    EditionNotInstalled,
    edition_named,
    register_edition,
    register_expansion,
)
from meeple.engine.errors import IllegalMove, InvalidCommand, InvalidGame, RulesError, TileSetError
from meeple.engine.moves import Move
from meeple.engine.state import GameState
from meeple.engine.targets import Target
from meeple.events.lazy import lazy_names

if TYPE_CHECKING:
    # meeple's own names, not the API (each stays in its module)
    from meeple.engine.applying import (
        FoldError,
        evolve,
    )
    from meeple.engine.board import (
        nth_placement,
        placement_at,
        placement_count,
        placements,
        sample_placement,
    )
    from meeple.engine.bots import (
        BOTS,
        bot_named,
        check_can_play,
        greedy_move,
        greedy_v1_move,
        random_move,
        run_turns,
    )
    from meeple.engine.botspec import (
        BOT_NAMES,
        BOT_SYNTAX,
        read_spec,
        sees_only_the_table,
    )
    from meeple.engine.check import (
        Finding,
        Verdict,
        command_of,
    )
    from meeple.engine.compiled import compile_tileset
    from meeple.engine.deciding import (
        decide,
        followers_to_take_back,
        legal_targets,
        moves_with_targets,
        undoable,
    )
    from meeple.engine.detached import (
        advance,
        detach,
        play_move,
        playout,
    )
    from meeple.engine.edition import (
        Term,
        formula,
    )
    from meeple.engine.editions import (
        BUILT_IN,
        expansion_named,
        installed,
    )
    from meeple.engine.flow import (
        awaiting,
        awaiting_seed,
        next_event,
    )
    from meeple.engine.game import Game
    from meeple.engine.geometry import (
        SIDES,
    )
    from meeple.engine.mcts import (
        mcts_move,
        move_options,
        search,
    )
    from meeple.engine.moves import (
        legal_moves,
    )
    from meeple.engine.playing import (
        fold,
        play,
        settle,
        walk,
    )
    from meeple.engine.scoring import (
        projected,
    )
    from meeple.engine.setup import (
        new_game,
        seal,
        start,
    )
    from meeple.engine.snapshot import (
        PHASES,
        breakdown,
        effective_events,
        export,
        realm_extent,
        reserves,
    )
    from meeple.engine.tiles import (
        TileSet,
        TileType,
    )

#: names loaded on first use: the public ones whose modules most commands never need (each
#: command is a process of its own), and meeple's own names kept reachable here
_LAZY = {
    "Game": "meeple.engine.game",
    "bot_named": "meeple.engine.bots",
    "FoldError": "meeple.engine.applying",
    "evolve": "meeple.engine.applying",
    "nth_placement": "meeple.engine.board",
    "placement_at": "meeple.engine.board",
    "placement_count": "meeple.engine.board",
    "placements": "meeple.engine.board",
    "sample_placement": "meeple.engine.board",
    "BOTS": "meeple.engine.bots",
    "check_can_play": "meeple.engine.bots",
    "greedy_move": "meeple.engine.bots",
    "greedy_v1_move": "meeple.engine.bots",
    "random_move": "meeple.engine.bots",
    "run_turns": "meeple.engine.bots",
    "BOT_NAMES": "meeple.engine.botspec",
    "BOT_SYNTAX": "meeple.engine.botspec",
    "read_spec": "meeple.engine.botspec",
    "sees_only_the_table": "meeple.engine.botspec",
    "command_of": "meeple.engine.check",
    "decide": "meeple.engine.deciding",
    "followers_to_take_back": "meeple.engine.deciding",
    "legal_targets": "meeple.engine.deciding",
    "moves_with_targets": "meeple.engine.deciding",
    "undoable": "meeple.engine.deciding",
    "advance": "meeple.engine.detached",
    "detach": "meeple.engine.detached",
    "play_move": "meeple.engine.detached",
    "playout": "meeple.engine.detached",
    "formula": "meeple.engine.edition",
    "Term": "meeple.engine.edition",
    "Finding": "meeple.engine.check",
    "Verdict": "meeple.engine.check",
    "expansion_named": "meeple.engine.editions",
    "installed": "meeple.engine.editions",
    "BUILT_IN": "meeple.engine.editions",
    "awaiting": "meeple.engine.flow",
    "awaiting_seed": "meeple.engine.flow",
    "next_event": "meeple.engine.flow",
    "SIDES": "meeple.engine.geometry",
    "mcts_move": "meeple.engine.mcts",
    "move_options": "meeple.engine.mcts",
    "search": "meeple.engine.mcts",
    "legal_moves": "meeple.engine.moves",
    "fold": "meeple.engine.playing",
    "play": "meeple.engine.playing",
    "settle": "meeple.engine.playing",
    "walk": "meeple.engine.playing",
    "projected": "meeple.engine.scoring",
    "new_game": "meeple.engine.setup",
    "seal": "meeple.engine.setup",
    "start": "meeple.engine.setup",
    "PHASES": "meeple.engine.snapshot",
    "breakdown": "meeple.engine.snapshot",
    "effective_events": "meeple.engine.snapshot",
    "export": "meeple.engine.snapshot",
    "realm_extent": "meeple.engine.snapshot",
    "reserves": "meeple.engine.snapshot",
    "TileSet": "meeple.engine.tiles",
    "TileType": "meeple.engine.tiles",
    "compile_tileset": "meeple.engine.compiled",
}


if not TYPE_CHECKING:  # (a type checker sees the imports above, and so every misspelling)

    __getattr__ = lazy_names(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Command",
    "DEFAULT",
    "DrawTile",
    "EDITIONS",
    "EXPANSIONS",
    "Edition",
    "EditionNotInstalled",
    "Expansion",
    "Figure",
    "Game",
    "GameState",
    "IllegalMove",
    "InvalidCommand",
    "InvalidGame",
    "Move",
    "PlaceMeeple",
    "PlaceTile",
    "Redo",
    "RollDice",
    "RulesError",
    "SkipMeeple",
    "TakeBack",
    "Target",
    "TileSetError",
    "Undo",
    "bot_named",
    "edition_named",
    "register_edition",
    "register_expansion",
    "verify",
]
