"""A game as one self-contained HTML page that replays it (``meeple export --html``).

The page holds the whole game as data: the SVG of every tile type and rotation
that was laid, and one frame per event (board, meeples, scores, reserves, tiles
drawn, battle). Its script only shows frames; every figure comes from folding
the log here, the way ``check`` and ``show`` do. No network, scripts or fonts
from outside: the file opens offline.
"""

from __future__ import annotations

from html import escape
from importlib import resources

import msgspec

from meeple.cli.history import undone_seqs
from meeple.cli.narrate import realm_name, tell
from meeple.cli.svg import (
    COLOUR,
    DEFS,
    STYLE,
    T,
    extent,
    meeple_spots,
    meeple_title,
    tile_fragment,
    tile_title,
)
from meeple.engine.evolve import evolve
from meeple.engine.state import GameState, start
from meeple.events.log import GameLog
from meeple.events.model import (
    BattleEnded,
    BattleStarted,
    DiceRolled,
    GameStarted,
    TurnEnded,
    Undone,
)


class _Tables:
    """Tile fragments and placements, each stored once and referred to by index."""

    def __init__(self) -> None:
        self.fragments: dict[tuple[str, int], int] = {}
        self.fragment_svg: list[str] = []
        self.placements: dict[tuple[int, int, str, int], int] = {}
        self.placement_rows: list[list] = []

    def placement(self, state: GameState, x: int, y: int) -> int:
        placed = state.board[(x, y)]
        key = (x, y, placed.tile.id, placed.r)
        found = self.placements.get(key)
        if found is None:
            frag_key = (placed.tile.id, placed.r)
            frag = self.fragments.get(frag_key)
            if frag is None:
                frag = self.fragments[frag_key] = len(self.fragment_svg)
                self.fragment_svg.append(tile_fragment(placed.tile, placed.r))
            found = self.placements[key] = len(self.placement_rows)
            self.placement_rows.append([x, y, frag, tile_title(x, y, placed.tile, placed.r)])
        return found


def _frame(state: GameState, tables: _Tables, battle: dict | None) -> dict:
    board = [tables.placement(state, x, y) for (x, y) in state.board]
    meeples = []
    for (x, y) in state.board:
        for (px, py), colour, large, target in meeple_spots(state, x, y):
            meeples.append([x, y, px, py, colour, int(large),
                            meeple_title(colour, large, target, x, y),
                            int(target.startswith("field:"))])
    total = state.tileset.total() - 1
    return {
        "b": board,
        "m": meeples,
        "hl": list(state.placed_at) if state.placed_at else None,
        "s": [state.scores[s] for s in state.sides],
        "r": [list(state.reserve[c]) for c in state.players],
        "turn": state.turn,
        "player": state.player,
        "drawn": total - state.tiles_left(),
        "left": state.tiles_left(),
        "battle": battle,
        "winners": list(state.winners) if state.winners else None,
    }


def document(log: GameLog) -> dict:
    """The data the page shows: one frame per event of the log, in order."""
    events = log.events
    first = events[0]
    assert isinstance(first, GameStarted)
    undone = undone_seqs(events)
    tables = _Tables()
    state = start(first)
    battle: dict | None = None
    frames = [_frame(state, tables, None)]
    for event in events[1:]:
        state = evolve(state, event)
        if isinstance(event, BattleStarted):
            battle = {"realm": realm_name(event.realm),
                      "sides": [[s.side, s.dice] for s in event.sides], "rounds": [],
                      "winner": None}
        elif isinstance(event, DiceRolled) and battle is not None:
            battle["rounds"].append([[r.side, list(r.values)] for r in event.rolls])
        elif isinstance(event, BattleEnded) and battle is not None:
            battle["winner"] = event.winner
        elif isinstance(event, TurnEnded | Undone):
            battle = None
        frames.append(_frame(state, tables, None if battle is None else _copy(battle)))
    hashes = [e.prev for e in events[1:]] + [log.head]
    cells = {(row[0], row[1]) for row in tables.placement_rows}
    x0, y0, x1, y1 = extent(cells)
    sides = []
    for side in state.sides:
        members = [j for j, c in enumerate(state.players) if state.side_of[c] == side]
        names = [state.name_of(state.players[j]) for j in members]
        label = side if names == [side] else f"{side} ({', '.join(names)})"
        sides.append({"side": side, "label": label, "players": members})
    ts = state.tileset
    return {
        "title": f"meeple game: {', '.join(p.colour for p in first.players)}",
        "tileset": {"name": ts.name, "status": ts.status, "sha256": ts.sha256},
        "head": log.head,
        "extent": [x0, y0, x1, y1],
        "tile": T,
        "classic": state.classic,
        "fragments": tables.fragment_svg,
        "placements": tables.placement_rows,
        "sides": sides,
        "players": [{"colour": c, "name": state.name_of(c), "fill": COLOUR[c]}
                    for c in state.players],
        "events": [{"seq": e.seq, "type": type(e).__name__, "text": tell(e),
                    "undone": e.seq in undone, "hash": h, "turn_end": isinstance(e, TurnEnded)}
                   for e, h in zip(events, hashes, strict=True)],
        "frames": frames,
    }


def _copy(battle: dict) -> dict:
    return {**battle, "rounds": list(battle["rounds"])}


def page(log: GameLog, *, note: str | None) -> str:
    """The HTML page replaying ``log``; ``note`` is shown under the title (e.g. a tile set caveat)."""
    data = msgspec.json.encode(document(log)).replace(b"<", b"\\u003c").decode()
    template = resources.files("meeple.cli").joinpath("viewer.html").read_text(encoding="utf-8")
    return (template
            .replace("%TITLE%", escape(document_title(log)))
            .replace("%NOTE%", escape(note or ""))
            .replace("%DEFS%", DEFS)
            .replace("%SVGSTYLE%", STYLE)
            .replace("%DATA%", data))


def document_title(log: GameLog) -> str:
    first = log.events[0]
    assert isinstance(first, GameStarted)
    return f"meeple replay: {', '.join(p.colour for p in first.players)} ({len(log.events)} events)"
