"""Pictures of a hostile opponent's game opened in Chromium: tile ids, planet, set and player
names that try to close their element and open a script are shown as text, and no script runs.

Skipped without Chromium or Playwright, unless ``MEEPLE_BROWSER_TESTS=required``.
"""

import json
from pathlib import Path

import pytest

from helpers import run

BUNDLED = Path(__file__).parents[2] / "engine" / "data" / "star-wars.json"



def hostile(n: int) -> str:
    """Legal text that closes the element it stands in and runs a script that sets ``pwned``."""
    return f"</title><script>window.pwned={n}</script>&\"'"


START = "D" + hostile(1)
NAMES = ["Ann" + hostile(4), "Bob</script><script>window.pwned=5</script><img src=x onerror=window.pwned=6>"]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, Path]:
    """A finished game on a tile set with a hostile start tile id, planet and set names, and
    hostile player names; and that tile set's file."""
    folder = tmp_path_factory.mktemp("hostile")
    definition = json.loads(BUNDLED.read_text())
    definition["name"] = "set" + hostile(3)
    for tile in definition["tiles"]:
        if tile["id"] == definition["start"]:
            tile["id"] = START
        for feature in tile["features"]:
            if feature.get("name"):
                feature["name"] += hostile(2)
    definition["start"] = START
    tileset = folder / "set.json"
    tileset.write_text(json.dumps(definition))
    path = folder / "g.jsonl"
    run("new", path, "--players", "red,black", "--names", ",".join(NAMES), "--seed", "1",
        "--tileset", tileset)
    run("autoplay", path, "--to-end")
    return path, tileset


def opened(browser, path: Path):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, errors


def test_the_board_svg_runs_no_script_and_shows_the_tile_id_as_text(browser, game, tmp_path):
    out = tmp_path / "board.svg"
    run("show", game[0], "--svg", out)
    page, errors = opened(browser, out)
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.evaluate("document.getElementsByTagName('script').length") == 0
    titles = page.eval_on_selector_all("title", "ts => ts.map(t => t.textContent)")
    assert f"(0, 0) {START} turned 0" in titles
    assert errors == []
    page.close()


def test_the_tile_sheet_svg_runs_no_script_and_shows_the_names_as_text(browser, game, tmp_path):
    out = tmp_path / "sheet.svg"
    run("tiles", "--tileset", game[1], "--svg", out)
    page, errors = opened(browser, out)
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.evaluate("document.getElementsByTagName('script').length") == 0
    assert page.evaluate("document.querySelector('title').textContent").startswith(
        f"Tile set set{hostile(3)}: ")
    assert errors == []
    page.close()


def test_the_html_replay_runs_no_injected_script_and_shows_the_names_as_text(browser, game, tmp_path):
    out = tmp_path / "g.html"
    run("export", game[0], "--html", out)
    page, errors = opened(browser, out)
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.evaluate("document.getElementsByTagName('script').length") == 2
    assert page.evaluate("document.querySelectorAll('#board img, #story img, #scores img').length") == 0
    labels = page.eval_on_selector_all("#scores tr td:nth-child(2)", "tds => tds.map(t => t.textContent)")
    assert labels == [f"red ({NAMES[0]})", f"black ({NAMES[1]})"]
    first = page.inner_text("#story li[data-i='0']")
    assert NAMES[0] in first and NAMES[1] in first and hostile(3) in first
    titles = page.eval_on_selector_all("#tiles title", "ts => ts.map(t => t.textContent)")
    assert f"(0, 0) {START} turned 0" in titles
    page.keyboard.press("Home")
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert errors == []
    page.close()
