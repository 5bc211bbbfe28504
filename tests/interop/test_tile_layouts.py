"""The tile mapping against JCloisterZone's own tile definitions (tests/interop/data/SOURCES.md):
each JCloisterZone id's features, as its XML names them, are those of meeple's tile turned as
``JCZ_TURNED`` says; the pennants and the counts of ``basic:1`` agree."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from meeple.cli.interop.tilemap import (
    JCZ_BASE,
    JCZ_FIESTA,
    JCZ_TURNED,
    classic_tiles,
    read_location,
    spots,
)

DATA = Path(__file__).parent / "data"
KINDS = {"road": "Road", "city": "City", "field": "Field", "monastery": "Monastery"}


def _layouts(name: str) -> tuple[dict, dict]:
    root = ET.parse(DATA / name).getroot()
    layouts, pennants = {}, {}
    for tile in root.iter("tile"):
        found = []
        for element in tile:
            if element.tag not in KINDS:
                continue
            text = " ".join((element.text or "I").split())
            location = ".".join(sorted(text.split(), key=_order)) if element.tag == "field" \
                else _sides(text)
            read = read_location(KINDS[element.tag], "I" if element.tag == "monastery" else location)
            assert read is not None, (tile.get("id"), element.tag, text)
            found.append((read[0], tuple(sorted(read[1]))))
        layouts[tile.get("id")] = sorted(found)
        pennants[tile.get("id")] = any(e.get("pennants") for e in tile if e.tag == "city")
    return layouts, pennants


def _order(half: str) -> int:
    return ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "I"].index(half)


def _sides(text: str) -> str:
    from meeple.cli.interop.tilemap import jcz_sides

    return jcz_sides(frozenset(text.split())) if text != "I" else "I"


def _meeple(letter: str) -> list:
    laid = spots(classic_tiles(True)[letter], JCZ_TURNED.get(letter, 0))
    return sorted((s.kind, tuple(sorted(s.atoms))) for s in laid)


@pytest.mark.parametrize("source, mapping", [("basic.xml", JCZ_BASE),
                                             ("festival.xml", JCZ_FIESTA)])
def test_every_mapped_tile_has_meeples_layout(source, mapping):
    layouts, pennants = _layouts(source)
    for jcz, letter in mapping.items():
        assert layouts[jcz] == _meeple(letter), (jcz, letter)
        tile = classic_tiles(True)[letter]
        assert pennants[jcz] == any(f.pennant for f in tile.features), jcz


def test_a_turn_is_needed_where_it_is_said():
    layouts, _ = _layouts("festival.xml")
    for letter in JCZ_TURNED:
        laid = sorted((s.kind, tuple(sorted(s.atoms)))
                      for s in spots(classic_tiles(True)[letter], 0))
        assert layouts[letter.replace("-", "/")] != laid


def test_the_counts_of_the_basic_set():
    root = ET.parse(DATA / "basic.xml").getroot()
    counts = {ref.get("tile"): int(ref.get("count")) for ts in root.iter("tile-set")
              if ts.get("id") == "basic:1" for ref in ts.iter("ref")}
    assert counts == {jcz: classic_tiles()[letter].count for jcz, letter in JCZ_BASE.items()}


def test_board_game_arenas_tiles_have_meeples_layouts():
    """Each of Board Game Arena's 24 types: its edges are meeple's tile's (type 16, U, turned
    a quarter) and each zone digit names one feature, every feature once."""
    from meeple.cli.interop.carcassonnelab import BGA_TILES, check_tiles, zones

    check_tiles()
    assert sum(len([z for z in zones(letter) if z is not None]) for letter in BGA_TILES) == \
        sum(len(classic_tiles()[letter].features) for letter in BGA_TILES)
