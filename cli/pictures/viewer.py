"""A game as one self-contained HTML page that replays it (``meeple export --html``).

The page holds the whole game as data: the SVG of every tile type and rotation
that was laid, and one frame per event (board, meeples, scores, reserves, tiles
drawn, battle, and at a scoring the cells of the realm it pays for and of the
cities a realm counted). Its script only shows frames; every figure comes from
folding the log here, the way ``check`` and ``show`` do. No network, scripts or
fonts from outside: the file opens offline. The layout fits a phone's width as
well as a desktop's; each step's board is drawn at the extent of the game up to
that line, so early steps fill the frame too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from importlib import resources

import msgspec

from meeple.cli.history import undone_seqs
from meeple.cli.output import json_safe
from meeple.cli.pictures.narrate import realm_name, tell
from meeple.cli.pictures.svgtile import (
    HALO_WIDTH,
    LARGE,
    OUTLINE_WIDTH,
    T,
    defs_and_style,
    figure_colours,
    is_large,
    lying,
    meeple_spots,
    meeple_title,
    tile_fragment,
    tile_title,
)
from meeple.engine import Edition, Game, GameState, edition_named, realm_extent, walk
from meeple.events.model import (
    BattleEnded,
    BattleStarted,
    DiceRolled,
    Event,
    GameStarted,
    PointsScored,
    Redone,
    TilePlaced,
    TurnEnded,
    Undone,
)
from meeple.events.text import escaped


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
                self.fragment_svg.append(tile_fragment(placed.tile, placed.r, state.edition))
            found = self.placements[key] = len(self.placement_rows)
            self.placement_rows.append([x, y, frag, tile_title(x, y, placed.tile, placed.r)])
        return found


def _reserve(state: GameState, left: dict[str, int]) -> list[int]:
    """A player's figures left: the everyday kind's, and the other kinds' together."""
    everyday, *others = state.edition.figures
    return [left.get(everyday.name, 0), sum(left.get(f.name, 0) for f in others)]


def _reserve_words(edition: Edition) -> dict[str, str]:
    """How the score table shows a reserve of several kinds of figure (``4 + 1L``): the mark
    after the other kinds' count (the initial of the second kind where there are two) and
    the cell's title."""
    everyday, *others = edition.figures
    mark = others[0].name[0].upper() if len(others) == 1 else "+"
    return {"mark": mark, "title": f"{escaped(edition.figure)}s in reserve: {everyday.name} + "
            + " and ".join(f.name for f in others)}


def _frame(state: GameState, tables: _Tables, battle: dict | None,
           scored: dict | None = None) -> dict:
    board = [tables.placement(state, x, y) for (x, y) in state.board]
    meeples = []
    for (x, y) in state.board:
        for (px, py), colour, figure, target in meeple_spots(state, x, y):
            meeples.append([x, y, px, py, colour, int(is_large(state.edition, figure)),
                            meeple_title(state.edition, colour, figure, target, x, y),
                            int(lying(state.edition, target))])
    total = state.tileset.total() - 1
    return {
        "b": board,
        "m": meeples,
        "hl": list(state.placed_at) if state.placed_at else None,
        "s": [state.scores[s] for s in state.sides],
        "r": [_reserve(state, left) for left in (state.reserve[c] for c in state.players)],
        "turn": state.turn,
        "player": state.player,
        "drawn": total - state.tiles_left(),
        "left": state.tiles_left(),
        "battle": battle,
        "winners": list(state.winners) if state.winners else None,
        "scored": scored,
    }


def scored_cells(state: GameState, event: PointsScored) -> dict:
    """What a scoring pays for, to be highlighted on its frame: the cells of the realm (``realm``)
    and, for a scoring that counts cities (``PointsScored.cities``), the cells of each
    completed city it counted (``cities``), from the state the scoring was made in
    (``realm_extent``)."""
    found = realm_extent(state, event.realm)
    return {"realm": found["tiles"], "cities": [city["tiles"] for city in found.get("cities", [])]}


#: the most tiles a replay page may draw over all its frames (``page_size``; a 76-tile game
#: needs about 20,000): the cost of a page grows with events times board size, so a very long
#: game is refused
PAGE_BUDGET = 2_000_000


class PageTooLarge(Exception):
    """A game too long to make into one replay page at a bounded cost."""


