"""Tiles and figures as SVG, drawn from the tile data alone: what ``meeple.cli.pictures.svg``
lays out as a board or a sheet and the HTML replay shows frame by frame.

Every tile is a 100 by 100 square, north up, drawn as its edition's look says
(``Edition.look``): its ground, then its paths as lines from edge to edge (or to a
crossing, a centre feature or an area), its areas as shapes reaching the edges they
hold, its centre feature and that feature's name, its symbols as small icons; then
the figures in player colours, the stronger ones half as big again, a figure on a
field lying down. Output is deterministic: the same state gives the same bytes, so
boards can be compared and pinned by snapshot tests.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from html import escape

from meeple.cli.pictures.looks import edition_of, is_large, roles, shown
from meeple.engine import Edition, GameState, Target, TileType
from meeple.events.text import escaped

T = 100  # tile size in user units
MARGIN = 28

COLOUR = {"red": "#d62828", "green": "#2b9348", "black": "#1d1d1d", "white": "#f5f5f5",
          "orange": "#f77f00", "blue": "#1d4ed8", "yellow": "#facc15"}
#: the figure every edition's players put down, drawn about its centre
FIGURE = ('<path id="meeple" d="M-2.6,-5.2 A3.8,3.8 0 1 1 2.6,-5.2 L8.2,-2.2 Q10.4,-0.4 8,1.2 '
          'L4.2,1.8 L7.4,9 L1.6,9 L0,5.4 L-1.6,9 L-7.4,9 L-4.2,1.8 L-8,1.2 Q-10.4,-0.4 -8.2,-2.2 Z"/>')
#: the order key of ``FIGURE`` among the editions' definitions (``Look.svg_defs``)
FIGURE_ORDER = 20

#: the style of what every picture holds, after the editions' own
STYLE = (
    ".axis{font:16px sans-serif;fill:#9aa4c7;text-anchor:middle}"
    ".label{font:12px sans-serif;fill:#dfe6ff;text-anchor:middle}"
    ".note{font:12px sans-serif;fill:#ffd166}"
    ".heading{font:bold 13px sans-serif;fill:#9aa4c7}"
    ".side-name,.legend-label{font:13px sans-serif;fill:#dfe6ff}"
    ".points{font:bold 13px sans-serif;fill:#dfe6ff;text-anchor:end}"
    ".winner{font:bold 13px sans-serif;fill:#ffd166}"
)


def defs_and_style(edition: Edition | None) -> tuple[str, str]:
    """The definitions and the style sheet of a picture of a game of ``edition``: the pieces
    of every edition it may show (``looks.shown``), by order key, and the shared ones."""
    editions = shown(edition)
    defs = sorted(_one_of_each_id(edition, editions))
    style = sorted({piece for e in editions for piece in e.look.svg_style})
    return "".join(text for _, text in defs), "".join(text for _, text in style) + STYLE


#: the ids a definition gives its elements
_ID = re.compile(r'(?<![\w-])id="([^"]*)"')


def _one_of_each_id(edition: Edition | None, editions: Sequence[Edition]) -> set[tuple[int, str]]:
    """The editions' definitions with no id given twice: where two editions define the same
    id (a plug-in's ``sym-pennant`` and the classic edition's), the game's own edition's
    piece is kept, then the first edition's to define it. The shared figure's definition comes
    first of all; a piece that gives an id already given is left out whole."""
    ordered = [e for e in editions if e is edition] + [e for e in editions if e is not edition]
    kept: set[tuple[int, str]] = {(FIGURE_ORDER, FIGURE)}
    taken: set[str] = set(_ID.findall(FIGURE))
    for each in ordered:
        for piece in each.look.svg_defs:
            ids = set(_ID.findall(piece[1]))
            if piece in kept or not ids & taken:
                kept.add(piece)
                taken |= ids
    return kept


Point = tuple[float, float]

#: characters XML 1.0 cannot hold even as references (control characters are escaped before)
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """Text from a log or tile set (a tile id, a feature's, set or player name) made safe for SVG
    character data and quoted attributes: control characters written as visible escapes,
    ``& < > " '`` as character references, anything XML cannot hold as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", escaped(value)), quote=True)


