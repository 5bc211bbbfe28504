"""The HTML replay's layout and highlights in Chromium: usable from a 360 px phone to a desktop,
and each scoring shows on the board the realm it pays for (and a farm's completed cities).

Skipped without Chromium or Playwright, unless ``MEEPLE_BROWSER_TESTS=required``.
"""

from pathlib import Path

import pytest

from meeple.cli.store import load
from meeple.engine import realm_extent, walk
from meeple.events.model import PointsScored

from helpers import run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
FARM = FIXTURES / "classic_farm_borders_three_completed_cities_and_one_open.jsonl"

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1400, "height": 900}


@pytest.fixture(scope="module")
def four_players(tmp_path_factory) -> Path:
    html = tmp_path_factory.mktemp("layout") / "game.html"
    run("export", FOUR_PLAYERS, "--html", html)
    return html


def opened(browser, html: Path, viewport: dict, address: str = ""):
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html.as_uri() + address)
    return page, errors


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def page_overflow(page) -> int:
    """How far the page itself is wider than the window (its own scroll, not the board's)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


CONTROLS = ["#first", "#prevturn", "#prev", "#next", "#nextturn", "#last", "#slider",
            "#zoomin", "#zoomout", "#fit"]


def test_on_a_phone_the_board_spans_the_screen_and_every_control_is_on_it(browser, four_players):
    page, errors = opened(browser, four_players, PHONE)
    assert page_overflow(page) <= 0
    board = box(page, "#board")
    assert board["width"] >= 0.85 * PHONE["width"], board
    assert board["height"] >= 150, "the board is a picture, not a strip"
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    for control in CONTROLS:
        found = box(page, control)
        assert page.is_visible(control)
        assert 0 <= found["x"] and found["x"] + found["width"] <= PHONE["width"], control
        assert found["y"] + found["height"] <= PHONE["height"], f"{control} is below the screen"
    page.click("#first")
    assert page.evaluate("document.body.dataset.step") == "0"
    page.click("#next")
    page.click("#next")
    assert page.evaluate("document.body.dataset.step") == "2"
    assert page.evaluate("window.scrollY") == 0, "stepping does not scroll the page away"
    assert errors == []
    page.close()


def test_zooming_in_on_a_phone_scrolls_the_board_in_its_own_box(browser, four_players):
    page, errors = opened(browser, four_players, PHONE)
    fitted = box(page, "#board")["width"]
    page.click("#zoomin")
    page.click("#zoomin")
    zoomed = box(page, "#board")["width"]
    assert zoomed > 1.5 * fitted
    wrap = page.evaluate("[document.getElementById('boardwrap').scrollWidth, "
                         "document.getElementById('boardwrap').clientWidth]")
    assert wrap[0] > wrap[1], "the board scrolls inside its box"
    assert page_overflow(page) <= 0, "and the page itself does not"
    step_button = box(page, "#next")
    assert page.is_visible("#next") and step_button["y"] + step_button["height"] <= PHONE["height"]
    page.click("#fit")
    assert box(page, "#board")["width"] == pytest.approx(fitted, abs=1)
    assert errors == []
    page.close()


def test_on_a_desktop_the_board_takes_most_of_the_width_beside_the_panels(browser, four_players):
    page, errors = opened(browser, four_players, DESKTOP)
    assert page_overflow(page) <= 0
    wrap = box(page, "#boardwrap")
    assert 0.6 * DESKTOP["width"] <= wrap["width"] <= DESKTOP["width"] - 300
    aside = box(page, "aside")
    assert aside["x"] >= wrap["x"] + wrap["width"] - 1, "the panels stand beside the board"
    for control in CONTROLS:
        found = box(page, control)
        assert page.is_visible(control) and found["y"] + found["height"] <= DESKTOP["height"], control
    assert page.evaluate("document.documentElement.scrollHeight") <= DESKTOP["height"]
    assert errors == []
    page.close()


def scorings(path: Path) -> list[tuple[int, PointsScored, dict]]:
    """Each scoring of a recorded game: its index in the log, the event and what it paid for."""
    found = []
    index = iter(range(10**9))

    def visit(event, state) -> None:
        i = next(index)
        if isinstance(event, PointsScored):
            found.append((i, event, realm_extent(state, event.realm)))

    walk(load(str(path)).events, visit=visit)
    return found


def highlighted(page, kind: str) -> list[tuple[int, int]]:
    return sorted(tuple(cell) for cell in page.eval_on_selector_all(
        f"#realm rect.scored-{kind}", "rs => rs.map(r => [Number(r.dataset.x), Number(r.dataset.y)])"))


def cells(extent: list) -> list[tuple[int, int]]:
    return sorted(tuple(cell) for cell in extent)


def test_stepping_to_a_scoring_highlights_the_realm_it_pays_for(browser, four_players):
    found = scorings(FOUR_PLAYERS)
    steps = {s[0] for s in found}
    i, event, extent = max((s for s in found if s[1].reason == "realm" and s[0] - 1 not in steps),
                           key=lambda s: len(s[2]["tiles"]))
    page, errors = opened(browser, four_players, DESKTOP, f"#{event.seq}")
    assert page.evaluate("document.body.dataset.step") == str(i)
    assert highlighted(page, "realm") == cells(extent["tiles"]) and len(extent["tiles"]) >= 2
    assert highlighted(page, "city") == []
    assert page.is_visible("#realm rect.scored-realm")
    assert "realm scored" in page.inner_text("#scored")
    assert not page.is_visible("#city-key"), "a game without farms has no key for their cities"
    page.keyboard.press("ArrowLeft")
    assert highlighted(page, "realm") == [], "the highlight belongs to the scoring's step"
    assert page.inner_text("#scored") == ""
    assert errors == []
    page.close()


def test_a_farm_scoring_highlights_the_farm_and_the_completed_cities_it_counted(browser, tmp_path):
    html = tmp_path / "farm.html"
    run("export", FARM, "--html", html)
    i, event, extent = next(s for s in scorings(FARM) if s[1].reason == "farm" and s[1].cities >= 2)
    page, errors = opened(browser, html, PHONE)
    page.click("#first")
    for _ in range(i):
        page.click("#next")
    assert page.evaluate("document.body.dataset.step") == str(i)
    assert highlighted(page, "realm") == cells(extent["tiles"])
    counted = [cells(city["tiles"]) for city in extent["cities"]]
    assert len(counted) == event.cities >= 2
    assert highlighted(page, "city") == sorted(c for city in counted for c in city)
    assert page.is_visible("#city-key")
    assert f"the {event.cities} completed cities the farm counted" in page.inner_text("#scored")
    assert errors == []
    page.close()


def early_step(path: Path, placements: int) -> tuple[int, set[tuple[int, int]]]:
    """The index of the line of a recorded game that lays its ``placements``-th tile, and
    every cell a tile has lain on up to it."""
    boards: list[set[tuple[int, int]]] = []
    walk(load(str(path)).events, visit=lambda _event, state: boards.append(set(state.board)))
    laid: set[tuple[int, int]] = set()
    for i, board in enumerate(boards):
        laid |= board
        if len(board) == placements + 1:
            return i, laid
    raise AssertionError(f"no step with {placements} tiles placed")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_early_step_fills_the_frame_at_the_extent_of_the_game_so_far(browser, four_players,
                                                                       viewport):
    i, laid = early_step(FOUR_PLAYERS, 3)
    page, errors = opened(browser, four_players, viewport, f"#{i}")
    assert page.evaluate("document.body.dataset.step") == str(i)
    tiles, wrap = box(page, "#tiles"), box(page, "#boardwrap")
    inner_w, inner_h = wrap["width"] - 16, wrap["height"] - 16  # inside its padding
    if viewport is PHONE:
        inner_h = box(page, "#board")["height"]  # a phone's board is as tall as its picture
    filled = max(tiles["width"] / inner_w, tiles["height"] / inner_h)
    assert filled >= 0.75, f"the step's {len(laid)} tiles fill {filled:.0%} of the frame"
    xs, ys = {x for x, _ in laid}, {y for _, y in laid}
    axes = page.eval_on_selector_all("#axes text", "ts => ts.map(t => Number(t.textContent))")
    assert len(axes) == len(xs) + len(ys), "the axes name the columns and rows laid so far"
    assert set(axes) == xs | ys
    page.keyboard.press("End")
    last = box(page, "#tiles")
    assert max(last["width"] / inner_w, last["height"] / inner_h) >= 0.75
    assert len(page.eval_on_selector_all("#axes text", "ts => ts")) > len(axes)
    assert errors == []
    page.close()
