"""Tile sets are hostile until checked: bounded counts, sizes and text (issue: trust under
attack, section 1 and 2); a bundled name on other content is shown as a modified copy."""

import importlib.resources
import re

import msgspec
import pytest

from meeple.engine import InvalidCommand, new_game
from meeple.engine.compiled import compile_tileset
from meeple.engine.setup import check_setup
from meeple.engine.tiles import BUNDLED_SHA256
from meeple.events.tileset import MAX_TILES, content_hash, decode_tileset, limits_fault

from helpers import bundled, classic, mini_set


def _encoded(definition) -> bytes:
    return msgspec.json.encode(definition)


@pytest.mark.parametrize("count", [MAX_TILES + 1, 10**15])
def test_a_tile_count_over_the_limit_is_refused_while_decoding(count):
    data = _encoded(bundled()).replace(b'"count":4', f'"count":{count}'.encode(), 1)
    with pytest.raises(msgspec.ValidationError, match=r"<= 20000 - at `\$.tiles\[\d+\].count`"):
        decode_tileset(data)


def test_many_types_within_their_own_bounds_are_refused_by_their_total():
    heavy = msgspec.structs.replace(bundled(), tiles=tuple(
        msgspec.structs.replace(t, count=MAX_TILES // 4) for t in bundled().tiles))
    assert limits_fault(heavy)[0] == "tiles"
    first = new_game(["red", "black"], bundled(), seed="1")
    record = msgspec.structs.replace(first.tileset, definition=heavy, sha256=content_hash(heavy))
    with pytest.raises(InvalidCommand, match="the limit is 20,000"):
        check_setup(msgspec.structs.replace(first, tileset=record))


@pytest.mark.parametrize("bad", ["A\x1b[2K", "A\nmeeple: error: fake", "A\u202e", "A\x85"])
def test_control_characters_in_tile_ids_are_refused(bad):
    tiles = list(bundled().tiles)
    tiles[3] = msgspec.structs.replace(tiles[3], id=bad)
    field, reason = limits_fault(msgspec.structs.replace(bundled(), tiles=tuple(tiles)))
    assert field == "tiles[3].id" and "control character" in reason


def test_long_text_is_refused_while_decoding():
    data = _encoded(bundled()).replace(b'"name":"star-wars"', b'"name":"' + b"x" * 300 + b'"')
    with pytest.raises(msgspec.ValidationError, match="length <= 200"):
        decode_tileset(data)


def test_the_bundled_hashes_are_those_of_the_bundled_files():
    assert content_hash(bundled()) == BUNDLED_SHA256["star-wars"]
    assert content_hash(classic()) == BUNDLED_SHA256["classic"]
    assert content_hash(classic(fiesta=True)) == BUNDLED_SHA256["classic+la-fiesta"]
    names = {f.name for f in importlib.resources.files("meeple.engine").joinpath("data").iterdir()}
    assert {"star-wars.json", "classic.json", "la-fiesta.json"} <= names


def test_a_bundled_name_on_other_content_reads_as_a_modified_copy():
    assert compile_tileset(bundled()).name == "star-wars"
    copy = msgspec.structs.replace(mini_set({"D": 2, "E": 1}), name="star-wars")
    shown = compile_tileset(copy).name
    assert shown == f"star-wars (modified, sha256 {content_hash(copy)[:12]})"


def test_a_record_whose_name_differs_from_its_definition_is_refused():
    first = new_game(["red", "black"], bundled(), seed="1")
    renamed = msgspec.structs.replace(first.tileset, name="my-box")
    with pytest.raises(InvalidCommand, match="recorded as 'my-box'"):
        check_setup(msgspec.structs.replace(first, tileset=renamed))


@pytest.mark.parametrize("name, needle", [("Ann\x1b[2K\rok", "control character U+001B"),
                                          ("Bob\u202e", "control character U+202E"),
                                          ("x" * 101, "the limit is 100")])
def test_player_names_are_refused_at_set_up_before_anything_is_written(name, needle):
    with pytest.raises(InvalidCommand, match=re.escape(needle)):
        new_game(["red", "black"], bundled(), names=[name, "B"], seed="1")


@pytest.mark.parametrize("bad, words", [
    ("\u200b", "invisible character U+200B"), ("A\ufeff", "invisible character U+FEFF"),
    ("\u2028", "invisible character U+2028"), ("a\U000e0041", "invisible character U+E0041"),
    (" ", "no visible character"), ("\u0301\u0301", "no visible character"),
])
def test_tile_ids_no_one_could_read_or_type_are_refused(bad, words):
    tiles = list(bundled().tiles)
    tiles[3] = msgspec.structs.replace(tiles[3], id=bad)
    field, reason = limits_fault(msgspec.structs.replace(bundled(), tiles=tuple(tiles)))
    assert field == "tiles[3].id" and words in reason


@pytest.mark.parametrize("good", ["漢字", "🚀", "e\u0301", "b2", "Ж-1"])
def test_tile_ids_in_any_script_are_kept(good):
    tiles = list(bundled().tiles)
    tiles[3] = msgspec.structs.replace(tiles[3], id=good)
    assert limits_fault(msgspec.structs.replace(bundled(), tiles=tuple(tiles))) is None