def _turn(p: Point, quarters: int) -> Point:
    """A point of a tile turned ``quarters`` quarter turns clockwise about its centre."""
    x, y = p
    for _ in range(quarters % 4):
        x, y = T - y, x
    return x, y


def _path(commands: list[tuple[str, list[Point]]], quarters: int) -> str:
    parts = []
    for op, points in commands:
        coords = " ".join(f"{_n(x)},{_n(y)}" for x, y in (_turn(p, quarters) for p in points))
        parts.append(f"{op}{coords}")
    return " ".join(parts) + " Z"


def _n(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


#: area outlines with their sides N (one side), N+E, N+S, N+E+W (three), all four
_CAP = [("M", [(0, 0)]), ("L", [(100, 0), (78, 24)]), ("Q", [(50, 36), (22, 24)])]
_CORNER = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100)]), ("Q", [(48, 52), (0, 0)])]
_BAND = [("M", [(0, 0)]), ("L", [(100, 0)]), ("Q", [(66, 50), (100, 100)]), ("L", [(0, 100)]),
         ("Q", [(34, 50), (0, 0)])]
_THREE = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100)]), ("Q", [(50, 58), (0, 100)])]
_FULL = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100), (0, 100)])]


def _field_shape(sides: tuple[int, ...]) -> tuple[list, int]:
    """The canonical outline of an area reaching ``sides`` and its quarter turns."""
    held = set(sides)
    if len(held) == 1:
        return _CAP, sides[0]
    if len(held) == 4:
        return _FULL, 0
    if len(held) == 3:
        missing = ({0, 1, 2, 3} - held).pop()
        return _THREE, missing - 2
    a, b = sorted(held)
    if b - a == 2:
        return _BAND, a
    return _CORNER, (3 if (a, b) == (0, 3) else a)


def _field_anchor(sides: tuple[int, ...], has_centre: bool) -> Point:
    held = set(sides)
    if len(held) == 1:
        return _turn((50, 13), sides[0])
    if len(held) == 4:
        return (50, 50) if not has_centre else (50, 16)
    if len(held) == 3:
        missing = ({0, 1, 2, 3} - held).pop()
        return _turn((50, 26), missing + 2)
    a, b = sorted(held)
    if b - a == 2:
        return _turn((50, 16), a) if has_centre else (50, 50)
    return _turn((76, 24), 3 if (a, b) == (0, 3) else a)


_MID = ((50, 0), (100, 50), (50, 100), (0, 50))


def _route_anchor(sides: tuple[int, ...]) -> Point:
    if len(sides) == 1:
        return _turn((50, 24), sides[0])
    a, b = sorted(sides)
    if b - a == 2:
        return _turn((50, 27), a)
    return _turn((62.5, 37.5), 3 if (a, b) == (0, 3) else a)


def _route_path(sides: tuple[int, ...], end: Point) -> str:
    start = _MID[sides[0]]
    finish = _MID[sides[1]] if len(sides) == 2 else end
    return f"M{_n(start[0])},{_n(start[1])} Q50,50 {_n(finish[0])},{_n(finish[1])}"


def anchors(tile: TileType, r: int, edition: Edition | None = None) -> list[Point]:
    """Where each feature's figure stands on the tile turned ``r`` quarter turns."""
    o = tile.orientations[r]
    has_centre = tile.centre >= 0
    role_of = roles(edition or edition_of(tile))
    found: list[Point] = []
    for f in tile.features:
        sides = o.feature_sides[f.index]
        role = role_of.get(f.kind)
        if role == "centre":
            found.append((50, 50))
        elif role == "path":
            found.append(_route_anchor(sides))
        elif role == "field":
            held = [p for p in range(12) if o.ports[p] == f.index]
            found.append(_HALF_POINT[held[0]] if held else (50, 50))
        else:
            found.append(_field_anchor(sides, has_centre))
    return found


