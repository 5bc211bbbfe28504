"""`meeple play`'s screen under what a careless or hostile person types or does: a line wider
than the pane, a pasted line of 20,000 characters, a terminal of 20x5 then resized, Ctrl-C
on the tiny screen. The prompt stays in view, nothing crashes, every move is kept."""

import shutil

import pytest
from test_play_screen import PLAY, Terminal

from helpers import run, run_json

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _said(lines: list[str]) -> str:
    return "\n".join(lines)


def test_a_line_wider_than_the_pane_leaves_the_prompt_in_view(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    terminal = Terminal([*PLAY, str(game), "--bot", "black=greedy"], 80, 24)
    try:
        terminal.until(lambda s: len(s) == 24 and s[-2].startswith("meeple>"), "no first screen")
        terminal.line("place " + "y" * 150)
        shown = terminal.until(lambda s: "place takes" in _said(s), "no error said")
        assert shown[-2].startswith("meeple>"), shown
        terminal.tmux(["send-keys", "-t", "t", "-l", "b2"])
        shown = terminal.until(lambda s: "b2" in s[-2], "what is typed is not shown")
        assert shown[-2] == "meeple> b2", shown
        (tmp_path / "paste").write_text("x" * 20_000)
        terminal.keys("C-u")
        terminal.tmux(["load-buffer", str(tmp_path / "paste")])
        terminal.tmux(["paste-buffer", "-p", "-t", "t"])  # bracketed, as a terminal pastes
        terminal.keys("Enter")
        shown = terminal.until(lambda s: "a line of over" in _said(s), "no error said")
        assert shown[-2].startswith("meeple>"), shown
    finally:
        terminal.close()
    assert run_json("status", game)["turn"] == 1


def test_a_tiny_terminal_then_a_resize_then_ctrl_c_keeps_the_game(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    terminal = Terminal([*PLAY, str(game), "--bot", "black=greedy"], 20, 5)
    try:
        terminal.until(lambda s: "too small" in _said(s), "no word of the size")
        terminal.tmux(["resize-window", "-t", "t", "-x", "80", "-y", "24"])
        terminal.until(lambda s: len(s) == 24 and s[-2].startswith("meeple>"),
                       "not redrawn at 80x24")
        terminal.line(f"place {move['x']} {move['y']} {move['rotation']}")
        terminal.until(lambda s: "Next: red may place" in _said(s), "no move drawn")
        terminal.tmux(["resize-window", "-t", "t", "-x", "20", "-y", "5"])
        terminal.until(lambda s: "too small" in _said(s), "no word of the size")
        terminal.keys("C-c")
        shown = terminal.until(lambda s: any(line.startswith("EXITED") for line in s),
                               "Ctrl-C did not end the session", 20)
        assert "Traceback" not in _said(shown)
    finally:
        terminal.close()
    status = run_json("status", game)
    assert status["phase"] == "place_meeple" and status["player"] == "red"
    run("check", game)
