"""A plug-in edition (``tests/plugin_edition``: Outpost, with its own figures, a ``beacon``
feature kind and its own scoring) registered from outside meeple, by ``register_edition`` and
by an entry point in the group ``meeple.editions``, and the whole CLI run on it in process."""

import json
import re
from types import SimpleNamespace
from typing import Any

import pytest
from plugin_edition.outpost import Outpost

from meeple.engine import EDITIONS, Game, IllegalMove, edition_named, register_edition

from helpers import fail, run, run_json

EDITION = ("--edition", "outpost")


@pytest.fixture
def outpost(monkeypatch):
    """Outpost registered for one test (and forgotten after it)."""
    monkeypatch.setitem(EDITIONS, "outpost", Outpost())
    return EDITIONS["outpost"]


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_register_edition_takes_the_class_or_an_instance(monkeypatch):
    monkeypatch.delitem(EDITIONS, "outpost", raising=False)
    not_an_edition: Any = object()
    edition = register_edition(Outpost)
    try:
        assert edition_named("outpost") is edition and repr(edition) == "<edition outpost>"
        assert register_edition(edition) is edition
        with pytest.raises(TypeError):
            register_edition(not_an_edition)
    finally:
        del EDITIONS["outpost"]


def test_it_differs_in_figures_a_feature_kind_and_scoring(outpost):
    assert [f.name for f in outpost.figures] == ["scout", "captain"]
    assert outpost.strengths == {"scout": 1, "captain": 3}
    assert "beacon" in outpost.vocabulary.kinds
    assert not any("beacon" in e.vocabulary.kinds for e in EDITIONS.values() if e is not outpost)
    route = SimpleNamespace(kind="route", tiles={(0, 0), (1, 0)}, meeples=(), symbols={})
    route.symbol_count = lambda: 0
    assert outpost.completed_points(route) == (6, 2, 0)  # OP-6: 3 a tile
    assert EDITIONS["star-wars"].completed_points(route) == (2, 2, 0)  # 1 a tile there
    route.meeples = (("red", "scout", 0), ("red", "scout", 0), ("blue", "captain", 0))
    assert outpost.scorers(route, {"red": "red", "blue": "blue"}, ("red", "blue")) == ["blue"]


def test_a_game_is_made_moved_and_read_back_by_every_command(outpost, tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "3")
    assert _lines(game)[0]["edition"] == "outpost"
    move = run_json("moves", game)[0]
    run("place", game, move["x"], move["y"], move["rotation"])
    targets = run_json("moves", game)[0]["targets"]
    assert targets, "the placed tile offers a target"
    assert "has no giant agent" in fail("deploy", game, targets[0], "--figure", "giant")
    run("deploy", game, targets[0], "--figure", "captain")
    placed = [e for e in _lines(game) if e["type"] == "meeple_placed"]
    assert placed[-1]["figure"] == "captain"
    move = run_json("moves", game)[0]
    run("place", game, move["x"], move["y"], move["rotation"])
    run("skip", game)
    run("autoplay", game, "--to-end")
    assert _lines(game)[-1]["type"] == "game_ended"
    assert "ok" in run("check", game).stdout
    replay = run("replay", game).stdout
    assert "Game over" in replay and "agent" in replay
    shown = run_json("show", game)
    assert {"scout", "captain"} <= set(shown["reserves"]["red"]) and shown["winners"]
    board = run("show", game, "--ascii").stdout
    assert "agents: r red, b blue; scout r b, captain R B" in board
    svg = tmp_path / "b.svg"
    run("show", game, "--svg", svg)
    picture = svg.read_text()
    assert ".beacon{fill:#1f9d55" in picture and "signal beacon" in picture
    assert "captain agent" in picture or "scout agent" in picture
    page = tmp_path / "g.html"
    run("export", game, "--html", page)
    assert ".beacon{fill:#1f9d55" in page.read_text()
    score = run_json("score", game)
    assert sum(row["points"] for row in score["breakdown"]) == sum(score["scores"].values())
    for row in score["breakdown"]:
        if row["reason"] == "realm" and row["kind"] == "route":
            assert row["points"] == 3 * row["tiles"] and "x 3" in row["formula"]
    assert "Scores:" in run("score", game).stdout
    assert "[    B    ]" in run("tiles", *EDITION).stdout  # the beacon's own glyph


@pytest.mark.slow  # a whole game for each bot
@pytest.mark.parametrize("bot", ["random", "greedy", "greedy-v1", "lookahead", "mcts:8", "mcts-v1:8",
                                 "mcts-learned:8"])
def test_every_bot_plays_it_to_the_end(outpost, tmp_path, bot):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue,green", *EDITION, "--seed", "7")
    run("autoplay", game, "--bot", bot, "--to-end")
    events = _lines(game)
    assert events[-1]["type"] == "game_ended"
    figures = {e["figure"] for e in events if e["type"] == "meeple_placed"}
    assert figures <= {"scout", "captain"} and figures
    assert "ok" in run("check", game).stdout