def page_size(events: Sequence[Event]) -> tuple[int, int]:
    """The most tiles a board of a log holds, and the most tiles its replay page could draw
    over all its frames, counted from the lines alone (no rule applied, so a log at its
    limits is measured in a fraction of a second).

    Each ``tile_placed`` begins an undo step of its own, so an undo whose steps name its seq
    takes that tile away and a redo naming it puts it back. The page draws the board at every
    line after the first, and at a scoring the cells of the realm and of each city it counted
    again, each at most the board."""
    placements: set[int] = set()
    on_board: set[int] = set()
    most = size = 0
    for event in events[1:]:
        if isinstance(event, TilePlaced):
            placements.add(event.seq)
            on_board.add(event.seq)
        elif isinstance(event, Undone):
            on_board.difference_update(event.steps)
        elif isinstance(event, Redone):
            on_board.update(placements.intersection(event.steps))
        board = 1 + len(on_board)  # the start tile too
        most = max(most, board)
        # (a forged negative count must not shrink the measure: the rules refuse it later)
        size += board * (2 + max(0, event.cities)) if isinstance(event, PointsScored) \
            else board
    return most, size


def refuse_too_large(events: Sequence[Event]) -> None:
    """:raises PageTooLarge: when the page of ``events`` could pass ``PAGE_BUDGET``
    (``page_size``), naming the game's size and the limit."""
    most, size = page_size(events)
    if size > PAGE_BUDGET:
        raise PageTooLarge(f"the game is too long for one replay page: its {len(events):,} "
                           f"lines, on a board of up to {most:,} tiles, would draw up to "
                           f"{size:,} tiles over the page's frames, and a page holds at most "
                           f"{PAGE_BUDGET:,}: use `meeple replay` and `meeple show --turn N` "
                           "instead")


class Frames:
    """The frames of a game's page, made as a walk of its log passes (a visitor of
    ``meeple.engine.check.verify``, so that ``export --html`` walks the log once): each
    distinct frame once (``frames``), the frame of each event (``frame_of``), and the state
    at the end. Measure the log with ``refuse_too_large`` before it is walked so."""

    def __init__(self) -> None:
        self.tables = _Tables()
        self.frames = _Interned()
        self.frame_of: list[int] = []
        self.battle: dict | None = None
        self.state: GameState | None = None
        self.events = 0

    def __call__(self, event: Event, state: GameState) -> None:
        self.events += 1
        self.state = state
        if isinstance(event, GameStarted):
            self.frame_of.append(self.frames.index(msgspec.json.encode(
                _frame(state, self.tables, None))))
            return
        scored = scored_cells(state, event) if isinstance(event, PointsScored) else None
        battle = self.battle
        if isinstance(event, BattleStarted):
            battle = {"realm": escaped(realm_name(event.realm, state.edition)),
                      "sides": [[s.side, s.dice] for s in event.sides], "rounds": [],
                      "winner": None}
        elif isinstance(event, DiceRolled) and battle is not None:
            battle["rounds"].append([[r.side, list(r.values)] for r in event.rolls])
        elif isinstance(event, BattleEnded) and battle is not None:
            battle["winner"] = event.winner
        elif isinstance(event, TurnEnded | Undone):
            battle = None
        self.battle = battle
        frame = _frame(state, self.tables, None if battle is None else _copy(battle), scored)
        self.frame_of.append(self.frames.index(msgspec.json.encode(frame)))