#: where a figure on a field lies, by the first edge half its field touches (port index)
_HALF_POINT = {0: (27, 9), 2: (73, 9), 3: (91, 27), 5: (91, 73), 6: (73, 91), 8: (27, 91),
               9: (9, 73), 11: (9, 27)}


def tile_fragment(tile: TileType, r: int, edition: Edition | None = None) -> str:
    """The SVG of a tile type turned ``r`` quarter turns, in tile coordinates (0 to 100), as
    ``edition`` draws it (by default the edition whose edges and kinds the tile uses)."""
    edition = edition or edition_of(tile)
    look = edition.look
    role_of = roles(edition)
    o = tile.orientations[r]
    out = [look.svg_ground]
    routes = [f for f in tile.features if role_of.get(f.kind) == "path"]
    fields = [f for f in tile.features if role_of.get(f.kind) == "area"]
    has_centre = tile.centre >= 0
    hub = has_centre or len(routes) >= 3
    for f in routes:
        sides = o.feature_sides[f.index]
        end: Point = (50, 50)
        if len(sides) == 1 and not hub and fields:
            end = _turn((50, 30), o.feature_sides[fields[0].index][0])
        out.append(kind_svg(look, f.kind, _route_path(sides, end)))
    for f in fields:
        shape, quarters = _field_shape(o.feature_sides[f.index])
        out.append(kind_svg(look, f.kind, _path(shape, quarters)))
    if has_centre:
        centre = tile.features[tile.centre]
        out.append(kind_svg(look, centre.kind, ""))
        if centre.name and look.svg_name:
            out.append(look.svg_name.format(name=xml_text(centre.name)))
    elif len(routes) >= 3:
        fill, ring = look.svg_hub
        out.append(f'<circle cx="50" cy="50" r="8" fill="{fill}" stroke="{ring}" '
                   'stroke-width="3"><title>intersection</title></circle>')
    for symbol, (x, y) in symbol_points(tile, r, edition):
        name = look.symbol_names.get(symbol, symbol.replace("_", " "))
        out.append(f'<use href="#sym-{symbol}" x="{_n(x)}" y="{_n(y)}">'
                   f'<title>{xml_text(name)}</title></use>')
    return "".join(out)


def kind_svg(look, kind: str, d: str) -> str:
    """A feature of ``kind`` as its look draws it (``d``: its outline), or a plain outline."""
    drawn = look.svg_kinds.get(kind)
    if drawn is None:
        return f'<path fill="#888" stroke="#333" d="{d}"/>' if d else \
            '<circle cx="50" cy="50" r="15" fill="#888" stroke="#333"/>'
    return drawn.format(d=d)


def symbol_points(tile: TileType, r: int, edition: Edition | None = None) -> list[tuple[str, Point]]:
    """The symbols on a tile turned ``r`` quarter turns, each with the point it is drawn at."""
    edition = edition or edition_of(tile)
    spots = anchors(tile, r, edition)
    centre = edition.vocabulary.centre
    found = []
    for f in tile.features:
        if f.symbol:
            x, y = spots[f.index]
            found.append((f.symbol, (x - 16, y) if f.kind != centre else (x - 24, y - 24)))
    return found


#: where figures on a centre feature would stand, in order: its holder's, then those from
#: the tiles around (``Edition.attack``); ``laid_out`` moves any that would cover another or
#: the feature's name
_CENTRE_SLOTS = ((50, 44), (30, 58), (70, 58), (50, 64))

#: the meeple figure's outline about its centre (left, top, right, bottom), halo included
_FIGURE_BOX = (-12.6, -14.0, 12.6, 11.2)
LARGE = 1.45

