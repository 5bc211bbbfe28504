"""One Target type: every name a tile answers to reads back as itself, in any case (SW-4.1,
CL-4)."""

import pytest

from meeple.engine import EDITIONS, InvalidCommand, Target, compile_tileset
from meeple.events.tileset import bundled


@pytest.mark.parametrize("name", ["star-wars", "classic"])
def test_every_alias_of_every_tile_parses_to_itself_in_any_case(name):
    edition = EDITIONS[name]
    tileset = compile_tileset(bundled(name))
    seen = 0
    for tile in tileset.types.values():
        for o in tile.orientations:
            for alias in o.aliases:
                for typed in (alias, alias.upper(), alias.lower()):
                    target = Target.parse(typed, edition)
                    assert target.feature == alias and str(target) == alias
                    assert Target.of(alias) == target
                seen += 1
    assert seen > 100


def test_an_attack_names_its_cell():
    edition = EDITIONS["star-wars"]
    target = Target.parse(" PLANET@-3,12 ", edition)
    assert (target.kind, target.where, target.cell) == ("planet", None, (-3, 12))
    assert str(target) == "planet@-3,12" and Target.of("planet@-3,12") == target


@pytest.mark.parametrize("text", ["", "route:", "route:E@1,2", "planet@1", "route E", "9:E"])
def test_what_is_no_target_is_refused_with_the_editions_syntax(text):
    with pytest.raises(InvalidCommand, match="targets are route:E") as exc:
        Target.parse(text, EDITIONS["star-wars"])
    assert exc.value.rule == "SW-4.1"


@pytest.mark.parametrize("text", ["city:Q", "road:North", "field:nx", "field:NN"])
def test_what_follows_the_colon_if_no_edge_half_or_inner_is_said_so(text):
    words = Target.parse(text, EDITIONS["classic"]).edge_words()
    assert "which is no edge (N E S W), edge half" in words


def test_a_field_touching_no_edge_is_said_so():
    assert Target.parse("FIELD:Inner", EDITIONS["classic"]).edge_words() == " touching no edge"
    assert Target.parse("field:nW", EDITIONS["classic"]).edge_words() == " at edge half Nw"
    assert Target.parse("city:n", EDITIONS["classic"]).edge_words() == " on its N edge"
