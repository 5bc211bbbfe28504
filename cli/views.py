"""Plain-data views of a game for ``--json`` and for the text renderers.

The shapes here are the documented, stable JSON of ``status``, ``moves`` and ``score``;
the state export that ``check --expect`` compares is the engine's
(``meeple.engine.export``).
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from meeple.engine import (
    PHASES,
    GameState,
    awaiting,
    awaiting_seed,
    breakdown,
    followers_to_take_back,
    legal_moves,
    reserves,
    undoable,
)
from meeple.engine.stage import (
    Deploying,
    Drawing,
    Over,
    Placing,
    Resolving,
    Rolling,
    stage_of,
)
from meeple.events.log import short


def status(state: GameState, head: str | None) -> dict:
    """The ``status --json`` document."""
    waiting = awaiting(state)
    view: dict = {
        "turn": state.turn,
        "player": state.player,
        "name": state.name_of(state.player),
        "phase": _phase(state, waiting),
        "tile": state.drawn,
        "tiles_left": state.tiles_left(),
        "remaining": {tile: n for tile, n in state.remaining.items() if n},
        "scores": dict(state.scores),
        "reserves": reserves(state),
        "head": head,
        "head_short": short(head),
        "seq": state.next_seq - 1,
        "mode": state.setup.mode,
        "sealed": state.sealed,
        "team": state.setup.team,
        "bots": seated_bots(state),
        "tileset": {"name": state.tileset.name, "status": state.tileset.status,
                    "sha256": state.tileset.sha256},
        "undo": {"policy": state.setup.options.undo, "steps": _undoable_now(state, waiting),
                 "redo": len(state.history.redo)},
    }
    match stage_of(state):
        case Rolling(realm=realm, dice=dice):
            view["battle"] = {"realm": msgspec.to_builtins(realm), "dice": dice}
        case Over(winners=winners):
            view["winners"] = list(winners)
        case Drawing() | Placing() | Deploying() | Resolving():
            pass
        case unknown:
            assert_never(unknown)
    return view


def seated_bots(state: GameState) -> dict[str, str]:
    """The seats bots play, as recorded at ``new --bot``: {colour: bot spec}."""
    return {p.colour: p.bot for p in state.setup.players if p.bot is not None}


def _undoable_now(state: GameState, waiting: str | None) -> int:
    """Steps `meeple undo` would take back: it writes pending consequences first."""
    if waiting is None and not awaiting_seed(state):
        from meeple.engine import settle

        state, _ = settle(state.copy())
    return undoable(state)


def moves(state: GameState) -> list[dict]:
    """The ``moves --json`` list: legal placements with the meeple targets each allows.

    In the meeple step it holds the placement just made and its legal targets.
    """
    listed = [{"x": m.x, "y": m.y, "rotation": m.rotation, "targets": list(m.targets),
               "figures": list(m.figures)} for m in legal_moves(state)]
    if awaiting(state) == "meeple":
        back = followers_to_take_back(state)
        if back:
            listed[0]["take_back"] = [msgspec.to_builtins(spot) for spot in back]
    return listed


def score(state: GameState) -> dict:
    """The ``score --json`` document: each row also says its points as a ``formula``
    (``5 tiles x 2 + 1 symbol x 2 = 12``), and a row of a scoring that counted completed
    cities (``PointsScored.cities``) those cities: ``cities`` (how many) and
    ``counted_cities`` (each city's first spot and tiles)."""
    from meeple.engine import effective_events, formula, realm_extent
    from meeple.events.model import PointsScored

    counting = {e.seq: e for e in effective_events(state)
                if isinstance(e, PointsScored) and e.cities}
    rows = breakdown(state)
    edition = state.edition
    for row in rows:
        counted = counting.get(row["seq"])
        row["formula"] = formula(edition.terms(row["reason"], row["kind"], row["tiles"],
                                               row["symbols"], row["dice"],
                                               counted.cities if counted else 0))
        if counted is not None:  # (scored at the end: the cities are as the board has them)
            row["cities"] = counted.cities
            row["counted_cities"] = realm_extent(state, counted.realm)["cities"]
    totals: dict[str, dict[str, int]] = {side: {} for side in state.scores}
    columns = edition.score_columns
    for row in rows:
        key = f"final {row['kind']}" if row["reason"] == "final" else \
            columns.get(row["reason"], row["kind"])
        totals[row["side"]][key] = totals[row["side"]].get(key, 0) + row["points"]
    view: dict = {
        "scores": dict(state.scores),
        "breakdown": rows,
        "totals": totals,
        "over": state.phase == "over",
    }
    if state.phase == "over":
        view["winners"] = list(state.winners or ())
    return view


def _phase(state: GameState, waiting: str | None) -> str:
    """The phase ``status`` names: a remote game waits for a seat's commitment or reveal where
    another game waits for a draw or dice entered, or for a sealed seed's holder."""
    joint = state.joint
    if joint is not None and not joint.all_committed:
        return "awaiting_commitment"
    if joint is not None and waiting in ("draw", "dice"):
        return "awaiting_reveal"
    return "awaiting_seed_holder" if awaiting_seed(state) else PHASES[waiting]
