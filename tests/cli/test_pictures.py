"""Pictures: the SVG board (``show --svg``), the tile sheet (``tiles --svg``), and the HTML replay
(``export --html``) without a browser. The browser side is in ``tests/browser``."""

import hashlib
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from syrupy.extensions.image import SVGImageSnapshotExtension

from meeple.cli.store import load
from meeple.cli.svg import board_svg, sheet_svg
from meeple.cli.viewer import document, page
from meeple.engine.play import fold
from meeple.events.model import Undone

from helpers import fail, run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
BATTLE = FIXTURES / "worked_asteroid_battle_three_sides_tie_then_black_wins.jsonl"
UNDO = FIXTURES / "undo_and_redo_inside_a_game_seed_0.jsonl"


@pytest.fixture
def snapshot_svg(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


def meeples_on_board(state) -> int:
    return sum(1 for placed in state.board.values() for node in placed.nodes
               for _, _, where in state.realms.realm(node).meeples if where == node)


def test_the_board_svg_is_xml_with_a_titled_group_per_tile_and_every_meeple():
    state = load(str(FOUR_PLAYERS)).state
    root = ET.fromstring(board_svg(state, highlight=state.placed_at))
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("translate")]
    titles = {g.find(f"{SVG}title").text for g in tiles}
    expected = {f"({x}, {y}) {p.tile.id} turned {p.r * 90}" for (x, y), p in state.board.items()}
    assert titles == expected
    figures = [u for u in root.iter(f"{SVG}use") if u.get("href") == "#meeple"]
    assert len(figures) == meeples_on_board(state) > 0
    large = [u for u in figures if "scale(1.45)" in u.get("transform")]
    assert len(large) == sum(1 for placed in state.board.values() for node in placed.nodes
                             for _, big, where in state.realms.realm(node).meeples
                             if where == node and big)
    marks = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == "#ffd60a"]
    assert [m.find(f"{SVG}title").text for m in marks] == [
        f"last placement ({state.placed_at[0]}, {state.placed_at[1]})"]
    names = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "planet-name"}
    on_board = {p.tile.features[p.tile.planet].name for p in state.board.values() if p.tile.planet >= 0}
    assert names == on_board and len(names) >= 3
    symbols = [u for u in root.iter(f"{SVG}use") if u.get("href", "").startswith("#sym-")]
    assert len(symbols) == sum(1 for p in state.board.values() for f in p.tile.features if f.symbol)


def test_the_same_game_gives_the_same_svg_bytes_in_another_process(tmp_path):
    here = tmp_path / "here.svg"
    run("show", FOUR_PLAYERS, "--svg", here)
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    meeple = Path(sys.executable).parent / "meeple"
    there = subprocess.run([meeple, "show", str(FOUR_PLAYERS), "--svg", "-"],
                           capture_output=True, env=env, check=True).stdout
    assert here.read_bytes() == there


def test_board_svg_snapshot_of_the_asteroid_battle(snapshot_svg):
    state = load(str(BATTLE)).state
    assert board_svg(state, highlight=state.placed_at) == snapshot_svg


def test_board_svg_snapshot_mid_game_with_meeples_and_planets(snapshot_svg):
    events = load(str(FOUR_PLAYERS)).log.events
    state = fold(events[:120])
    assert board_svg(state, highlight=state.placed_at) == snapshot_svg


def test_tile_sheet_svg_snapshot_lists_every_type_with_its_count(snapshot_svg):
    tileset = load(str(BATTLE)).state.tileset
    text = sheet_svg(tileset)
    root = ET.fromstring(text)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"][1:]
    assert labels == [f"{t.id} x{t.count}" + (" (start)" if t.id == tileset.start else "")
                      for t in tileset.types.values()]
    assert text == snapshot_svg


def test_show_svg_at_a_seq_draws_the_board_then(tmp_path):
    out = tmp_path / "b.svg"
    run("show", FOUR_PLAYERS, "--svg", out, "--at", 40)
    root = ET.parse(out).getroot()
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("translate")]
    assert len(tiles) == len(fold(load(str(FOUR_PLAYERS)).log.events[:41]).board)


def test_tiles_svg_says_the_bundled_set_is_a_reconstruction(tmp_path):
    out = tmp_path / "t.svg"
    result = run("tiles", "--svg", out)
    assert "wrote the tile sheet as SVG" in result.stderr
    assert "reconstructed" in out.read_text()


def test_pictures_never_overwrite_a_game_log_or_write_into_a_folder(tmp_path):
    game = tmp_path / "g.jsonl"
    game.write_bytes(FOUR_PLAYERS.read_bytes())
    before = game.read_bytes()
    assert "is a game log" in fail("export", game, "--html", game, code=2)
    assert "is a game log" in fail("show", game, "--svg", game, code=2)
    assert "is a directory" in fail("tiles", "--svg", tmp_path, code=2)
    assert game.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


def embedded(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_html_replay_is_self_contained(tmp_path):
    out = tmp_path / "g.html"
    run("export", FOUR_PLAYERS, "--html", out)
    html = out.read_text()
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(\s*['\"]?(https?:|//)", html)
    assert set(re.findall(r"https?://[^\s\"'<>]+", html)) <= {"http://www.w3.org/2000/svg"}
    assert embedded(html)["head"] == load(str(FOUR_PLAYERS)).log.head


def test_replay_frames_match_the_engine_at_every_step():
    game = load(str(UNDO))
    events = game.log.events
    doc = document(game.log)
    assert len(doc["frames"]) == len(events)
    for i in range(0, len(events), 7):
        state = fold(events[: i + 1])
        frame = doc["frames"][i]
        assert frame["s"] == [state.scores[s] for s in state.sides]
        assert frame["drawn"] == state.tileset.total() - 1 - state.tiles_left()
        assert sorted(tuple(doc["placements"][k][:2]) for k in frame["b"]) == sorted(state.board)
        assert len(frame["m"]) == meeples_on_board(state)


def test_replay_marks_undone_steps_and_keeps_line_hashes():
    game = load(str(UNDO))
    doc = document(game.log)
    assert any(isinstance(e, Undone) for e in game.log.events)
    struck = [e["seq"] for e in doc["events"] if e["undone"]]
    assert struck and 14 in struck
    raw = UNDO.read_bytes().splitlines()
    assert [e["hash"] for e in doc["events"]] == [hashlib.sha256(line).hexdigest() for line in raw]


def test_replay_shows_battles_with_their_dice():
    doc = document(load(str(BATTLE)).log)
    battles = [f["battle"] for f in doc["frames"] if f["battle"]]
    last = battles[-1]
    assert last["winner"] == "black"
    assert last["rounds"] == [[["black", [4, 1]], ["red", [4, 2]], ["white", [3]]],
                              [["black", [6, 1]], ["red", [5, 2]]]]


def test_names_cannot_close_the_page_script_or_add_markup(tmp_path):
    path = tmp_path / "g.jsonl"
    run("new", path, "--players", "red,black", "--names", "</script><b>x,<i>y", "--seed", "1")
    html = page(load(str(path)).log, note="<u>note</u>")
    assert "</script><b>" not in html and "<i>y" not in html and "<u>" not in html
    assert embedded(html)["events"][0]["text"].startswith("Game started: red (</script><b>x)")