@pytest.mark.slow  # whole games of bots
def test_simulate_arena_and_play_run_it(outpost, tmp_path):
    out = tmp_path / "sim"
    run("simulate", "--out", out, *EDITION, "--players", "red,blue", "--games", "2", "--jobs", "1")
    logs = sorted(out.glob("*.jsonl"))
    assert len(logs) == 2 and all(_lines(p)[0]["edition"] == "outpost" for p in logs)
    run("check", *logs)
    arena = run("arena", "--bots", "random,greedy", "--games", "2", *EDITION, "--out",
                tmp_path / "arena", "--jobs", "1").stdout
    assert "outpost" in arena
    game = tmp_path / "p.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "2")
    from meeple.cli.app import app

    from helpers import runner

    played = runner.invoke(app, ["play", str(game), "--bot", "red=random", "--bot", "blue=greedy"],
                           input="")
    assert played.exit_code == 0, played.stderr
    assert _lines(game)[-1]["type"] == "game_ended"


def test_an_entry_point_registers_it_when_its_name_is_asked(monkeypatch, tmp_path):
    """An installed package declares ``outpost = plugin_edition.outpost:Outpost`` in the group
    ``meeple.editions``; the edition is loaded the first time its name is asked for."""
    monkeypatch.delitem(EDITIONS, "outpost", raising=False)
    info = tmp_path / "meeple_outpost-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: meeple-outpost\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[meeple.editions]\noutpost = plugin_edition.outpost:Outpost\n")
    game = tmp_path / "g.jsonl"
    assert "edition 'outpost' is not installed" in fail("new", game, "--players", "red,blue",
                                                        *EDITION, code=2)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        run("new", game, "--players", "red,blue", *EDITION, "--seed", "1")
        assert isinstance(EDITIONS["outpost"], Outpost)
        run("autoplay", game, "--bot", "greedy", "--to-end")
        assert "ok" in run("check", game).stdout
    finally:
        EDITIONS.pop("outpost", None)


def test_a_log_of_an_edition_not_installed_is_refused(outpost, tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "4")
    run("autoplay", game, "--turns", "2")
    monkeypatch.delitem(EDITIONS, "outpost")
    for command in (("check", game), ("show", game), ("status", game), ("replay", game),
                    ("score", game), ("autoplay", game)):
        assert "edition 'outpost' is not installed" in fail(*command, code=3)


def test_the_score_table_names_the_editions_own_realms(outpost, tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "3")
    run("autoplay", game, "--to-end")
    header = next(line for line in run("score", game).stdout.splitlines()
                  if line.strip().startswith("side"))
    assert header.split()[1:4] == ["routes", "asteroid", "belts"]
    assert "fields" not in header


@pytest.mark.parametrize("command", [("new", "{game}", "--players", "red,black"),
                                     ("tiles",), ("simulate", "--out", "{game}")])
def test_an_empty_edition_name_is_one_not_installed(command, tmp_path):
    args = [str(a).format(game=tmp_path / "g") for a in command]
    message = fail(*args, "--edition", "", code=2)
    assert "edition '' is not installed" in message


def test_a_definition_of_an_id_a_bundled_edition_has_is_given_once_and_is_the_games_own(
        monkeypatch, tmp_path):
    own = '<g id="sym-pennant"><circle r="5" fill="#123456"/></g>'
    svg = _svg_with_defs(monkeypatch, tmp_path, (45, own))
    assert svg.count('id="sym-pennant"') == 1 and own in svg


def test_not_now_names_the_editions_own_figure(outpost):
    game = Game.new(["red", "blue"], "outpost", seed="3")
    move = game.legal_moves()[0]
    game.push(move)
    with pytest.raises(IllegalMove) as refused:
        game.push(move)
    assert "to place an agent or skip" in str(refused.value)
    assert outpost.figure != "meeple" and "meeple" not in str(refused.value)


def test_moves_and_the_score_breakdown_speak_the_editions_words(outpost, tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "3")
    assert "   agent: " in run("moves", game).stdout
    move = run_json("moves", game)[0]
    run("place", game, str(move["x"]), str(move["y"]), str(move["rotation"]))
    assert "; agent targets: " in run("moves", game).stdout
    run("autoplay", game, "--to-end")
    scored = run("score", game).stdout
    assert "asteroid belt, " in scored and "asteroid, " not in scored


def test_the_shared_figure_and_a_data_id_keep_their_definitions(monkeypatch, tmp_path):
    clash = '<g id="meeple"><circle r="5" fill="#654321"/></g>'
    keep = '<g data-id="stars" id="op-mark"><circle r="2" fill="#abcdef"/></g>'
    svg = _svg_with_defs(monkeypatch, tmp_path, (46, clash), (47, keep))
    assert svg.count('id="meeple"') == 1 and clash not in svg
    assert keep in svg and len(re.findall(r'(?<![\w-])id="stars"', svg)) == 1


def _svg_with_defs(monkeypatch, tmp_path, *pieces):
    """The SVG picture of a new game of Outpost given these definitions besides its own."""
    import msgspec

    class Defining(Outpost):
        look = msgspec.structs.replace(Outpost.look, svg_defs=(*Outpost.look.svg_defs, *pieces))

    monkeypatch.setitem(EDITIONS, "outpost", Defining())
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,blue", *EDITION, "--seed", "3")
    picture = tmp_path / "g.svg"
    run("show", game, "--svg", picture)
    return picture.read_text()
