"""The board as text (``meeple show``): tiles with their edges, realms, symbols and meeples.

Each tile is 5 characters by 3 lines (3 by 3 when the board would not fit the
terminal): routes ``-`` and ``|`` (box-drawing lines on a terminal), asteroid
fields ``#``, planets ``@``, intersections ``+``, faction symbols ``^`` rebel,
``%`` empire, ``$`` bounty hunters, meeples by colour letter (``r g k w o``,
capital for a large one). The classic game reads the same way: roads like
routes, cities ``#`` with pennants ``*``, cloisters ``C``, followers ``r g b y k``
(a farmer stands at the edge half of its field). North is up; coordinates run
along the margins.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.engine import GameState
from meeple.events.text import escaped

LETTER = {"red": "r", "green": "g", "black": "k", "white": "w", "orange": "o", "blue": "b",
          "yellow": "y"}
SYMBOL = {"rebel": "^", "empire": "%", "bounty_hunter": "$", "pennant": "*"}
#: what each feature kind plays, in either edition
ROLE = {"route": "path", "road": "path", "asteroid": "area", "city": "area", "planet": "centre",
        "cloister": "centre", "field": "field"}
STYLE = {"red": "bold red", "green": "bold green", "black": "bold bright_black",
         "white": "bold white", "orange": "bold dark_orange", "blue": "bold blue",
         "yellow": "bold yellow", "pennant": "bold blue", "cloister": "bold red",
         "rebel": "red", "empire": "cyan", "bounty_hunter": "yellow",
         "route": "bright_white", "asteroid": "grey50", "planet": "bold blue"}
#: box-drawing character for a route joining the centre to these sides (N, E, S, W)
BOX = {
    frozenset("NS"): "│", frozenset("EW"): "─", frozenset("NE"): "└", frozenset("ES"): "┌",
    frozenset("SW"): "┐", frozenset("NW"): "┘", frozenset("NES"): "├", frozenset("ESW"): "┬",
    frozenset("NSW"): "┤", frozenset("NEW"): "┴", frozenset("NESW"): "┼",
}
#: the glyph of each centre feature
CENTRE = {"planet": "@", "cloister": "C"}


def legend(state: GameState) -> str:
    """What the glyphs of the board mean in this game's edition and tile set, in lines of at
    most 80 columns."""
    import textwrap

    edition = state.edition
    words = edition.vocabulary
    area = "asteroid field" if words.area == "asteroid" else words.area
    parts = [f"{words.path} - |", f"{area} #",
             f"{words.centre} {CENTRE.get(words.centre, '@')}", "crossing +"]
    symbols = dict.fromkeys(f.symbol for t in state.tileset.types.values() for f in t.features
                            if f.symbol)
    parts += [f"{SYMBOL.get(symbol, '?')} {escaped(symbol).replace('_', ' ')}"
              for symbol in symbols]
    noun = edition.figure + "s"
    parts.append(f"{noun} " + " ".join(LETTER.get(c, "?") for c in state.players)
                 + (" (capital: large)" if len(edition.figures) > 1 else ""))
    if words.field is not None:
        parts.append("a farmer stands at its field's edge half")
    return textwrap.fill(" · ".join(parts), width=80, break_on_hyphens=False)


Cell = tuple[str, str | None]
_SIDE_POS = ((0, 2), (1, 4), (2, 2), (1, 0))
_PLANET_SLOTS = ((1, 3), (2, 3), (0, 3), (2, 1))
#: where a farmer stands, by the first edge half of its field (port index); inner: centre right
_HALF_POS = {0: (0, 1), 2: (0, 3), 3: (0, 4), 5: (2, 4), 6: (2, 3), 8: (2, 1), 9: (2, 0), 11: (0, 0)}


def draw_tile(state: GameState, x: int, y: int, *, unicode: bool) -> list[list[Cell]]:
    """The 3 by 5 character cells of the tile at (x, y), with its meeples."""
    placed = state.board[(x, y)]
    meeples = [
        (colour, figure == "large", index)
        for index, node in enumerate(placed.nodes)
        for colour, figure, where in state.realms.realm(node).meeples
        if where == node
    ]
    return draw(placed.tile, placed.r, meeples, unicode=unicode)


def draw(tile, r: int, meeples: Sequence[tuple[str, bool, int]], *,
         unicode: bool) -> list[list[Cell]]:
    """The 3 by 5 character cells of a tile type turned ``r`` quarter turns."""
    o = tile.orientations[r]
    g: list[list[Cell]] = [[(" ", None)] * 5 for _ in range(3)]
    for side, kind in enumerate(o.edges):
        row, col = _SIDE_POS[side]
        role = ROLE.get(kind)
        if role == "path":
            g[row][col] = ("|" if side in (0, 2) else "-", "route")
        elif role == "area":
            cells = [(row, c) for c in (1, 2, 3)] if side in (0, 2) else [(q, col) for q in range(3)]
            for q, c in cells:
                g[q][c] = ("#", "asteroid")
    for q, c in ((0, 0), (0, 4), (2, 0), (2, 4)):
        vertical = "N" if q == 0 else "S"
        horizontal = "W" if c == 0 else "E"
        if ROLE.get(o.edges["NESW".index(vertical)]) == "area" and g[q][c][0] == "#":
            continue
        if g[q][c][0] == "#" and ROLE.get(o.edges["NESW".index(horizontal)]) != "area":
            g[q][c] = (" ", None)
    g[1][2] = _centre(tile, o, unicode)
    symbols = [f.symbol for f in tile.features if f.symbol]
    if symbols:
        g[1][1] = (SYMBOL[symbols[0]], symbols[0])
    slot = 0
    for colour, large, index in meeples:
        letter = LETTER[colour].upper() if large else LETTER[colour]
        feature = tile.features[index]
        role = ROLE.get(feature.kind)
        if role == "centre":
            q, c = _PLANET_SLOTS[min(slot, 3)]
            slot += 1
        elif role == "field":
            held = [p for p in range(12) if o.ports[p] == index]
            q, c = _HALF_POS[held[0]] if held else (1, 3)
        else:
            q, c = _SIDE_POS[o.feature_sides[index][0]]
        g[q][c] = (letter, colour)
    return g


def _centre(tile, o, unicode: bool) -> Cell:
    if tile.planet >= 0:
        kind = tile.features[tile.planet].kind
        return (CENTRE.get(kind, "@"), kind)
    routes = [f for f in tile.features if ROLE.get(f.kind) == "path"]
    fields = [f for f in tile.features if ROLE.get(f.kind) == "area"]
    if routes and any(len(f.sides) == 1 for f in routes) and fields:
        return ("#", "asteroid")
    if routes:
        joined = frozenset("NESW"[s] for f in routes for s in o.feature_sides[f.index])
        if len(routes) >= 3 or len(joined) > 2:
            return (BOX.get(joined, "+") if unicode else "+", "route")
        if unicode:
            return (BOX.get(joined, "+"), "route")
        return ({frozenset("NS"): "|", frozenset("EW"): "-"}.get(joined, "+"), "route")
    if any(len(f.sides) >= 2 for f in fields):
        return ("#", "asteroid")
    return (" ", None)


def render(state: GameState, *, width: int, unicode: bool, highlight: tuple[int, int] | None,
           compact: bool | None = None) -> list[list[Cell]]:
    """The whole board with coordinate margins, as rows of styled cells."""
    xs = [x for x, _ in state.board]
    ys = [y for _, y in state.board]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    margin = max(len(str(y0)), len(str(y1))) + 1
    if compact is None:
        compact = margin + (x1 - x0 + 1) * 5 > width
    cols = (0, 2, 4) if compact else (0, 1, 2, 3, 4)
    step = len(cols)
    lines: list[list[Cell]] = []
    header: list[Cell] = [(" ", None)] * margin
    for x in range(x0, x1 + 1):
        label = str(x)
        header += [(ch, "dim") for ch in label.center(step)[:step]]
    lines.append(header)
    for y in range(y1, y0 - 1, -1):
        block: list[list[Cell]] = [[] for _ in range(3)]
        for r in range(3):
            label = str(y) if r == 1 else ""
            block[r] = [(ch, "dim") for ch in label.rjust(margin - 1)] + [(" ", None)]
        for x in range(x0, x1 + 1):
            if (x, y) in state.board:
                tile = draw_tile(state, x, y, unicode=unicode)
                if (x, y) == highlight:
                    tile = _highlight(tile, unicode)
            else:
                tile = [[(" ", None)] * 5 for _ in range(3)]
            for r in range(3):
                block[r] += [tile[r][c] for c in cols]
        lines.extend(block)
    return lines


def _highlight(tile: list[list[Cell]], unicode: bool) -> list[list[Cell]]:
    if unicode:
        return [[(ch, f"{style or ''} reverse".strip()) for ch, style in row] for row in tile]
    tile[0][0] = ("*", None)
    tile[2][4] = ("*", None)
    return tile


def to_plain(lines: list[list[Cell]]) -> str:
    """The board as plain text lines, each cell's control characters escaped."""
    return "\n".join(escaped("".join(ch for ch, _ in row)).rstrip() for row in lines)


def to_rich(lines: list[list[Cell]]):
    """The board as styled rich text for a terminal (colours dropped under NO_COLOR by rich);
    each cell's control characters escaped, since rich passes ESC through."""
    from rich.text import Text

    text = Text()
    for i, row in enumerate(lines):
        if i:
            text.append("\n")
        for ch, style in row:
            shown = ch if ch.isprintable() else escaped(ch)
            text.append(shown, style=STYLE.get(style, style) if style else None)
    return text
