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
from typing import NamedTuple

from meeple.cli.pictures.looks import edition_of, is_large, looked_up, roles
from meeple.engine import Edition, GameState, TileType
from meeple.events.text import escaped

LETTER = {"red": "r", "green": "g", "black": "k", "white": "w", "orange": "o", "blue": "b",
          "yellow": "y"}
#: the terminal style of the players' colours and of what every board shows; a feature kind's
#: or a symbol's comes from the editions' looks (``Look.styles``)
STYLE = {"red": "bold red", "green": "bold green", "black": "bold bright_black",
         "white": "bold white", "orange": "bold dark_orange", "blue": "bold blue",
         "yellow": "bold yellow", "crossing": "bold bright_white",
         "grid": "grey35", "last": "bold magenta",
         "label": "bold black on yellow", "turns": "yellow"}

N, E, S, W = range(4)
#: (row, column) step towards each side
_TOWARDS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class Glyphs(NamedTuple):
    """The characters of one way of drawing: on a terminal, or plain ASCII."""

    #: a route cell by the sides it joins (a frozenset of N E S W)
    line: dict[frozenset[int], str]
    #: a crossing by the sides its routes leave through
    crossing: dict[frozenset[int], str]
    area: str
    field: str
    #: a frame: vertical, horizontal, corner
    frame: tuple[str, str, str]
    #: the last placement's frame: vertical, horizontal, corners NW, NE, SW, SE
    last: tuple[str, str, str, str, str, str]


def _sides(text: str) -> frozenset[int]:
    return frozenset("NESW".index(letter) for letter in text)


UNICODE = Glyphs(
    line={_sides(k): v for k, v in {"NS": "│", "EW": "─", "NE": "└", "ES": "┌", "SW": "┐",
                                    "NW": "┘", "N": "│", "S": "│", "E": "─", "W": "─"}.items()},
    crossing={_sides(k): v for k, v in {"NES": "┣", "ESW": "┳", "NSW": "┫", "NEW": "┻",
                                        "NESW": "╋"}.items()},
    area="▒", field="·", frame=("┆", "┄", "┼"), last=("║", "═", "╔", "╗", "╚", "╝"),
)
ASCII = Glyphs(
    line={_sides(k): v for k, v in {"NS": "|", "EW": "-", "NE": "\\", "ES": "/", "SW": "\\",
                                    "NW": "/", "N": "|", "S": "|", "E": "-", "W": "-"}.items()},
    crossing={},
    area="#", field=",", frame=(":", ".", "."), last=("!", "=", "=", "=", "=", "="),
)


class Size(NamedTuple):
    """The characters inside one tile, and whether tiles have frames between them."""

    width: int
    height: int
    framed: bool


#: the sizes tried in turn, the largest that fits the terminal first
SIZES = (Size(9, 5, True), Size(7, 3, True), Size(5, 3, True))
COMPACT = Size(3, 3, False)

