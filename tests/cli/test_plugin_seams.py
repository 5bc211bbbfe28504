"""What a third-party edition's author meets beyond the happy path: its everyday figure is
the default, ``Game.new`` reads its own tile set, and an edition a game log could not hold, or
a package that fails to give one, is refused in one line that names it, never as an internal
error of meeple's, and never by writing a log that meeple would then call corrupt."""

import json
from typing import Any

import pytest
from plugin_edition.outpost import Outpost

from meeple.engine import EDITIONS, Game, register_edition
from meeple.engine.edition import Edition, EditionError, Figure

from helpers import fail, run, run_json

EDITION = ("--edition", "outpost")
Classic = type(EDITIONS["classic"])  # the bundled one


@pytest.fixture(autouse=True)
def registry():
    """Whatever a test registers, or fails to, is forgotten after it (and the rules text
    read from the editions then installed)."""
    from meeple.cli import rulebook

    kept = dict(EDITIONS)
    rulebook.groups.cache_clear()
    rulebook.by_id.cache_clear()
    yield
    EDITIONS.clear()
    EDITIONS.update(kept)
    rulebook.groups.cache_clear()
    rulebook.by_id.cache_clear()


@pytest.fixture
def outpost(monkeypatch):
    monkeypatch.setitem(EDITIONS, "outpost", Outpost())
    return EDITIONS["outpost"]


