"""One tile drawn in characters: the glyphs of a terminal and of plain ASCII, the tile sizes,
and ``draw``, which fills a tile's areas, joins its paths, marks its centre feature, symbols
and figures as its edition's look gives them (``Edition.look``). ``meeple.cli.pictures.board``
lays the tiles out as a board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from meeple.cli.pictures.looks import edition_of, roles
from meeple.engine import Edition, TileType
from meeple.events.memo import by_identity

LETTER = {"red": "r", "green": "g", "black": "k", "white": "w", "orange": "o", "blue": "b",
          "yellow": "y"}

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


def sides_named(text: str) -> frozenset[int]:
    return frozenset("NESW".index(letter) for letter in text)


UNICODE = Glyphs(
    line={sides_named(k): v for k, v in {"NS": "│", "EW": "─", "NE": "└", "ES": "┌", "SW": "┐",
                                    "NW": "┘", "N": "│", "S": "│", "E": "─", "W": "─"}.items()},
    crossing={sides_named(k): v for k, v in {"NES": "┣", "ESW": "┳", "NSW": "┫", "NEW": "┻",
                                        "NESW": "╋"}.items()},
    area="▒", field="·", frame=("┆", "┄", "┼"), last=("║", "═", "╔", "╗", "╚", "╝"),
)
ASCII = Glyphs(
    line={sides_named(k): v for k, v in {"NS": "|", "EW": "-", "NE": "\\", "ES": "/", "SW": "\\",
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


def _distances(row: int, col: int, size: Size) -> tuple[float, float, float, float]:
    """How far a character lies from each side, N E S W, as a fraction of the tile."""
    h, w = size.height - 1, size.width - 1
    return (row / h, (w - col) / w, (h - row) / h, col / w)


def _areas(tile: TileType, r: int, size: Size, role_of: dict[str, str]
           ) -> tuple[tuple[int, ...], ...]:
    """``_layout``, kept for each tile (the tile in hand is drawn at every ``status``, and a
    board shows the same tile types again and again)."""
    kept = _laid_out(tile)
    key = (r, size, tuple(sorted(role_of.items())))
    found = kept.get(key)
    if found is None:
        found = kept[key] = tuple(map(tuple, _layout(tile, r, size, role_of)))
    return found


@by_identity(256)
def _laid_out(tile: TileType) -> dict[tuple, tuple[tuple[int, ...], ...]]:
    """The area grids of ``tile`` laid out so far, by rotation, size and roles."""
    return {}


def _layout(tile: TileType, r: int, size: Size, role_of: dict[str, str]) -> list[list[int]]:
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
