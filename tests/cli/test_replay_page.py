"""The HTML replay page (``export --html``) without a browser, and what every picture does with
hostile text and with the files it is asked to write (the SVG pictures are in
``test_pictures.py``; the browser side is in ``tests/browser``)."""

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import msgspec
import pytest

from meeple.cli.pictures.viewer import document, page
from meeple.cli.store import load
from meeple.engine import fold
from meeple.events.model import Undone

from helpers import fail, meeples_on_board, plain, run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
BATTLE = FIXTURES / "worked_asteroid_battle_three_sides_tie_then_black_wins.jsonl"
UNDO = FIXTURES / "undo_and_redo_inside_a_game_seed_0.jsonl"


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
    assert embedded(html)["head"] == load(str(FOUR_PLAYERS)).head
    # (counted as the log counts: lines, 1 to N; the head after each line beside the log's)
    lines = len(load(str(FOUR_PLAYERS)).events)
    assert f"({lines} lines)</h1>" in html and "events)" not in html
    assert "line ${step + 1} of ${D.events.length}" in html
    assert "head after this line" in html and "head of the whole log" in html


def test_replay_frames_match_the_engine_at_every_step():
    game = load(str(UNDO))
    events = game.events
    doc = plain(document(game))
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
    doc = plain(document(game))
    assert any(isinstance(e, Undone) for e in game.events)
    struck = [e["seq"] for e in doc["events"] if e["undone"]]
    assert struck and 14 in struck
    raw = UNDO.read_bytes().splitlines()
    assert [e["hash"] for e in doc["events"]] == [hashlib.sha256(line).hexdigest() for line in raw]


def test_replay_shows_battles_with_their_dice():
    doc = plain(document(load(str(BATTLE))))
    battles = [f["battle"] for f in doc["frames"] if f["battle"]]
    last = battles[-1]
    assert last["winner"] == "black"
    assert last["rounds"] == [[["black", [4, 1]], ["red", [4, 2]], ["white", [3]]],
                              [["black", [6, 1]], ["red", [5, 2]]]]


def test_names_cannot_close_the_page_script_or_add_markup(tmp_path):
    path = tmp_path / "g.jsonl"
    run("new", path, "--players", "red,black", "--names", "</script><b>x,<i>y", "--seed", "1")
    html = page(load(str(path)), note="<u>note</u>")
    assert "</script><b>" not in html and "<i>y" not in html and "<u>" not in html
    assert plain(embedded(html))["events"][0]["text"].startswith(
        "Game started: red (</script><b>x)")


#: text a hostile opponent may legally write: it closes the element it is in and opens a script
def hostile(n: int) -> str:
    return f"</title><script>window.pwned={n}</script>&\"'"


def hostile_tileset(path: Path) -> Path:
    """The bundled set with the start tile's id, every planet's name and the set's name hostile."""
    definition = json.loads((Path(__file__).parents[2] / "engine" / "data" / "star-wars.json")
                            .read_text())
    definition["name"] = "set" + hostile(3)
    for tile in definition["tiles"]:
        if tile["id"] == definition["start"]:
            tile["id"] = "D" + hostile(1)
        for feature in tile["features"]:
            if feature.get("name"):
                feature["name"] += hostile(2)
    definition["start"] = "D" + hostile(1)
    path.write_text(json.dumps(definition))
    return path


HOSTILE_NAMES = "Ann" + hostile(4) + ",Bob\u2028</script><script>window.pwned=5</script>"


def hostile_game(tmp_path: Path) -> Path:
    game = tmp_path / "hostile.jsonl"
    run("new", game, "--players", "red,black", "--names", HOSTILE_NAMES, "--seed", "1",
        "--tileset", hostile_tileset(tmp_path / "hostile-set.json"))
    run("autoplay", game, "--to-end")
    return game


def test_hostile_ids_and_names_are_text_in_a_well_formed_board_svg(tmp_path):
    out = tmp_path / "board.svg"
    run("show", hostile_game(tmp_path), "--svg", out)
    root = ET.fromstring(out.read_text())
    assert not list(root.iter(f"{SVG}script"))
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert f"(0, 0) D{hostile(1)} turned 0" in titles
    names = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "planet-name"]
    assert names and all(name.endswith(hostile(2)) for name in names)
    sides = [t.text for t in root.iter(f"{SVG}text") if t.get("class", "").startswith("side-name")]
    assert sides[0] == f"red (Ann{hostile(4)})"
    assert sides[1].startswith("black (Bob") and sides[1].endswith(
        "</script><script>window.pwned=5</script>)")


def test_hostile_ids_names_and_set_name_are_text_in_a_well_formed_tile_sheet(tmp_path):
    out = tmp_path / "sheet.svg"
    run("tiles", "--tileset", hostile_tileset(tmp_path / "set.json"), "--svg", out)
    root = ET.fromstring(out.read_text())
    assert not list(root.iter(f"{SVG}script"))
    assert root.find(f"{SVG}title").text.startswith(f"Tile set set{hostile(3)}: ")
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"]
    assert f"D{hostile(1)} x3 (start)" in labels
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert any(hostile(2) in title for title in titles)


