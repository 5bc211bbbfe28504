"""A relay's replay page follows its game live in Chromium (docs/guide/relay.md): a move
played through the relay appears on an open page without anyone touching it."""

from __future__ import annotations

import shutil

import pytest

from meeple.engine import Game

from relay_helpers import Relay, set_up

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="OpenSSH's ssh-keygen is not installed")


def test_an_open_page_shows_the_move_played_through_the_relay(browser, tmp_path):
    relay = Relay(tmp_path).start()
    try:
        alice, bob = set_up(tmp_path, relay, "classic", ["red", "green"])
        alice.meeple("receive", alice.game, "--relay", relay.url)
        game_id = Game.load(alice.game).remote.game
        page = browser.new_page()
        page.goto(f"{relay.url}/games/{game_id}/page")
        before = int(page.evaluate("document.body.dataset.step"))
        assert before == len(Game.load(relay.data / f"{game_id}.jsonl").events) - 1
        move = Game.load(alice.game).legal_moves()[0]
        alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
        alice.meeple("send", alice.game, "--relay", relay.url)
        stored = len(Game.load(relay.data / f"{game_id}.jsonl").events)
        page.wait_for_function(f"Number(document.body.dataset.step) === {stored - 1}",
                               timeout=20_000)
        assert "places" in page.inner_text("body")
        page.close()
    finally:
        relay.stop()