Cell = tuple[str, str | None]
Grid = list[list[Cell]]


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
    curves = " ".join(line[_sides(k)] for k in ("ES", "SW", "NW", "NE"))
    crossing = "╋ ┳" if unicode else "+"
    lines = [f"{paths} {line[_sides('EW')]} {line[_sides('NS')]}; curves {curves}; "
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


def _distances(row: int, col: int, size: Size) -> tuple[float, float, float, float]:
    """How far a character lies from each side, N E S W, as a fraction of the tile."""
    h, w = size.height - 1, size.width - 1
    return (row / h, (w - col) / w, (h - row) / h, col / w)


def _areas(tile: TileType, r: int, size: Size, role_of: dict[str, str]) -> list[list[int]]:
    """The area feature each character of the tile belongs to, or -1.

    Each character goes to the side it lies nearest (an area of one side is a cap, of two
    sides that meet a corner half); an area joining opposite sides is also the band between
    them. Two areas never touch: where they would, the one reaching more sides gives way.
    """
    o = tile.orientations[r]
    of_side: dict[int, int] = {}
    reach: dict[int, tuple[int, ...]] = {}
    for feature in tile.features:
        if role_of.get(feature.kind) == "area":
            reach[feature.index] = o.feature_sides[feature.index]
            for side in reach[feature.index]:
                of_side[side] = feature.index
    owner = [[-1] * size.width for _ in range(size.height)]
    if not reach:
        return owner
    h, w = size.height - 1, size.width - 1
    for row in range(size.height):
        for col in range(size.width):
            d = _distances(row, col, size)
            rival = min((d[s] for s in range(4) if s not in of_side), default=2.0)
            scores = sorted((min(d[s] for s in sides), len(sides), f) for f, sides in reach.items())
            score, count, best = scores[0]
            if len(scores) > 1 and scores[1][0] == score:
                continue
            if score < rival or score == rival and count > 1:
                owner[row][col] = best
            for f, sides in reach.items():  # the band between opposite sides
                if owner[row][col] < 0 and len(sides) == 2 and (
                        {N, S} == set(sides) and abs(col / w - 0.5) < 0.3
                        or {E, W} == set(sides) and abs(row / h - 0.5) < 0.3):
                    owner[row][col] = f
            mine = owner[row][col]
            if mine >= 0 and any(d[s] == 0 for s in range(4) if s not in of_side) and not any(
                    d[s] == 0 for s in reach[mine]):
                owner[row][col] = -1  # the rim of a side without area keeps that side's look
    weight = {f: (len(sides), f) for f, sides in reach.items()}
    for row in range(size.height):  # keep two areas apart
        for col in range(size.width):
            mine = owner[row][col]
            if mine >= 0 and any(
                    0 <= row + dr < size.height and 0 <= col + dc < size.width
                    and owner[row + dr][col + dc] not in (-1, mine)
                    and weight[owner[row + dr][col + dc]] < weight[mine] for dr, dc in _TOWARDS):
                owner[row][col] = -1
    return owner


def _port(side: int, size: Size) -> tuple[int, int]:
    """The character where a route leaves the tile through ``side``."""
    mid_r, mid_c = size.height // 2, size.width // 2
    return ((0, mid_c), (mid_r, size.width - 1), (size.height - 1, mid_c), (mid_r, 0))[side]


def _paths(tile: TileType, r: int, size: Size, role_of: dict[str, str]
           ) -> tuple[dict[tuple[int, int], set[int]], dict[tuple[int, int], int], bool]:
    """The route characters of a tile: the sides each one joins, the feature each belongs to,
    and whether the centre is a crossing (3 or more routes meet there)."""
    o = tile.orientations[r]
    centre = (size.height // 2, size.width // 2)
    joins: dict[tuple[int, int], set[int]] = {}
    owner: dict[tuple[int, int], int] = {}

    def link(a: tuple[int, int], b: tuple[int, int], feature: int) -> None:
        """Join two characters of one row or column with a straight line."""
        while a != b:
            step = ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))
            side = _TOWARDS.index(step)
            nxt = (a[0] + step[0], a[1] + step[1])
            joins.setdefault(a, set()).add(side)
            joins.setdefault(nxt, set()).add((side + 2) % 4)
            owner.setdefault(a, feature)
            owner.setdefault(nxt, feature)
            a = nxt

    routes = [f for f in tile.features if role_of.get(f.kind) == "path"]
    crossing = tile.centre < 0 and len(routes) >= 3
    through = tile.centre < 0 and not crossing
    centre_taken = False
    for f in routes:
        sides = o.feature_sides[f.index]
        for side in sides:  # each route's arm from its edge inwards
            port = _port(side, size)
            joins.setdefault(port, set()).add(side)
            dr, dc = _TOWARDS[side]
            inner = (centre[0] + dr, centre[1] + dc)
            link(port, inner, f.index)
            owner.setdefault(port, f.index)
        if crossing or tile.centre >= 0:
            for side in sides:
                dr, dc = _TOWARDS[side]
                link((centre[0] + dr, centre[1] + dc), centre, f.index)
        elif len(sides) >= 2 and through and not centre_taken:
            centre_taken = True
            for side in sides:
                dr, dc = _TOWARDS[side]
                link((centre[0] + dr, centre[1] + dc), centre, f.index)
        elif len(sides) == 2:  # a second curve bends around the centre
            a, b = sides
            if (a + 2) % 4 != b:
                ra, ca = _TOWARDS[a]
                rb, cb = _TOWARDS[b]
                corner = (centre[0] + ra + rb, centre[1] + ca + cb)
                link((centre[0] + ra, centre[1] + ca), corner, f.index)
                link(corner, (centre[0] + rb, centre[1] + cb), f.index)
    if tile.centre >= 0:
        joins.pop(centre, None)
        owner.pop(centre, None)
    return joins, owner, crossing