def document(log: Game, made: Frames | None = None) -> dict:
    """The data the page shows: a frame for each event of the log, in order.

    Frames that repeat (an undo brings back an earlier board) are stored once, and the
    sentences told about events once each, so a long log of undo/redo pairs makes a page of
    the size of its events, not of its boards: ``frames`` holds each distinct frame (as
    encoded JSON), ``frame_of`` the frame of each event (by seq), ``texts`` each distinct
    sentence and ``text_of`` each event's (in a remote game, naming the seat that signed its
    line), ``flags`` each event's (1 undone, 2 turn end), ``hashes`` the line hashes end to
    end (64 hex digits each). ``made``: the frames a walk of the log made already
    (``Frames``, the visitor of the walk that loaded it); without them the log is walked here.
    """
    events = log.events
    first = events[0]
    assert isinstance(first, GameStarted)
    refuse_too_large(events)
    if made is None or made.events != len(events):
        made = Frames()
        walk(events, visit=made)
    state = made.state
    assert state is not None
    tables, frames, frame_of = made.tables, made.frames, made.frame_of
    #: whether the edition has several kinds of figure, shown as "everyday + others" in reserves
    large = len(state.edition.figures) > 1
    sides = []
    for side in state.sides:
        members = [j for j, c in enumerate(state.players) if state.side_of[c] == side]
        names = [escaped(state.name_of(state.players[j])) for j in members]
        label = side if names == [side] else f"{side} ({', '.join(names)})"
        sides.append({"side": side, "label": label, "players": members})
    undone = undone_seqs(events, state)
    texts = _Interned()
    signers = log.signers  # a remote game's: each line's sentence names who signed it
    text_of = [texts.index(tell(e, state.edition) if signers is None or e.seq >= len(signers)
                           else f"{tell(e, state.edition)} [signed by "
                           f"{state.players[signers[e.seq]]}]") for e in events]
    flags = [(1 if e.seq in undone else 0) | (2 if isinstance(e, TurnEnded) else 0)
             for e in events]
    ts = state.tileset
    return {
        "title": f"meeple game: {', '.join(p.colour for p in first.players)}",
        "tileset": {"name": escaped(ts.name), "status": ts.status, "sha256": ts.sha256},
        "head": log.head,
        "tile": T,
        "large": large,
        "reserve": _reserve_words(state.edition),
        "fragments": tables.fragment_svg,
        "placements": tables.placement_rows,
        "sides": sides,
        "players": [dict(zip(("fill", "outline", "halo"), figure_colours(c), strict=True),
                         colour=c, name=escaped(state.name_of(c))) for c in state.players],
        "figure": {"large": LARGE, "outline": OUTLINE_WIDTH, "halo": HALO_WIDTH},
        "texts": texts.values,
        "text_of": text_of,
        "flags": flags,
        "hashes": "".join(log.hashes),
        "frames": [msgspec.Raw(frame) for frame in frames.values],
        "frame_of": frame_of,
    }


class _Interned:
    """Values kept once each, referred to by index."""

    def __init__(self) -> None:
        self.values: list = []
        self._index: dict = {}

    def index(self, value) -> int:
        found = self._index.get(value)
        if found is None:
            found = self._index[value] = len(self.values)
            self.values.append(value)
        return found


def _copy(battle: dict) -> dict:
    return {**battle, "rounds": list(battle["rounds"])}


#: characters written as ``\\uXXXX`` in the JSON inside the page's script element: ``<`` so
#: that no ``</script>`` or ``<!--`` in a name can end or bend it, the others for good measure
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                  "\u2029": "\\u2029"}
_SLOTS = re.compile("%(TITLE|NOTE|DEFS|SVGSTYLE|DATA)%")


def script_json(value: object) -> str:
    """``value`` as JSON that can stand inside an HTML ``<script>`` element: no ``<``, ``>``,
    ``&``, U+2028 or U+2029 in it (each written as a ``\\uXXXX`` escape, same value)."""
    text = json_safe(msgspec.json.encode(value).decode())
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_UNSAFE[m.group()], text)


def page(log: Game, *, note: str | None, made: Frames | None = None) -> str:
    """The HTML page replaying ``log``; ``note`` is shown under the title (e.g. a tile set caveat)."""
    return "".join(page_parts(log, note=note, made=made))


def page_parts(log: Game, *, note: str | None, made: Frames | None = None) -> list[str]:
    """The page in pieces, to be written one after the other (a long log's data is not
    copied into one more string).

    Text from the log reaches the page only HTML-escaped, or as JSON data (``script_json``)
    that the page's script puts into the document as text, never as markup. The template's
    slots are filled in one pass, so no text can fill another slot.
    """
    template = resources.files("meeple.cli.pictures").joinpath("viewer.html").read_text(encoding="utf-8")
    first = log.events[0]
    assert isinstance(first, GameStarted)
    defs, style = defs_and_style(edition_named(first.edition))
    slots = {"TITLE": escape(escaped(document_title(log))), "NOTE": escape(escaped(note or "")),
             "DEFS": defs, "SVGSTYLE": style, "DATA": script_json(document(log, made))}
    pieces = _SLOTS.split(template)  # text, slot name, text, slot name, ..., text
    return [slots[piece] if i % 2 else piece for i, piece in enumerate(pieces)]


def document_title(log: Game) -> str:
    first = log.events[0]
    assert isinstance(first, GameStarted)
    return f"meeple replay: {', '.join(p.colour for p in first.players)} ({len(log.events)} lines)"