Box = tuple[float, float, float, float]


def figure_box(point: Point, large: bool, lying: bool) -> Box:
    """The rectangle a figure drawn at ``point`` covers (a lying one turned a quarter clockwise)."""
    left, top, right, bottom = _FIGURE_BOX
    if lying:
        left, top, right, bottom = -bottom, left, -top, right
    k = LARGE if large else 1.0
    x, y = point
    return x + k * left, y + k * top, x + k * right, y + k * bottom


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def name_box(name: str) -> Box:
    """About where a centre feature's name is written under it (bold 11 px, centred at x 50, baseline 86)."""
    half = min(50.0, 3.4 * len(name) + 2)
    return 50 - half, 76.5, 50 + half, 89.5


def keep_out(tile: TileType, r: int, edition: Edition | None = None
             ) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
    """What figures on the tile must not cover (the centre feature's name), and what they had
    better not (the symbols)."""
    name = tile.features[tile.centre].name if tile.centre >= 0 else None
    hard = (name_box(name),) if name else ()
    soft = tuple((x - 8, y - 8, x + 8, y + 8) for _, (x, y) in symbol_points(tile, r, edition))
    return hard, soft


#: steps away from a wanted point, nearest first, over a grid of 2 units reaching any point of a tile
_STEPS = sorted(((dx, dy) for dx in range(-100, 101, 2) for dy in range(-100, 101, 2)),
                key=lambda d: (d[0] ** 2 + d[1] ** 2, d))


@functools.lru_cache(maxsize=4096)
def laid_out(wanted: tuple[tuple[Point, bool, bool], ...], hard: tuple[Box, ...],
             soft: tuple[Box, ...]) -> tuple[Point, ...]:
    """Where figures stand on one tile: each as near its wanted point (point, large, lying) as it
    can be while inside the tile, clear of the figures laid out before it and of the ``hard``
    boxes, and if it can be of the ``soft`` ones too. Deterministic."""
    placed: list[Box] = []
    found: list[Point] = []
    for (x, y), large, lying in wanted:
        best: tuple[float, float, int] | None = None
        best_point = (x, y)
        for dx, dy in _STEPS:
            box = figure_box((x + dx, y + dy), large, lying)
            if box[0] < 0 or box[1] < 0 or box[2] > T or box[3] > T:
                continue
            cost = (sum(_overlap(box, other) for other in [*placed, *hard]),
                    sum(_overlap(box, other) for other in soft), dx * dx + dy * dy)
            if best is None or cost < best:
                best, best_point = cost, (x + dx, y + dy)
            if cost[0] == cost[1] == 0:
                break
        found.append(best_point)
        placed.append(figure_box(best_point, large, lying))
    return tuple(found)


def meeple_spots(state: GameState, x: int, y: int) -> list[tuple[Point, str, str, str]]:
    """The figures on the tile at (x, y): local point, colour, figure, and the feature target.
    Figures sharing a tile are laid out apart and off the centre's name (``laid_out``)."""
    placed = state.board[(x, y)]
    realm = state.realms.realm
    here = [(index, colour, figure) for index, node in enumerate(placed.nodes)
            for colour, figure, where in realm(node).meeples if where == node]
    if not here:
        return []
    key = (id(placed.tile), placed.r, id(state.edition), tuple(here))
    kept = _KEPT.get(key)
    if kept is None or kept[0] is not placed.tile or kept[1] is not state.edition:
        if len(_KEPT) >= 4096:
            _KEPT.clear()
        kept = _KEPT[key] = (placed.tile, state.edition,
                             _spots(placed.tile, placed.r, state.edition, here))
    return list(kept[2])


#: ``meeple_spots`` already laid out, by tile, rotation, edition (by identity: the tile and
#: edition are kept with the answer, so an identity is never taken for another's) and figures
#: (a replay page asks it of every tile at every step)
_KEPT: dict[tuple, tuple[TileType, Edition, tuple[tuple[Point, str, str, str], ...]]] = {}