def test_svg_text_escapes_controls_and_characters_xml_cannot_hold():
    from meeple.cli.pictures.svg import xml_text

    text = xml_text("a\x1b[2K\r\x01\ufffe<&>\"'")
    assert ET.fromstring(f'<t a="{text}">{text}</t>').text == "a\\x1b[2K\\r\\x01\ufffd<&>\"'"


def test_the_page_data_holds_no_character_that_could_end_or_bend_its_script(tmp_path):
    game = hostile_game(tmp_path)
    html = page(load(str(game)), note=None)
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    data = found.group(1)
    assert not re.search("[<>&\u2028\u2029]", data)
    doc = json.loads(data)
    assert doc == json.loads(msgspec.json.encode(document(load(str(game)))))
    assert doc["players"][1]["name"] == "Bob\u2028</script><script>window.pwned=5</script>"
    assert html.count("<script") == 2, "the data and the page's own script, nothing more"


def test_the_page_fills_each_slot_once_whatever_the_text(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--names", "%DATA%,%TITLE%", "--seed", "1")
    html = page(load(str(game)), note="%DATA% %NOTE%")
    assert '<span class="note">%DATA% %NOTE%</span>' in html
    assert "Game started: red (%DATA%), black (%TITLE%)" in plain(embedded(html))["events"][0]["text"]


@pytest.fixture
def log_and_seed(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--sealed")
    return game, Path(f"{game}.seed")


def unchanged_after(path: Path, *commands) -> list[str]:
    """The error line of each command, which must leave ``path`` as it was."""
    before = path.read_bytes()
    lines = [fail(*command, code=2) for command in commands]
    assert path.read_bytes() == before
    return lines


def picture_commands(game: Path, target: Path | str) -> list[tuple]:
    return [("show", game, "--svg", target), ("export", game, "--html", target),
            ("tiles", "--svg", target)]


def test_pictures_never_overwrite_a_game_log_in_another_key_order_or_torn(tmp_path):
    first, *rest = FOUR_PLAYERS.read_bytes().split(b"\n")
    reordered = tmp_path / "reordered.jsonl"
    reordered.write_bytes(json.dumps(dict(reversed(json.loads(first).items()))).encode()
                          + b"\n" + b"\n".join(rest))
    for line in unchanged_after(reordered, *picture_commands(FOUR_PLAYERS, reordered)):
        assert "reordered.jsonl is a game log" in line
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(b' {"seq": 0, "type": "game_started", "players": [{"col')
    assert "is a game log" in unchanged_after(torn, ("tiles", "--svg", torn))[0]


def test_pictures_never_overwrite_a_sealed_games_seed(log_and_seed, tmp_path):
    game, seed = log_and_seed
    for line in unchanged_after(seed, *picture_commands(game, seed)):
        assert "is the seed file of the sealed game" in line
    copied = tmp_path / "kept-seed.txt"
    copied.write_bytes(seed.read_bytes())
    assert "looks like a seed file" in unchanged_after(copied, ("tiles", "--svg", copied))[0]
    alone = tmp_path / "moved.seed"
    alone.write_text("a phrase chosen as a seed\n")
    assert "is a seed file" in unchanged_after(alone, ("tiles", "--svg", alone))[0]


def test_pictures_refuse_a_fifo_a_device_and_a_socket_without_opening_them(tmp_path):
    import socket
    import stat

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # so that a read there cannot block
    try:
        os.write(keep, b"x" * 100)
        assert "is a FIFO" in fail("tiles", "--svg", fifo, code=2)
    finally:
        os.close(keep)
    device = tmp_path / "null"
    device.symlink_to("/dev/null")
    assert "is a character device" in fail("tiles", "--svg", device, code=2)
    listening = socket.socket(socket.AF_UNIX)
    try:
        listening.bind(str(tmp_path / "sock"))
        assert "is a socket" in fail("tiles", "--svg", tmp_path / "sock", code=2)
    finally:
        listening.close()
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and device.is_symlink()
    assert stat.S_ISSOCK((tmp_path / "sock").lstat().st_mode)


def test_an_empty_file_name_is_a_usage_error():
    for command in picture_commands(FOUR_PLAYERS, ""):
        assert "an empty file name" in fail(*command, code=2)


def test_a_picture_replaces_an_earlier_picture_or_any_other_file(tmp_path):
    out = tmp_path / "board.svg"
    run("show", FOUR_PLAYERS, "--svg", out)
    run("show", FOUR_PLAYERS, "--svg", out, "--at", 10)
    notes = tmp_path / "notes.txt"
    notes.write_text("deadbeef is not a seed: too short\nsecond line\n")
    run("tiles", "--svg", notes)
    assert notes.read_text().startswith("<svg")


def test_export_walks_the_log_once(tmp_path, monkeypatch):
    """The page's frames are made by the walk that reads and checks the log (``Frames``, its
    visitor), not by a second walk; the page is the same as one made by walking again."""
    from meeple.cli.pictures import viewer

    out = tmp_path / "once.html"

    def second_walk(events):
        raise AssertionError("export walked the log a second time")

    with monkeypatch.context() as patched:
        patched.setattr(viewer, "walk", second_walk)
        run("export", UNDO, "--html", out)
    from meeple.cli.report import PICTURE_NOTE

    assert out.read_text() == page(load(str(UNDO)), note=PICTURE_NOTE)
