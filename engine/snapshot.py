"""The visible state of a game as plain data (``export``): the snapshot format that
``meeple check --expect`` compares and ``show --json`` prints, and what the recorded
fixtures' snapshots hold. Pure: the same state always gives the same document.
"""

from __future__ import annotations

import msgspec

from meeple.engine.applying import node_at
from meeple.engine.flow import awaiting
from meeple.engine.state import GameState
from meeple.engine.targets import Target
from meeple.events.model import Event, PointsScored, Spot

#: the phase names of the JSON documents, by what the game waits for
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
    return [event for step in state.history.steps for event in step.events]


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
    """Each colour's figures left, by kind. Where the everyday figure is ``small`` (the
    bundled editions), ``small`` and ``large`` are always there (0 where the edition has no
    such figure), as scripts written for schema 1 expect; another edition's kinds alone."""
    out = {}
    for colour, left in state.reserve.items():
        counts = {"small": 0, "large": 0} if "small" in left else {}
        counts.update(left)
        out[colour] = counts
    return out


def realm_extent(state: GameState, spot: Spot) -> dict:
    """Where the realm at ``spot`` lies on the board now: its cells (``tiles``, sorted), and for a
    field the completed areas it borders (``cities``), each named by the spot where it
    was first placed and with its own cells. For a centre feature the cells are its own
    tile and its placed neighbours (what completing and scoring it count). What the score table names and
    the pictures highlight for a scoring; read it from the state the scoring was made in."""
    realms = state.realms
    realm = realms.realm(node_at(state, spot))
    cells = set(realm.tiles)
    if realm.kind == state.tileset.vocabulary.centre:
        (x, y), = realm.tiles
        cells |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                  if (x + dx, y + dy) in state.board}
    out: dict = {"tiles": [list(cell) for cell in sorted(cells)]}
    if realm.kind == state.tileset.vocabulary.field:
        cities = []
        for root in sorted({realms.find(node) for node in realm.cities or ()}):
            city = realms.data[root]
            if city is not None and city.open == 0:
                cities.append({"realm": msgspec.to_builtins(realms.spot(city.anchor)),
                               "tiles": [list(cell) for cell in sorted(city.tiles)]})
        cities.sort(key=lambda c: (c["realm"]["x"], c["realm"]["y"], c["realm"]["feature"]))
        out["cities"] = cities
    return out