def draw(tile: TileType, r: int, meeples: Sequence[tuple[str, bool, int]], *, unicode: bool,
         size: Size = SIZES[0], edition: Edition | None = None) -> Grid:
    """The characters of a tile type turned ``r`` quarter turns, with its figures (colour,
    large, feature index), as ``edition`` draws it (by default the edition whose edges and
    kinds the tile uses): areas filled, paths joined, centre feature, symbol."""
    edition = edition or edition_of(tile)
    glyphs = edition.look.glyphs
    role_of = roles(edition)
    g = UNICODE if unicode else ASCII
    h, w = size.height, size.width
    centre = (h // 2, w // 2)
    field = edition.vocabulary.field
    fields = any(f.kind == field for f in tile.features)
    ground: Cell = (g.field, field) if fields else (" ", None)
    grid: Grid = [[ground] * w for _ in range(h)]
    areas = _areas(tile, r, size, role_of)
    owner: dict[tuple[int, int], int] = {}
    for row in range(h):
        for col in range(w):
            f = areas[row][col]
            if f >= 0:
                grid[row][col] = (g.area, tile.features[f].kind)
                owner[(row, col)] = f
    joins, route_of, crossing = _paths(tile, r, size, role_of)
    for cell, sides in joins.items():
        kind = tile.features[route_of[cell]].kind
        if cell == centre and crossing:
            grid[cell[0]][cell[1]] = (g.crossing.get(frozenset(sides), "+"), "crossing")
        else:
            shape = frozenset(sides)
            grid[cell[0]][cell[1]] = (g.line.get(shape, "+"), kind)
        owner[cell] = route_of[cell]
    if tile.centre >= 0:
        kind = tile.features[tile.centre].kind
        grid[centre[0]][centre[1]] = (glyphs.get(kind, "@"), kind)
        owner[centre] = tile.centre
    used: set[tuple[int, int]] = {centre} if tile.centre >= 0 else set()
    for colour, large, index in meeples:
        letter = LETTER.get(colour, "?")
        cell = _spot(tile, r, index, size, owner, used, role_of)
        used.add(cell)
        grid[cell[0]][cell[1]] = (letter.upper() if large else letter, colour)
    for feature in tile.features:
        if feature.symbol:
            cell = _spot(tile, r, feature.index, size, owner, used, role_of, symbol=True)
            used.add(cell)
            grid[cell[0]][cell[1]] = (glyphs.get(feature.symbol, "?"), feature.symbol)
    return grid


def _spot(tile: TileType, r: int, index: int, size: Size, owner: dict[tuple[int, int], int],
          used: set[tuple[int, int]], role_of: dict[str, str], *,
          symbol: bool = False) -> tuple[int, int]:
    """Where a figure (or a symbol) of feature ``index`` is drawn: in the feature, nearest a
    point that suits its role (a path's arm, an area's middle, beside the centre feature, the
    edge half a field starts from), in a character nothing else marks yet."""
    h, w = size.height, size.width
    centre = (h // 2, w // 2)
    o = tile.orientations[r]
    kind = role_of.get(tile.features[index].kind)
    sides = o.feature_sides[index]
    inset_r, inset_c = (1 if h >= 5 else 0), (1 if w >= 5 else 0)
    if kind == "centre":
        wanted = [(0, -1)] if symbol else [(0, 1), (-1, 1), (1, 1), (-1, -1), (1, -1), (0, -1)]
        for clear in (True, False):
            for dr, dc in wanted:
                cell = (centre[0] + dr, centre[1] + dc)
                if 0 <= cell[0] < h and 0 <= cell[1] < w and cell not in used and not (
                        clear and cell in owner):
                    return cell
        return centre
    if kind == "field":
        held = [p for p in range(12) if o.ports[p] == index]
        if held:
            side, pos = divmod(held[0], 3)
            quarter_r, quarter_c = max(1, h // 4), max(1, w // 4)
            aim = ((inset_r, centre[1] - quarter_c if pos == 0 else centre[1] + quarter_c),
                   (centre[0] - quarter_r if pos == 0 else centre[0] + quarter_r, w - 1 - inset_c),
                   (h - 1 - inset_r, centre[1] + quarter_c if pos == 0 else centre[1] - quarter_c),
                   (centre[0] + quarter_r if pos == 0 else centre[0] - quarter_r, inset_c))[side]
        else:
            aim = (centre[0], centre[1] + max(1, w // 4))
        mine = [(rw, cl) for rw in range(h) for cl in range(w) if (rw, cl) not in owner]
    else:
        side = sides[0] if sides else 0
        port = _port(side, size)
        if kind == "path":
            aim = ((port[0] + centre[0]) // 2, (port[1] + centre[1]) // 2)
            if symbol:  # beside the route, not on it
                dr, dc = _TOWARDS[(side + 1) % 4]
                aim = (aim[0] + dr, aim[1] + dc)
                mine = [(rw, cl) for rw in range(h) for cl in range(w)
                        if owner.get((rw, cl), -1) in (-1, index)]
            else:
                mine = [cell for cell, f in owner.items() if f == index]
        else:
            aim = ((port[0] + centre[0]) // 2, (port[1] + centre[1]) // 2)
            mine = [cell for cell, f in owner.items() if f == index]
    free = [cell for cell in mine if cell not in used] or \
        [(rw, cl) for rw in range(h) for cl in range(w) if (rw, cl) not in used] or [centre]
    return min(free, key=lambda cell: (abs(cell[0] - aim[0]) + abs(cell[1] - aim[1]), cell))


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
    from meeple.cli.labels import spots

    g = UNICODE if unicode else ASCII
    if size is None:
        size = COMPACT if compact else pick_size(state, width, height)
    labelled = {(x, y): (name, turns) for name, (x, y, turns) in spots(state).items()}
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

    horizontal = g.line[_sides("EW")]
    vertical = g.line[_sides("NS")]
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
            text.append(shown, style=_style(style) if style else None)
    return text


def _style(name: str) -> str:
    """The terminal style a cell names: a colour's or the board's own, else a feature kind's
    or a symbol's from the editions' looks, else the name as a style."""
    return STYLE.get(name) or looked_up("styles", name) or name
