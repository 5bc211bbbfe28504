"""The HTML replay in a real browser: Debian's Chromium, headless, driven by Playwright.

Without Chromium or Playwright these tests are skipped, unless ``MEEPLE_BROWSER_TESTS=required``
(as CI sets it), which turns a missing browser into a failure.
"""

from pathlib import Path

from meeple.cli.store import load
from meeple.engine import fold
from meeple.events.model import TurnEnded

from helpers import run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
BATTLE = FIXTURES / "worked_asteroid_battle_three_sides_tie_then_black_wins.jsonl"
UNDO = FIXTURES / "undo_and_redo_inside_a_game_seed_0.jsonl"



class Viewer:
    """An exported game open in a page, with the errors and requests the page made."""

    def __init__(self, browser, game: Path, html: Path):
        run("export", game, "--html", html)
        self.page = browser.new_page(viewport={"width": 1400, "height": 900})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(html.as_uri())

    def step(self) -> int:
        return int(self.page.evaluate("document.body.dataset.step"))

    def press(self, key: str, times: int = 1) -> int:
        for _ in range(times):
            self.page.keyboard.press(key)
        return self.step()

    def shown(self) -> tuple[dict[str, int], int, int]:
        """Scores per side, tiles drawn and tiles on the board as the page shows them."""
        scores = self.page.eval_on_selector_all(
            "td.points", "cells => Object.fromEntries(cells.map(c => "
            "[c.id.replace('score-', ''), Number(c.dataset.points)]))")
        drawn = int(self.page.get_attribute("#drawn", "data-drawn"))
        placed = int(self.page.inner_text("#placed"))
        return scores, drawn, placed


def engine_view(events, i: int) -> tuple[dict[str, int], int, int]:
    state = fold(events[: i + 1])
    return dict(state.scores), state.tileset.total() - 1 - state.tiles_left(), len(state.board)


def test_stepping_through_a_four_player_game_matches_the_engine(browser, tmp_path):
    events = load(str(FOUR_PLAYERS)).events
    viewer = Viewer(browser, FOUR_PLAYERS, tmp_path / "game.html")
    last = len(events) - 1
    assert viewer.step() == last, "the page opens at the end of the game"
    assert viewer.shown() == engine_view(events, last)
    assert viewer.page.inner_text("#result").startswith("Winner")
    assert viewer.press("Home") == 0
    assert viewer.shown() == engine_view(events, 0)
    assert viewer.press("ArrowRight", 9) == 9
    assert viewer.shown() == engine_view(events, 9)
    assert viewer.press("ArrowLeft", 2) == 7
    assert viewer.shown() == engine_view(events, 7)
    turn_ends = [i for i, e in enumerate(events) if isinstance(e, TurnEnded)]
    assert viewer.press("ArrowUp") == turn_ends[1]
    assert viewer.press("ArrowUp", 20) == turn_ends[21]
    assert viewer.shown() == engine_view(events, turn_ends[21])
    assert viewer.press("ArrowDown") == turn_ends[20]
    viewer.page.click("#nextturn")
    assert viewer.step() == turn_ends[21]
    viewer.page.fill("#slider", "200")
    assert viewer.step() == 200
    assert viewer.shown() == engine_view(events, 200)
    viewer.page.click("#story li[data-i='150']")
    assert viewer.step() == 150
    assert viewer.shown() == engine_view(events, 150)
    assert viewer.press("End") == last
    head = load(str(FOUR_PLAYERS)).head
    assert viewer.page.inner_text("#head") == head
    shot = tmp_path / "end.png"
    viewer.page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
    assert viewer.errors == []
    assert all(url.startswith(("file://", "data:", "about:")) for url in viewer.requests)


def test_the_address_opens_a_step_and_undone_steps_are_struck_through(browser, tmp_path):
    game = load(str(UNDO))
    html = tmp_path / "undo.html"
    run("export", UNDO, "--html", html)
    page = browser.new_page()
    page.goto(html.as_uri() + "#29")
    assert page.evaluate("document.body.dataset.step") == "29"
    assert "Undone" in page.inner_text("#event")
    struck = page.eval_on_selector_all(
        "#story li.undone", "items => items.map(li => [Number(li.querySelector('.seq').textContent), "
        "getComputedStyle(li).textDecorationLine])")
    from meeple.cli.history import undone_seqs

    assert [seq for seq, _ in struck] == sorted(undone_seqs(game.events, game.state))
    assert {style for _, style in struck} == {"line-through"}
    page.close()


def test_a_battle_shows_its_dice_round_by_round(browser, tmp_path):
    viewer = Viewer(browser, BATTLE, tmp_path / "battle.html")
    viewer.page.click("#story li[data-i='40']")
    assert viewer.page.is_visible("#battle-panel")
    dice = viewer.page.eval_on_selector_all("#battle .die", "d => d.map(x => Number(x.textContent))")
    assert dice == [4, 1, 4, 2, 3, 6, 1, 5, 2]
    assert viewer.press("ArrowRight") == 41
    assert "black wins" in viewer.page.inner_text("#battle")
    assert viewer.press("End") == 44
    assert not viewer.page.is_visible("#battle-panel")
    assert viewer.errors == []