def _spots(tile: TileType, r: int, edition: Edition, here: Sequence[tuple[int, str, str]]
           ) -> tuple[tuple[Point, str, str, str], ...]:
    """``meeple_spots`` of a tile lying at ``r`` with figures ``here`` (node index, colour,
    figure)."""
    role_of = roles(edition)
    o = tile.orientations[r]
    spots = anchors(tile, r, edition)
    figures: list[tuple[str, str, str]] = []
    wanted: list[tuple[Point, bool, bool]] = []
    slot = 0
    for index, colour, figure in here:
        point = spots[index]
        role = role_of.get(tile.features[index].kind)
        if role == "centre":
            point = _CENTRE_SLOTS[min(slot, len(_CENTRE_SLOTS) - 1)]
            slot += 1
        figures.append((colour, figure, o.targets[index]))
        wanted.append((point, is_large(edition, figure), role == "field"))
    points = laid_out(tuple(wanted), *keep_out(tile, r, edition))
    return tuple((point, colour, figure, target) for point, (colour, figure, target)
                 in zip(points, figures, strict=True))


def lying(edition: Edition, target: str) -> bool:
    """Whether a figure on ``target`` lies down: one on a field."""
    return Target.of(target).kind == edition.vocabulary.field


def _luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (WCAG 2)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two ``#rrggbb`` colours, 1 to 21 (WCAG 2)."""
    lighter, darker = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


LIGHT, DARK = "#f4f4f4", "#101010"


def figure_colours(colour: str) -> tuple[str, str, str]:
    """A player's figure colours: fill, outline and halo. The outline is whichever of light and
    dark stands out more from the fill, the halo around it the other, so that a figure of any
    colour stands out on any ground, dark or light."""
    fill = COLOUR[colour]
    if contrast(fill, LIGHT) >= contrast(fill, DARK):
        return fill, LIGHT, DARK
    return fill, DARK, LIGHT


#: stroke widths of a figure's outline and of the halo drawn under it (tile units)
OUTLINE_WIDTH, HALO_WIDTH = 1.4, 4.6


def meeple_svg(px: float, py: float, colour: str, large: bool, title: str,
               lying: bool = False) -> str:
    """One figure centred at (px, py), outlined and haloed (``figure_colours``); a large one is
    drawn half as big again, one on a field lying down."""
    turn = " rotate(90)" if lying else ""
    fill, outline, halo = figure_colours(colour)
    return (f'<g class="figure" transform="translate({_n(px)},{_n(py)}) '
            f'scale({LARGE if large else 1}){turn}">'
            f'<title>{xml_text(title)}</title>'
            f'<use href="#meeple" class="halo" fill="none" stroke="{halo}" '
            f'stroke-width="{HALO_WIDTH}" stroke-linejoin="round"/>'
            f'<use href="#meeple" fill="{fill}" stroke="{outline}" stroke-width="{OUTLINE_WIDTH}" '
            'stroke-linejoin="round"/></g>')


def meeple_title(edition: Edition, colour: str, figure: str, target: str, x: int, y: int) -> str:
    """A figure's tooltip: its colour, what it is (its role on a field, else its kind where
    the edition has several), where it stands."""
    kind = Target.of(target).kind
    what = edition.figure if len(edition.figures) == 1 else f"{figure} {edition.figure}"
    if kind == edition.vocabulary.field:
        what = edition.roles.get(kind, what)
    return f"{colour} {what} on {target} at ({x}, {y})"


def tile_title(x: int, y: int, tile: TileType, r: int) -> str:
    """A placed tile's tooltip, as plain text (the SVG and the HTML page each escape it)."""
    return f"({x}, {y}) {escaped(tile.id)} turned {r * 90}"


def extent(cells) -> tuple[int, int, int, int]:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)
