"""The board as text (``meeple show``): tiles with their edges, realms, symbols and meeples.

A tile is a block of characters, 9 by 5 inside a dotted frame shared with its neighbours
(7 by 3 or 5 by 3 when the board would not fit the terminal, 3 by 3 without frames as the
last resort, or with ``--compact``). North is up; coordinates run along the margins.
Inside a tile:

- paths are lines, with box-drawing corners where they curve (``/`` and ``\\`` in ASCII);
  a crossing, where 3 or more of them meet, has its own glyph (heavy ``╋ ┳`` ..., ``+`` in
  ASCII), and a line that crosses a frame joins the next tile's;
- areas are filled ``▒`` (``#``), filled across a frame where the two tiles' areas meet;
  fields, in an edition that has them, fill the rest ``·`` (``,``);
- the centre feature and the symbols are drawn with the characters the edition's look
  gives them (``Look.glyphs``), the symbols in their feature;
- a figure is its colour's letter, ``r``, in capitals ``R`` for one that weighs more in a
  contest; a figure on a field lies in that field;
- the last placement has a double frame (``═ ║``; ``= !`` in ASCII; marked at its corners
  when the tiles have no frames);
- when a tile is in hand, each empty cell where it fits shows its label (``b``, see
  ``meeple.cli.labels``) and the rotations that fit there (``1 2 4``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from meeple.cli.pictures.looks import is_large, looked_up
from meeple.cli.pictures.tiletext import (
    ASCII,
    COMPACT,
    LETTER,
    SIZES,
    UNICODE,
    Cell,
    Glyphs,
    Grid,
    Size,
    draw,
    sides_named,
)
from meeple.engine import GameState
from meeple.events.text import escaped

#: (the tile drawing of ``tiletext`` is named here too, where the board's callers find it)
__all__ = ["ASCII", "COMPACT", "LETTER", "SIZES", "STYLE", "UNICODE", "Cell", "Glyphs", "Grid",
           "Size", "draw", "draw_tile", "legend", "pick_size", "render", "style_named", "to_plain",
           "to_rich"]

#: the terminal style of the players' colours and of what every board shows; a feature kind's
#: or a symbol's comes from the editions' looks (``Look.styles``)
STYLE = {"red": "bold red", "green": "bold green", "black": "bold bright_black",
         "white": "bold white", "orange": "bold dark_orange", "blue": "bold blue",
         "yellow": "bold yellow", "crossing": "bold bright_white",
         "grid": "grey35", "last": "bold magenta",
         "label": "bold black on yellow", "turns": "yellow"}


def legend(state: GameState, *, unicode: bool = False, compact: bool = False) -> str:
    """What the glyphs of the board mean in this game's edition (its vocabulary, symbols,
    figures and colours), drawn as the board was, in lines of at most 80 columns; the labels
    of the legal cells are explained when a tile is in hand."""
    from meeple.cli.labels import spots

    edition = state.edition
    words = edition.vocabulary
    look = edition.look
    g = UNICODE if unicode else ASCII
    line = g.line
    paths = f"{words.path}s"
    curves = " ".join(line[sides_named(k)] for k in ("ES", "SW", "NW", "NE"))
    crossing = "╋ ┳" if unicode else "+"
    lines = [f"{paths} {line[sides_named('EW')]} {line[sides_named('NS')]}; curves {curves}; "
             f"crossing {crossing} (3 or more {paths} meet there); "
             f"{words.centre} {look.glyphs.get(words.centre, '@')}"]
    area = look.legend_words.get(words.area, words.area)
    areas = [f"{area} {g.area}"]
    if words.field:
        areas.append(f"{words.field} {g.field}")
    symbols = dict.fromkeys(f.symbol for t in state.tileset.types.values() for f in t.features
                            if f.symbol)
    named = [f"{look.glyphs.get(symbol, '?')} {escaped(symbol).replace('_', ' ')}"
             for symbol in symbols]
    if len(named) == 1:
        areas.append(named[0][2:] + " " + named[0][0])
    elif named:
        areas.append(f"{edition.symbols}: " + "  ".join(named))
    lines.append("; ".join(areas))
    letters = [LETTER.get(c, "?") for c in state.players]
    who = ", ".join(f"{letter} {colour}" for letter, colour in zip(letters, state.players,
                                                                    strict=True))
    noun = f"{edition.figure}s"
    if len(edition.figures) > 1:
        small = "/".join(f.name for f in edition.figures if f.strength <= 1)
        large = "/".join(f.name for f in edition.figures if f.strength > 1)
        kinds = [f"{small} {' '.join(letters)}"] if small else []
        if large:
            kinds.append(f"{large} {' '.join(letter.upper() for letter in letters)}")
        lines.append(f"{noun}: {who}; " + ", ".join(kinds))
    else:
        role = edition.roles.get(words.field or "", edition.figure)
        lines.append(f"{noun}: {who}" + (f"; on a {words.field}: a {role}" if words.field
                                          else ""))
    if compact:
        last = "shown reversed" if unicode else f"{g.last[1]} at two corners"
    else:
        last = f"double frame {g.last[1]} {g.last[0]}" if unicode \
            else f"frame of {g.last[1]} and {g.last[0]}"
    lines.append(f"last placement: {last}")
    if spots(state):
        lines += ["a b c ...: the cells where the tile in hand fits, over the rotations that "
                  "fit there; b2 names cell b, rotation 2 (1 2 3 4 = 0 90 180 270° "
                  "clockwise)"]
    return "\n".join(textwrap.fill(text, width=80, break_on_hyphens=False,
                                   subsequent_indent="  ") for text in lines)



def draw_tile(state: GameState, x: int, y: int, *, unicode: bool, size: Size = SIZES[0]) -> Grid:
    """The characters of the tile at (x, y), with its meeples."""
    placed = state.board[(x, y)]
    meeples = [
        (colour, is_large(state.edition, figure), index)
        for index, node in enumerate(placed.nodes)
        for colour, figure, where in state.realms.realm(node).meeples
        if where == node
    ]
    return draw(placed.tile, placed.r, meeples, unicode=unicode, size=size, edition=state.edition)


def _spot_cell(name: str, turns: Sequence[int], size: Size) -> Grid:
    """An empty cell where the tile in hand fits: its label and the rotations that fit."""
    grid: Grid = [[(" ", None)] * size.width for _ in range(size.height)]
    mid = size.height // 2
    shown = name.center(size.width)[:size.width]
    start = (size.width - len(name)) // 2
    for col, ch in enumerate(shown):
        grid[mid][col] = (ch, "label" if start <= col < start + len(name) else None)
    if size.height > 1 + mid:
        numbers = " ".join(str(t // 90 + 1) for t in turns)
        if len(numbers) > size.width:
            numbers = numbers.replace(" ", "")
        if len(numbers) > size.width:  # all four in a cell of 3
            numbers = "1-4"
        for col, ch in enumerate(numbers.center(size.width)[:size.width]):
            if ch != " ":
                grid[mid + 1][col] = (ch, "turns")
    return grid


#: lines a terminal keeps for the legend and the lines around the board
_BESIDE = 8


def pick_size(state: GameState, width: int, height: int | None = None) -> Size:
    """The largest tile size whose board fits ``width`` columns (and, given a terminal's
    ``height``, its lines with the legend); 3 by 3 unframed if none does."""
    x0, x1, y0, y1 = _bounds(state)
    margin = max(len(str(y0)), len(str(y1))) + 1
    for size in SIZES:
        tall = (y1 - y0 + 1) * (size.height + 1) + 2
        if margin + (x1 - x0 + 1) * (size.width + 1) + 1 <= width and (
                height is None or tall + _BESIDE <= height or size == SIZES[-1]):
            return size
    return COMPACT


def _bounds(state: GameState) -> tuple[int, int, int, int]:
    from meeple.cli.labels import cell_labels

    cells = [*state.board, *cell_labels(state).values()]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), max(xs), min(ys), max(ys)


def render(state: GameState, *, width: int, unicode: bool, highlight: tuple[int, int] | None,
           compact: bool | None = None, height: int | None = None,
           size: Size | None = None) -> Grid:
    """The whole board with coordinate margins, as rows of styled characters: framed tiles of
    the largest size that fits ``width`` and ``height`` (see ``pick_size``; 3 by 3 unframed
    with ``compact``; or the ``size`` given), the last
    placement ``highlight`` marked, and the label of each legal cell of the tile in hand."""
    from meeple.cli.labels import shown_spots

    g = UNICODE if unicode else ASCII
    if size is None:
        size = COMPACT if compact else pick_size(state, width, height)
    labelled = {(x, y): (name, turns) for name, (x, y, turns) in shown_spots(state).items()}
    x0, x1, y0, y1 = _bounds(state)
    margin = max(len(str(y0)), len(str(y1))) + 1
    framed = size.framed
    step_c, step_r = size.width + framed, size.height + framed
    cols = range(x0, x1 + 1)
    rows = range(y1, y0 - 1, -1)
    body_w = len(cols) * step_c + framed
    body: Grid = [[(" ", None)] * body_w for _ in range(len(rows) * step_r + framed)]
    grids: dict[tuple[int, int], Grid] = {}
    for j, y in enumerate(rows):
        for i, x in enumerate(cols):
            if (x, y) in state.board:
                tile = draw_tile(state, x, y, unicode=unicode, size=size)
            elif (x, y) in labelled:
                tile = _spot_cell(*labelled[(x, y)], size)
            else:
                continue
            grids[(x, y)] = tile
            top, left = j * step_r + framed, i * step_c + framed
            for r, line in enumerate(tile):
                body[top + r][left:left + size.width] = line
    if framed:
        _frames(body, grids, cols, rows, size, g, highlight)
    elif highlight in grids:
        i, j = highlight[0] - x0, y1 - highlight[1]
        top, left = j * step_r, i * step_c
        for r in range(size.height):
            for c in range(size.width):
                ch, style = body[top + r][left + c]
                if unicode:
                    body[top + r][left + c] = (ch, f"{STYLE.get(style or '', style or '')} "
                                                   "reverse".strip())
                elif (r, c) in ((0, 0), (size.height - 1, size.width - 1)):
                    body[top + r][left + c] = (g.last[1], "last")
    header: list[Cell] = [(" ", None)] * (margin + framed)
    # a column number wider than its cell is written whole, over as many cells as it needs
    # (and the next ones it would run into are left blank), never cut
    span = size.width + framed
    every = -(-(max(len(str(cols.start)), len(str(cols.stop - 1))) + 1) // span)
    for n, x in enumerate(cols):
        if n % every:
            continue
        text = str(x).center(size.width) if len(str(x)) < size.width else f"{x} "
        header += [(ch, "dim") for ch in text.ljust(span * every)[:span * every]]
    lines: Grid = [header]
    for n, line in enumerate(body):
        j, r = divmod(n - framed, step_r)
        text = str(rows[j]) if 0 <= j < len(rows) and r == size.height // 2 else ""
        lines.append([(ch, "dim") for ch in text.rjust(margin - 1)] + [(" ", None)] + line)
    return lines


def _frames(body: Grid, grids: dict[tuple[int, int], Grid], cols: range, rows: range,
            size: Size, g: Glyphs, highlight: tuple[int, int] | None) -> None:
    """Draw the frames between tiles: dotted, double around the last placement; a route or
    an area that crosses a frame from one tile into the next is drawn across it."""
    step_c, step_r = size.width + 1, size.height + 1

    def at(x: int, y: int, r: int, c: int) -> Cell | None:
        tile = grids.get((x, y))
        return tile[r][c] if tile is not None else None

    def across(a: Cell | None, b: Cell | None, line: str) -> Cell | None:
        """What fills a frame character between two facing characters of neighbours."""
        if a is None or b is None:
            return None
        if a[0] == b[0] == g.area and a[1] == b[1]:
            return (g.area, a[1])
        if a[0] in g.line.values() and b[0] in g.line.values() and a[1] == b[1] \
                and a[0] == line == b[0]:
            return (line, a[1])
        return None

    def frame(cell: tuple[int, int], part: int, corner: int = 0) -> Cell:
        """A frame character of the tile at ``cell``: 0 vertical, 1 horizontal, 2 a corner
        (``corner`` 0 to 3: NW, NE, SW, SE)."""
        if highlight is not None and cell == highlight:
            return (g.last[part + corner], "last")
        return (g.frame[part], "grid")

    horizontal = g.line[sides_named("EW")]
    vertical = g.line[sides_named("NS")]
    for j, y in enumerate(rows):
        for i, x in enumerate(cols):
            top, left = j * step_r, i * step_c
            here = (x, y) in grids
            west = (x - 1, y) in grids
            north = (x, y + 1) in grids
            if here or west:  # the frame to the west of (x, y)
                owner = (x, y) if highlight == (x, y) or not west else (x - 1, y)
                for r in range(size.height):
                    filled = across(at(x - 1, y, r, size.width - 1), at(x, y, r, 0), horizontal)
                    body[top + 1 + r][left] = filled or frame(owner, 0)
            if here or north:  # the frame to the north
                owner = (x, y) if highlight == (x, y) or not north else (x, y + 1)
                for c in range(size.width):
                    filled = across(at(x, y + 1, size.height - 1, c), at(x, y, 0, c), vertical)
                    body[top][left + 1 + c] = filled or frame(owner, 1)
            if here:  # the east and south frames of the board's edge, and the corners
                if i == len(cols) - 1 or (x + 1, y) not in grids:
                    for r in range(size.height):
                        body[top + 1 + r][left + step_c] = frame((x, y), 0)
                if j == len(rows) - 1 or (x, y - 1) not in grids:
                    for c in range(size.width):
                        body[top + step_r][left + 1 + c] = frame((x, y), 1)
                for corner, (dr, dc) in enumerate(((0, 0), (0, step_c), (step_r, 0),
                                                   (step_r, step_c))):
                    if body[top + dr][left + dc][1] != "last":
                        body[top + dr][left + dc] = frame((x, y), 2, corner)


def to_plain(lines: Grid) -> str:
    """The board as plain text lines, each cell's control characters escaped."""
    return "\n".join(escaped("".join(ch for ch, _ in row)).rstrip() for row in lines)


def to_rich(lines: Grid):
    """The board as styled rich text for a terminal (colours dropped under NO_COLOR by rich);
    each cell's control characters escaped, since rich passes ESC through."""
    from rich.text import Text

    text = Text()
    for i, row in enumerate(lines):
        if i:
            text.append("\n")
        for ch, style in row:
            shown = ch if ch.isprintable() else escaped(ch)
            text.append(shown, style=style_named(style) if style else None)
    return text


def style_named(name: str) -> str:
    """The terminal style a cell names: a colour's or the board's own, else a feature kind's
    or a symbol's from the editions' looks, else the name as a style."""
    return STYLE.get(name) or looked_up("styles", name) or name
