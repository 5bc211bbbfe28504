"""Plain-data views of a game for ``--json`` and for the text renderers.

The shapes here are the documented, stable JSON of ``status``, ``moves``,
``score`` and the state export that ``check --expect`` compares.
"""

from __future__ import annotations

import msgspec

from meeple.engine import (
    GameState,
    Target,
    awaiting,
    awaiting_seed,
    followers_to_take_back,
    legal_moves,
    undoable,
)
from meeple.events.log import short
from meeple.events.model import Event, PointsScored

PHASES = {
    "place": "place_tile",
    "meeple": "place_meeple",
    "draw": "enter_draw",
    "dice": "enter_dice",
    "over": "over",
    None: "resolving",
}


def effective_events(state: GameState) -> list[Event]:
    """The events in effect: the log less what was undone and not redone."""
    return [event for step in state.steps for event in step.events]


def status(state: GameState, head: str) -> dict:
    """The ``status --json`` document."""
    waiting = awaiting(state)
    view: dict = {
        "turn": state.turn,
        "player": state.player,
        "name": state.name_of(state.player),
        "phase": "awaiting_seed_holder" if awaiting_seed(state) else PHASES[waiting],
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
        "tileset": {"name": state.tileset.name, "status": state.tileset.status,
                    "sha256": state.tileset.sha256},
        "undo": {"policy": state.setup.options.undo, "steps": _undoable_now(state, waiting),
                 "redo": len(state.redo)},
    }
    if waiting == "dice" and state.battle is not None:
        battle = state.battle
        view["battle"] = {
            "realm": msgspec.to_builtins(battle.spot),
            "dice": {s: battle.dice[s] for s in battle.active},
        }
    if waiting == "over":
        view["winners"] = list(state.winners or ())
    return view


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
    listed = [{"x": m.x, "y": m.y, "rotation": m.rotation, "meeples": list(m.targets),
               "figures": list(m.figures)} for m in legal_moves(state)]
    if awaiting(state) == "meeple":
        back = followers_to_take_back(state)
        if back:
            listed[0]["take_back"] = [msgspec.to_builtins(spot) for spot in back]
    return listed


def breakdown(state: GameState) -> list[dict]:
    """Every scoring in effect, in order: who, points, why, which realm, under which rule."""
    rows = []
    for event in effective_events(state):
        if isinstance(event, PointsScored):
            kind = Target.of(event.realm.feature).kind
            rows.append({
                "seq": event.seq, "side": event.side, "points": event.points,
                "reason": event.reason, "kind": kind,
                "realm": msgspec.to_builtins(event.realm),
                "tiles": event.tiles, "symbols": event.symbols, "dice": event.dice,
                "rule": event.rule,
            })
    return rows


def score(state: GameState) -> dict:
    """The ``score --json`` document."""
    view: dict = {
        "scores": dict(state.scores),
        "breakdown": breakdown(state),
        "over": state.phase == "over",
    }
    if state.phase == "over":
        view["winners"] = list(state.winners or ())
    return view


def export(state: GameState) -> dict:
    """The whole visible state as plain data: the snapshot format of ``check --expect``."""
    board = []
    for x, y in state.placements:
        placed = state.board[(x, y)]
        o = placed.tile.orientations[placed.r]
        meeples = []
        for index, node in enumerate(placed.nodes):
            realm = state.realms.realm(node)
            for colour, figure, where in realm.meeples:
                if where == node:
                    meeples.append({"player": colour, "figure": figure, "large": figure == "large",
                                    "on": o.targets[index]})
        board.append({"x": x, "y": y, "tile": placed.tile.id, "rotation": placed.r * 90,
                      "meeples": meeples})
    return {
        "turn": state.turn,
        "phase": PHASES[awaiting(state)],
        "player": state.player,
        "tile": state.drawn,
        "tiles_left": state.tiles_left(),
        "set_aside": list(state.set_aside),
        "scores": dict(state.scores),
        "reserves": reserves(state),
        "board": board,
        "breakdown": breakdown(state),
        "winners": list(state.winners) if state.winners is not None else None,
    }


def reserves(state: GameState) -> dict[str, dict[str, int]]:
    """Each colour's figures left, by kind; ``small`` and ``large`` are always there (0 where
    the edition has no such figure), as scripts written for schema 1 expect."""
    out = {}
    for colour, left in state.reserve.items():
        counts = {"small": 0, "large": 0}
        counts.update(left)
        out[colour] = counts
    return out
