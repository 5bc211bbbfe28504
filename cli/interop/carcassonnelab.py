"""CarcassonneLab links (``https://www.carcassonnelab.com/#/0/0/{tiles}/{moves}``), the way
games played on Board Game Arena are shared, read into and written from a 2-player classic
game without La Fiesta (CL-1 to CL-6; docs/guide/interop.md).

``tiles`` are Board Game Arena's tile types (1-24, the start tile first), read as one
base-24 number of type - 1 digits, written in octal, two octal digits to a URL-safe base64
character. ``moves`` are 4 characters a turn: column, row and rotation in the 57-letter
alphabet (the rotation, in quarter turns clockwise, +16 for a negative column and +32 for a
negative row), then the follower's zone digit (0: none). Board Game Arena's rows grow south.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import parse_qs, quote

from meeple.cli.interop.moves import Refused, Turn
from meeple.cli.interop.tilemap import BGA_TURNED, BGA_TYPES, bga_type, classic_tiles, spots

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
SITE = "https://www.carcassonnelab.com/"
START_TYPE = 15
MAX_LINK = 64 << 10
#: the most turns a base game has (71 tiles after the start tile)
MAX_TURNS = 71
#: Board Game Arena's tiles by meeple's letter, as Board Game Arena lays them unturned: the
#: edges N E S W (City, Road, Field) and, by zone digit from 1, the feature each digit names
#: (its kind and one side or edge half it reaches; None: a digit the tile does not use).
#: Read from the public decoder of Board Game Arena logs in docs/guide/interop.md;
#: ``check_tiles`` holds every entry to meeple's own tile data.
BGA_TILES: dict[str, tuple[str, tuple[tuple[str, str] | None, ...]]] = {
    "D": ("CRFR", (("road", "E"), ("city", "N"), ("field", "En"), ("field", "Es"))),
    "B": ("FFFF", (("cloister", ""), ("field", "Nw"))),
    "A": ("FFRF", (("cloister", ""), ("road", "S"), ("field", "Nw"))),
    "L": ("CRRR", (("road", "W"), ("road", "E"), ("road", "S"), ("city", "N"), ("field", "En"),
                   ("field", "Sw"), ("field", "Se"))),
    "P": ("CRRC", (("road", "E"), ("city", "N"), ("field", "En"), ("field", "Es"))),
    "O": ("CRRC", (("road", "E"), ("city", "N"), ("field", "En"), ("field", "Es"))),
    "U": ("RFRF", (("road", "N"), None, ("field", "Nw"), ("field", "Ne"))),
    "E": ("CFFF", (("city", "N"), ("field", "En"))),
    "I": ("CFFC", (("city", "N"), ("city", "W"), ("field", "En"))),
    "W": ("FRRR", (("road", "W"), ("road", "E"), ("road", "S"), ("field", "Nw"), ("field", "Sw"),
                   ("field", "Se"))),
    "V": ("FFRR", (("road", "W"), ("field", "Nw"), ("field", "Sw"))),
    "X": ("RRRR", (("road", "W"), ("road", "E"), ("road", "S"), ("road", "N"), ("field", "Nw"),
                   ("field", "Ne"), ("field", "Se"), ("field", "Sw"))),
    "G": ("FCFC", (("city", "E"), ("field", "Nw"), ("field", "Se"))),
    "F": ("FCFC", (("city", "E"), ("field", "Nw"), ("field", "Se"))),
    "K": ("CFRR", (("road", "W"), ("city", "N"), ("field", "En"), ("field", "Sw"))),
    "J": ("CRRF", (("road", "E"), ("city", "N"), ("field", "En"), ("field", "Es"))),
    "R": ("CCFC", (("city", "N"), ("field", "Se"))),
    "Q": ("CCFC", (("city", "N"), ("field", "Se"))),
    "H": ("CFCF", (("city", "N"), ("city", "S"), ("field", "En"))),
    "T": ("CCRC", (("road", "S"), ("city", "N"), ("field", "Sw"), ("field", "Se"))),
    "S": ("CCRC", (("road", "S"), ("city", "N"), ("field", "Sw"), ("field", "Se"))),
    "N": ("CFFC", (("city", "N"), ("field", "En"))),
    "M": ("CFFC", (("city", "N"), ("field", "En"))),
    "C": ("CCCC", (("city", "N"),)),
}


@cache
def zones(letter: str) -> tuple[int | None, ...]:
    """The feature index (in meeple's tile data) each zone digit of ``letter`` names, from
    digit 1; checked against meeple's tile data (``check_tiles``)."""
    tile = classic_tiles()[letter]
    turned = BGA_TURNED.get(letter, 0)
    edges, named = BGA_TILES[letter]
    mine = "".join(getattr(tile.edges, side)[0].upper() for side in "NESW")
    mine = "".join(mine[(i - turned // 90) % 4] for i in range(4))
    if mine != edges:
        raise AssertionError(f"tile {letter}: Board Game Arena's edges {edges}, meeple's {mine}")
    laid = spots(tile, turned)
    found: list[int | None] = []
    for entry in named:
        if entry is None:
            found.append(None)
            continue
        kind, atom = entry
        hits = [i for i, spot in enumerate(laid)
                if spot.kind == kind and (atom in spot.atoms or kind == "cloister")]
        if len(hits) != 1:
            raise AssertionError(f"tile {letter}: zone {len(found) + 1} names {len(hits)} features")
        found.append(hits[0])
    if sorted(i for i in found if i is not None) != list(range(len(laid))):
        raise AssertionError(f"tile {letter}: the zones do not name each feature once")
    return tuple(found)


def check_tiles() -> None:
    """Every Board Game Arena tile against meeple's tile data (raises AssertionError)."""
    assert sorted(BGA_TILES) == sorted(BGA_TYPES)
    for letter in BGA_TILES:
        zones(letter)


def _rotation(letter: str, quarter_turns: int) -> int:
    return (BGA_TURNED.get(letter, 0) + 90 * quarter_turns) % 360


def fragment_of(link: str) -> tuple[str, dict[str, list[str]]]:
    """The ``#/...`` path of a link (or of the fragment alone) and its query."""
    if len(link) > MAX_LINK:
        raise Refused(f"the link is longer than the limit of {MAX_LINK:,} characters")
    link = link.strip()
    _, hash_, rest = link.partition("#")
    path = rest if hash_ else link
    path, _, query = path.partition("?")
    try:
        fields = parse_qs(query, strict_parsing=False, max_num_fields=8)
    except ValueError:
        raise Refused("the link's query: too many fields") from None
    return path, fields


def read_link(link: str) -> tuple[list[str], list[str] | None, list[Turn]]:
    """The players' names, their colours if the link gives them, and the turns of a link.

    :raises Refused: naming what is wrong and where.
    """
    path, query = fragment_of(link)
    parts = path.split("/")
    if len(parts) != 5 or parts[0] != "":
        raise Refused("not a CarcassonneLab link: expected #/0/0/TILES/MOVES")
    _, version, variant, tiles, moves = parts
    if version != "0" or variant != "0":
        raise Refused(f"CarcassonneLab format {version}/{variant[:10]}: meeple reads 0/0")
    if not tiles or any(c not in BASE64 for c in tiles):
        raise Refused("the tiles: not URL-safe base64")
    if len(moves) % 4:
        raise Refused(f"the moves: {len(moves)} characters, not 4 a turn (a truncated link?)")
    count = len(moves) // 4
    if not 1 <= count <= MAX_TURNS:
        raise Refused(f"the moves: {count} turns; a base game has 1 to {MAX_TURNS}")
    types = _types(tiles, count + 1)
    if types[0] != START_TYPE:
        raise Refused(f"the tiles: the first is type {types[0]}, not the start tile ({START_TYPE})")
    turns = [_move(moves[4 * i:4 * i + 4], BGA_TYPES[types[i + 1] - 1], i + 1)
             for i in range(count)]
    names = _listed(query, "players")
    colours = _listed(query, "colors")
    if names is None:
        names = ["player 1", "player 2"]
    if len(names) != 2 or colours is not None and len(colours) != 2:
        raise Refused("the link's players: a CarcassonneLab game has 2 players")
    return names, colours, turns


def _listed(query: dict[str, list[str]], key: str) -> list[str] | None:
    values = query.get(key)
    if not values:
        return None
    return values[-1].split(",")


def _types(tiles: str, count: int) -> list[int]:
    octal = "".join(format(BASE64.index(c), "02o") for c in tiles)
    value = int(octal, 8)
    if value >= 24 ** count or (count > 1 and value < 24 ** (count - 1)) or encode_tiles(
            _digits(value, count)) != tiles:
        raise Refused(f"the tiles: they do not hold {count} tile types for {count - 1} moves "
                      "(a truncated or altered link?)")
    return _digits(value, count)


def _digits(value: int, count: int) -> list[int]:
    digits = []
    for _ in range(count):
        value, digit = divmod(value, 24)
        digits.append(digit + 1)
    return digits[::-1]


def encode_tiles(types: list[int]) -> str:
    value = 0
    for kind in types:
        value = value * 24 + kind - 1
    octal = format(value, "o")
    if len(octal) % 2:
        octal = "0" + octal
    return "".join(BASE64[int(octal[i:i + 2], 8)] for i in range(0, len(octal), 2))


def _move(text: str, letter: str, number: int) -> Turn:
    where = f"move {number} ({text!r})"
    if any(c not in ALPHABET for c in text[:3]) or not text[3].isdigit():
        raise Refused(f"{where}: a character outside the link's alphabet")
    column, row, turned = (ALPHABET.index(c) for c in text[:3])
    if turned & 16:
        column = -column
    if turned & 32:
        row = -row
    quarter = turned & ~48
    if quarter > 3 or (turned & 16 and column == 0) or (turned & 32 and row == 0):
        raise Refused(f"{where}: no such rotation or sign")
    rotation = _rotation(letter, quarter)
    zone = int(text[3])
    target = None
    if zone:
        order = zones(letter)
        index = order[zone - 1] if zone <= len(order) else None
        if index is None:
            raise Refused(f"{where}: zone {zone} names nothing on tile type {bga_type(letter)}")
        target = spots(classic_tiles()[letter], rotation)[index].target
    return Turn(letter, column, -row, rotation, target)


def write_link(names: list[str], colours: list[str], turns: list[Turn]) -> str:
    """The CarcassonneLab link of a 2-player base game's turns."""
    types = [START_TYPE] + [bga_type(turn.tile) for turn in turns]
    moves = []
    for number, turn in enumerate(turns, 1):
        column, row = turn.x, -turn.y
        if max(abs(column), abs(row)) >= len(ALPHABET):
            raise Refused(f"turn {number}: a tile too far from the start for a link")
        quarter = ((turn.rotation - BGA_TURNED.get(turn.tile, 0)) % 360) // 90
        turned = quarter + (16 if column < 0 else 0) + (32 if row < 0 else 0)
        zone = 0
        if turn.target is not None:
            laid = spots(classic_tiles()[turn.tile], turn.rotation)
            index = next(i for i, spot in enumerate(laid) if spot.target == turn.target)
            zone = zones(turn.tile).index(index) + 1
        moves.append(ALPHABET[abs(column)] + ALPHABET[abs(row)] + ALPHABET[turned] + str(zone))
    query = "players=" + ",".join(quote(n, safe="~()*!.'-_") for n in names)
    query += "&colors=" + ",".join(quote(c, safe="") for c in colours)
    return f"{SITE}#/0/0/{encode_tiles(types)}/{''.join(moves)}?{query}"
