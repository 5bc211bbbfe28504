"""The library API (`meeple.engine.Game`): the documented example runs as written, an illegal
move leaves a game exactly as it was, and copies are independent."""

import re
from pathlib import Path

import pytest

from meeple.engine import (
    Game,
    IllegalMove,
    InvalidCommand,
    PlaceTile,
    SkipMeeple,
    decide,
    export,
    random_move,
)
from meeple.events import log

from helpers import run, run_json

#: the Python API's page of the documentation
API_PAGE = (Path(__file__).parents[1] / "docs" / "reference" / "python-api.md").read_text()


def test_the_readme_example_plays_a_game_to_the_end_and_writes_a_valid_log(tmp_path,
                                                                            monkeypatch, capsys):
    example = re.search(r"^# Python API.*?```python\n(.*?)```", API_PAGE, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "python-api.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "winners:" in printed
    assert run("check", tmp_path / "api-game.jsonl", "--json").stdout.count('"ok": true') == 1


@pytest.mark.parametrize("command, words", [
    ("place", "not a command: a str; a command is one of PlaceTile, PlaceMeeple"),
    (None, "not a command: a NoneType"),
    (42, "not a command: a int"),
    (PlaceTile("1", "0", "0"), "PlaceTile: Expected `int`, got `str` - at `$.x`"),
    (PlaceTile(0, 1, 90.0), "PlaceTile: Expected `int`, got `float` - at `$.rotation`"),
])
def test_what_is_no_command_is_an_invalid_command_and_changes_nothing(command, words):
    game = Game.new(["red", "black"], "star-wars", seed="3")
    before, events = export(game.state), game.events
    with pytest.raises(InvalidCommand) as raised:
        game.push(command)
    assert words in str(raised.value)
    assert export(game.state) == before and game.events == events
    if not isinstance(command, PlaceTile):
        with pytest.raises(InvalidCommand, match="not a command"):
            decide(game.state, command)


def test_an_illegal_move_leaves_the_game_exactly_as_it_was():
    game = Game.new(["red", "black"], "star-wars", seed="3")
    for _ in range(12):
        game.push(random_move(game.state))
    before, events = export(game.state), game.events
    with pytest.raises(IllegalMove):
        game.push(PlaceTile(50, 50, 0))
    with pytest.raises(IllegalMove):
        game.push(SkipMeeple()) if game.phase == "place" else game.push(PlaceTile(0, 0, 0))
    assert export(game.state) == before and game.events == events


def test_an_illegal_move_after_pending_consequences_changes_nothing():
    game = Game.new(["red", "black"], "star-wars", seed="3")
    game.push(random_move(game.state))
    game.push(SkipMeeple())
    cut = list(game.events[:-2])                # the log stops before turn_ended and a draw
    resumed = Game.from_events(cut)
    assert resumed.phase is None
    before = export(resumed.state)
    with pytest.raises(IllegalMove):
        resumed.push(PlaceTile(50, 50, 0))
    assert export(resumed.state) == before and len(resumed.events) == len(cut)


def test_a_copy_plays_on_without_touching_the_original(tmp_path):
    game = Game.new(["red", "black"], "classic", seed="8")
    twin = game.copy()
    while not twin.over:
        twin.push(random_move(twin.state))
    assert not game.over and len(game.events) < len(twin.events)
    log.create(tmp_path / "twin.jsonl", twin.events)
    assert Game.from_events(log.read(tmp_path / "twin.jsonl").events).winners == twin.winners


def test_a_game_exports_what_show_json_prints(tmp_path):
    game = Game.new(["red", "black"], "star-wars", seed="3")
    path = tmp_path / "g.jsonl"
    log.create(path, game.events)
    assert game.export() == run_json("show", path)


def test_every_engine_module_is_documented_as_public_or_banned_as_a_deep_import():
    """The public API is ``meeple.engine``'s ``__all__`` (at most 30 names) and the submodules
    the documentation's Python API page names before its first section
    (``meeple.engine.edition`` is where an edition from another package takes its base class
    and data types from); ruff refuses a deep import of any other."""
    import os
    import re
    import tomllib

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as file:
        banned = tomllib.load(file)["tool"]["ruff"]["lint"]["flake8-tidy-imports"]["banned-api"]
    modules = {name[:-3] for name in os.listdir(os.path.join(root, "engine"))
               if re.fullmatch(r"[a-z_]+\.py", name) and name != "__init__.py"}
    api_section = API_PAGE[:API_PAGE.index("\n## ")]
    documented = set(re.findall(r"`meeple\.engine\.([a-z_]+)`", api_section)) & modules
    assert {"bots", "notation", "check", "playing", "edition"} <= documented
    banned_modules = {key.rpartition(".")[2] for key in banned if key.startswith("meeple.engine.")}
    assert modules - documented - {"chance"} <= banned_modules
    assert not documented & banned_modules
    import meeple.engine as api
    assert len(api.__all__) <= 30
    assert not modules & set(api.__all__)  # no public name hides a module of its name


def test_the_bots_search_and_playouts_load_only_when_a_name_of_theirs_is_used():
    """A command that plays no bot does not load them (start-up); every public name of
    ``meeple.engine`` is still there, loaded on first use, and listed by ``dir``."""
    import subprocess
    import sys

    script = ("import sys, meeple.engine as api\n"
              "lazy = ['meeple.engine.bots', 'meeple.engine.mcts', 'meeple.engine.detached',\n"
              "        'meeple.engine.game', 'meeple.engine.preview', 'random']\n"
              "print(sorted(m for m in lazy if m in sys.modules))\n"
              "print(sorted(set(api.__all__) - set(dir(api))))\n"
              "print(all(getattr(api, name) is not None for name in api.__all__))\n"
              "print('meeple.engine.mcts' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[:4] == ["[]", "[]", "True", "True"]


def test_a_game_shows_its_board_as_text_and_as_svg_and_reads_what_a_person_types():
    import xml.etree.ElementTree as ET

    from meeple.engine.notation import spots

    game = Game.new(["red", "blue"], "classic", seed="42")
    text = str(game)
    labels = spots(game.state)
    assert labels and all(f" {name} " in text for name in labels)
    assert ET.fromstring(game._repr_svg_()).tag.endswith("svg")
    cell, (x, y, turns) = next(iter(labels.items()))
    number = turns[0] // 90 + 1
    assert game.parse(f"{cell}{number} skip") == [PlaceTile(x, y, turns[0]), SkipMeeple()]
    with pytest.raises(IllegalMove, match="is not a legal spot"):
        game.parse("zz1")
    before = game.events
    with pytest.raises(InvalidCommand, match="no figure called"):
        game.push_text(f"{cell}{number} road:W knight")
    assert game.events == before, "push_text plays all or nothing"
    game.push_text(f"{cell}{number}")
    assert game.phase == "meeple" and (game.state.placed_at == (x, y))
    game.pop()
    assert game.phase == "place" and game.state.placed_at is None and len(game.events) == len(before) + 2


def test_a_saved_game_loads_back_and_appends_what_was_played_since(tmp_path):
    from meeple.engine import InvalidGame

    path = tmp_path / "g.jsonl"
    game = Game.new(["red", "black"], seed="5")
    for _ in range(6):
        game.push(random_move(game.state))
    head = game.save(path)
    again = Game.load(path)
    assert again.head == head and again.events == game.events and not again.unsaved
    again.push(random_move(again.state))
    assert again.unsaved and again.save() != head
    assert run("check", path).exit_code == 0
    with pytest.raises(log.LogError):
        Game.new(["red", "black"], seed="6").save(path)  # a new log is never written over a file
    lines = path.read_bytes().splitlines(keepends=True)
    tampered = tmp_path / "t.jsonl"
    tampered.write_bytes(b"".join(lines[:3]))
    assert Game.load(tampered).events == again.events[:3]
    with pytest.raises(InvalidGame) as raised:
        Game.from_events(list(again.events[:3]) + [again.events[5]])
    assert raised.value.line == again.events[5].seq + 1 and "waiting for a player" in str(raised.value)


@pytest.mark.parametrize("make, words", [
    (lambda: Game.new(["red", "black"], seed=42), "the seed is a text, not a int"),
    (lambda: Game.new("red", seed="1"), "players are a list of colours"),
    (lambda: Game.new(["red", "black"], table=True, seed="1"), "a table game has no seed"),
    (lambda: Game.new(["red", "black"], seed="1").push_text(None), "is a text, not a NoneType"),
    (lambda: Game.new(["red", "black"], seed="1").reserve("purple"), "'purple' does not play"),
])
def test_a_wrong_argument_is_an_invalid_command_naming_it(make, words):
    with pytest.raises(InvalidCommand, match=words):
        make()
