"""The library's errors speak the library: a script that loads, plays and saves games through
``meeple.engine.Game`` is told what is wrong in terms of what it calls, never of a ``meeple``
command or flag (docs/reference/python-api.md). The command line says the same faults in its
own words (``meeple repair``)."""

import re

import pytest

from meeple.engine import Game, IllegalMove, InvalidCommand
from meeple.events.log import LogError

from helpers import fail, run

#: a ``meeple`` command or a command-line flag in a message
CLI_WORDS = re.compile(r"`meeple\b|\bmeeple (new|status|repair|check|moves|undo|continue)\b"
                       r"|(^|[\s(])--[a-z]")


def _played(tmp_path, undo="turn"):
    game = Game.new(["red", "black"], "classic", seed="words", undo=undo)
    game.push(game.legal_moves()[0])
    path = tmp_path / "g.jsonl"
    game.save(path)
    return game, path


def test_loading_what_is_no_log_or_a_torn_one_names_no_command(tmp_path):
    other = tmp_path / "notes.jsonl"
    other.write_text('{"type": "tile_drawn"}\n')
    with pytest.raises(LogError) as refused:
        Game.load(other)
    assert "not a meeple game log" in str(refused.value)
    assert not CLI_WORDS.search(str(refused.value)), str(refused.value)
    _, path = _played(tmp_path)
    path.write_bytes(path.read_bytes()[:-9])
    with pytest.raises(LogError) as torn:
        Game.load(path)
    assert "`repair` cuts it off" in str(torn.value)
    assert not CLI_WORDS.search(str(torn.value)), str(torn.value)
    assert "`meeple repair` cuts it off" in fail("status", path, code=3)


def test_a_stale_save_and_undo_off_name_no_command(tmp_path):
    game, path = _played(tmp_path)
    stale = Game.load(path)
    game.push(game.legal_moves()[0] if game.phase == "place" else game.parse("skip")[0])
    game.save()
    stale.push(stale.parse("skip")[0] if stale.phase == "meeple" else stale.legal_moves()[0])
    with pytest.raises(LogError) as moved_on:
        stale.save()
    assert "changed since you read it" in str(moved_on.value)
    assert not CLI_WORDS.search(str(moved_on.value)), str(moved_on.value)
    fixed = Game.new(["red", "black"], "classic", seed="words", undo="none")
    fixed.push(fixed.legal_moves()[0])
    with pytest.raises(IllegalMove) as refused:
        fixed.pop()
    assert "undo off" in str(refused.value)
    assert not CLI_WORDS.search(str(refused.value)), str(refused.value)


def test_a_first_line_cut_short_is_not_sent_to_repair(tmp_path):
    _, path = _played(tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(LogError) as torn:
        Game.load(path)
    assert "holds no game to keep or mend" in str(torn.value)
    assert "repair" not in fail("status", path, code=3)


def test_a_bad_edition_field_is_said_in_words(tmp_path):
    _, path = _played(tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"edition":"classic"', b'"edition":"Classic"', 1))
    message = fail("status", path, code=3)
    assert "Expected a name of lower-case letters, digits and -, starting with a letter " \
           "(field edition)" in message
    assert "regex" not in message


def test_undo_errors_cite_meeples_undo_rule_which_meeple_rules_shows(tmp_path):
    game = Game.new(["red", "black"], "classic", seed="words", undo="none")
    with pytest.raises(IllegalMove) as refused:
        game.undo()
    assert refused.value.rule == "UN-1"
    with pytest.raises(IllegalMove) as nothing:
        game.redo()
    assert nothing.value.rule == "UN-2"
    shown = run("rules", "UN-1").stdout
    assert "UN-1  Undo" in shown and "takes nothing back" in shown


def test_a_new_game_without_a_seed_says_to_pass_one():
    with pytest.raises(InvalidCommand) as refused:
        Game.new(["red", "black"], "classic")
    assert "pass seed=TEXT" in str(refused.value) and refused.value.rule == "CL-3"
    assert Game.new(["red", "black"], "classic", table=True).phase == "draw"


def test_a_placement_typed_again_with_a_target_in_the_figure_step_says_the_tile_is_placed():
    game = Game.new(["red", "black"], "classic", seed="42")
    game.push(game.legal_moves()[0])
    assert game.phase == "meeple"
    with pytest.raises(InvalidCommand) as refused:
        game.parse("a3 city:N")
    assert "the tile is placed already: type the target alone ('city:N')" in str(refused.value)
    assert game.parse("road:N small") == game.parse("road:N")


def test_the_tile_is_placed_already_only_after_a_placement_label():
    game = Game.new(["red", "black"], "classic", seed="42")
    game.push(game.legal_moves()[0])
    for text in ("cloister field:Nw", "skip cloister"):
        with pytest.raises(InvalidCommand) as refused:
            game.parse(text)
        assert "placed already" not in str(refused.value)


def test_a_bad_place_after_the_colon_still_lists_the_legal_targets():
    game = Game.new(["red", "black"], "classic", seed="42")
    game.push(game.legal_moves()[0])
    with pytest.raises(IllegalMove) as refused:
        game.push(game.parse("city:Q")[0])
    assert "at 'Q', which is no edge" in str(refused.value)
    assert refused.value.legal and "road:N" in refused.value.legal


def test_the_lock_timeout_and_tile_ids_are_said_in_the_librarys_words():
    from meeple.events import locking, tileset

    for module in (locking, tileset):
        text = open(module.__file__, encoding="utf-8").read()
        assert "--lock-timeout" not in text and "`meeple draw`" not in text


def test_the_command_line_keeps_its_own_hints(tmp_path):
    _, path = _played(tmp_path)
    whole = path.read_bytes()
    first, second = whole.split(b"\n")[:2]
    torn = tmp_path / "t.jsonl"
    torn.write_bytes(first + b"\n" + second + b"\n" + second[:20])
    shown = run("show", torn, "--valid-prefix", "--compact")
    assert "`meeple repair` cuts it off" in shown.stdout + shown.stderr
    other = tmp_path / "x.jsonl"
    other.write_text("x\n")
    assert "`meeple new` starts one" in fail("check", other, code=3) or \
        "`meeple new` starts one" in fail("status", other, code=3)
    none = tmp_path / "n.jsonl"
    run("new", none, "--players", "red,black", "--seed", "1", "--undo", "none")
    assert "undo off (--undo none) (UN-1)" in fail("undo", none)