def test_a_figure_placed_without_naming_one_is_the_editions_everyday_figure(outpost, tmp_path):
    """Outpost's everyday figure is a scout: `--meeple` and `deploy` without `--figure` place
    one (it was always a "small" one, which Outpost has not)."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "3")
    for _ in range(2):
        move = next(m for m in run_json("moves", game) if m["targets"])
        run("place", game, move["x"], move["y"], move["rotation"], "--meeple", move["targets"][0])
    placed = [json.loads(line) for line in game.read_text().splitlines()
              if '"meeple_placed"' in line]
    assert [p["figure"] for p in placed] == ["scout", "scout"]
    run("check", game)


def test_game_new_plays_a_plug_in_edition_with_its_own_tile_set(outpost):
    game = Game.new(["red", "blue"], "outpost", seed="1")
    assert game.state.edition is EDITIONS["outpost"]
    assert set(game.state.tileset.types) == {t["id"] for t in json.loads(
        Outpost().tileset_file())["tiles"]}
    game.push(game.legal_moves()[0])
    assert game.legal_moves()


class _Renamed(Outpost):
    name = "outpost-b"


@pytest.mark.parametrize("change, words", [
    ({"colours": ("red", "purple")}, "colours must be a tuple of distinct colours"),
    ({"figures": (Figure("Chief_2", 1),)}, "figure 'Chief_2' is not a name a log can hold"),
    ({"name": "Outpost & Co"}, "is not one a log can hold"),
    ({"rules": {"players": "OP-2"}}, "rules has no rule id for place, draw"),
    ({"players": (2, 9)}, "players must be (fewest, most)"),
    ({"figures": (Figure("scout", 0),)}, "needs a count of at least 1"),
    ({"completed_points": Edition.completed_points, "terms": Edition.terms},
     "does not give its scoring hooks: completed_points, terms"),
])
def test_an_edition_a_log_could_not_hold_is_refused_when_registered(change, words):
    broken = type("Broken", (_Renamed,), change)
    with pytest.raises(EditionError, match=None) as raised:
        register_edition(broken)
    assert words in str(raised.value)
    assert "outpost-b" not in EDITIONS


def test_a_bundled_edition_cannot_be_replaced():
    impostor: Any = type("Impostor", (Outpost,), {"name": "classic"})
    with pytest.raises(EditionError, match="a bundled edition's name"):
        register_edition(impostor)
    assert type(EDITIONS["classic"]) is Classic


def _entry_points(tmp_path, monkeypatch, lines: str) -> None:
    """An installed package's entry points in the group ``meeple.editions``, and a module
    ``brokenplug`` they may point at."""
    info = tmp_path / "meeple_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: meeple-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[meeple.editions]\n" + lines)
    (tmp_path / "brokenplug.py").write_text(
        "from plugin_edition.outpost import Outpost\n"
        "class Other(Outpost):\n    name = 'other-name'\n"
        "class Classic(Outpost):\n    name = 'classic'\n"
        "class Raises(Outpost):\n"
        "    name = 'raises'\n"
        "    def __init__(self):\n        raise RuntimeError('broken \\x1b[2J at start')\n")
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize("name, point, words", [
    ("raises", "brokenplug:Raises", "RuntimeError: broken \\x1b[2J at start"),
    ("nomodule", "no_such_module_here:X", "ModuleNotFoundError"),
    ("mismatch", "brokenplug:Other", "the edition it gives is called 'other-name'"),
    ("hijack", "brokenplug:Classic", "the edition it gives is called 'classic'"),
    ("classic", "brokenplug:Classic", None),
])
def test_a_package_that_fails_to_give_its_edition_is_named_in_one_line(
        tmp_path, monkeypatch, name, point, words):
    _entry_points(tmp_path, monkeypatch, f"{name} = {point}\n")
    game = tmp_path / "g.jsonl"
    if name == "classic":  # the bundled one is asked first: the package's is never loaded
        run("new", game, "--players", "red,blue", "--edition", "classic", "--seed", "1")
        assert type(EDITIONS["classic"]) is Classic
        return
    line = fail("new", game, "--players", "red,blue", "--edition", name, code=2)
    assert line.startswith(f"meeple: error: edition {name!r} is installed but cannot be used "
                           f"(entry point {point} of the group meeple.editions): "), line
    assert words in line and "internal error" not in line and "\x1b" not in line
    assert not game.exists()
    # a log naming it is refused as a log of an edition that cannot be used here (exit 3)
    log = tmp_path / "n.jsonl"
    run("new", log, "--players", "red,black", "--seed", "1")
    first = log.read_text().splitlines()[0]  # the set-up line alone, naming that edition
    log.write_text(first.replace('"edition":"star-wars"', f'"edition":"{name}"', 1) + "\n")
    line = fail("check", log, code=3)
    assert "is installed but cannot be used" in line and "internal error" not in line
    assert "classic" in EDITIONS and type(EDITIONS["classic"]) is Classic


def test_the_rules_an_edition_cites_are_shown_by_meeple_rules(tmp_path, monkeypatch):
    """An installed edition gives the text of its rule ids (``Edition.rulebook``); meeple
    shows them as its own, escaped, and never lets them replace a rule it ships."""
    _entry_points(tmp_path, monkeypatch, "outpost = plugin_edition.outpost:Outpost\n"
                  "raises = brokenplug:Raises\n")
    shown = run("rules", "OP-5").stdout
    assert shown.startswith("OP-5  The strongest side scores") and "captain weighs 3" in shown
    listing = run("rules").stdout
    assert "Outpost (a plug-in edition)" in listing and "OP-7" in listing
    assert "SW-1" in listing  # the shipped rules are all still there


def test_an_editions_rulebook_cannot_bend_the_terminal_or_replace_a_shipped_rule():
    class Loud(_Renamed):
        def rulebook(self):
            return ('group = "Loud \\u001b[2J"\norder = 1\nintro = "x"\n'
                    '[[rule]]\nid = "SW-1"\ntitle = "Forged"\ntext = "not the rule"\n'
                    '[[rule]]\nid = "LD-1"\ntitle = "Bell \\u0007"\ntext = "ring"\n')

    register_edition(Loud)
    assert "Forged" not in run("rules", "SW-1").stdout
    shown = run("rules", "LD-1").stdout
    assert "\x07" not in shown and "\\x07" in shown
    assert "\x1b" not in run("rules").stdout


def test_simulate_seats_the_editions_own_colours_and_reserves_name_only_its_figures(
        outpost, tmp_path):
    """Outpost has no black: `simulate` without `--players` seats its first two colours (it
    seated red and black, which Outpost refuses); reserves list scouts and captains only."""
    run("simulate", "--out", tmp_path / "s", *EDITION, "--games", "1", "--jobs", "1")
    log = next((tmp_path / "s").glob("*.jsonl"))
    first = json.loads(log.read_text().splitlines()[0])
    assert [p["colour"] for p in first["players"]] == ["red", "blue"]
    assert run_json("status", log)["reserves"]["red"].keys() == {"scout", "captain"}


def test_scoring_hooks_given_on_the_instance_are_accepted():
    class ByInstance(_Renamed):
        completed_points = Edition.completed_points

        def __init__(self):
            self.completed_points = Outpost().completed_points

    try:
        assert register_edition(ByInstance()).name == "outpost-b"
    finally:
        EDITIONS.pop("outpost-b", None)
