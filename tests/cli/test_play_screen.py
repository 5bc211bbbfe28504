"""`meeple play` as one screen, in a real terminal (tmux): it fits the terminal and never
scrolls, keeps the score line, each side's last move and the prompt in view after every
move, redraws on a resize, draws the person's move before the bot seat thinks, and Ctrl-C
while the bot thinks ends the session with every move before kept.

Every wait is for a state of the screen (or of the log), never for a length of time."""

import json
import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from helpers import run, run_json

PLAY = [sys.executable, "-m", "meeple.cli.app", "play"]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux pane of ``width`` by ``height`` running a command, on a server of its own."""

    def __init__(self, command: list[str], width: int, height: int) -> None:
        self.socket = f"meeple-screen-{uuid.uuid4().hex[:8]}"
        self.tmux(["new-session", "-d", "-x", str(width), "-y", str(height), "-s", "t",
                   " ".join(command) + "; echo EXITED $?; sleep 30"])

    def tmux(self, args: list[str]) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30, env={**os.environ, "TERM": "xterm"}).stdout

    def keys(self, *keys: str) -> None:
        self.tmux(["send-keys", "-t", "t", *keys])

    def line(self, text: str) -> None:
        """``text`` typed as it is (``f2`` is a label, not the key F2), then Enter."""
        self.tmux(["send-keys", "-t", "t", "-l", text])
        self.keys("Enter")

    def lines(self) -> list[str]:
        """The pane as shown, one string a line (its scrollback left out)."""
        return self.tmux(["capture-pane", "-p", "-t", "t"]).rstrip("\n").split("\n")

    def scrolled(self) -> int:
        """How many lines have scrolled off the top of the pane."""
        return int(self.tmux(["display-message", "-p", "-t", "t", "#{history_size}"]).strip())

    def until(self, ready, what: str, seconds: float = 90) -> list[str]:
        """Wait for ``ready(lines)`` to hold; the lines then."""
        end = time.monotonic() + seconds
        while True:
            shown = self.lines()
            if ready(shown):
                return shown
            assert time.monotonic() < end, f"{what}:\n" + "\n".join(shown)
            time.sleep(0.05)

    def close(self) -> None:
        self.tmux(["kill-server"])


def _prompt(lines: list[str]) -> bool:
    return any(line.startswith("meeple>") for line in lines)


def _label(game, move: dict) -> str:
    """A placement as the board labels it (``b2``)."""
    from meeple.cli.labels import spots
    from meeple.cli.session import open_game

    state = open_game(str(game)).state
    named = {(x, y): name for name, (x, y, _) in spots(state).items()}
    return f"{named[(move['x'], move['y'])]}{move['rotation'] // 90 + 1}"


def _last_placements(game) -> dict[str, str]:
    """Each colour's last placement as the moves list tells it (``V-e (1,0) 0°``)."""
    last = {}
    for line in game.read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "tile_placed":
            last[event["player"]] = (f"{event['player']} {event['tile']} "
                                     f"({event['x']},{event['y']}) {event['rotation']}°")
    return last


#: what the screen says next in each phase where red is to move
_NEXT = {"place_tile": "Next: red places", "place_meeple": "Next: red may place"}


def _settled(terminal: Terminal, game, seconds: float = 90) -> tuple[dict, list[str]]:
    """Wait for the game to wait for red (or be over) and the screen to show it so: the
    status then, and the screen."""
    end = time.monotonic() + seconds
    while True:
        shown = terminal.lines()
        text = "\n".join(shown)
        if "is thinking" in text or not _prompt(shown):  # (the log is read only when idle)
            assert time.monotonic() < end, f"not ready for red:\n{text}"
            time.sleep(0.05)
            continue
        status = run_json("status", game)
        if status["phase"] == "over":
            if "The game is over: press any key" in text:
                return status, shown
        elif (status["player"] == "red" and f"turn {status['turn']} ·" in shown[0]
              and _NEXT[status["phase"]] in text and _prompt(shown)):
            return status, shown
        assert time.monotonic() < end, f"not ready for red at {status}:\n{text}"
        time.sleep(0.05)


def _fits(lines: list[str], width: int, height: int) -> None:
    """The screen fills the pane exactly and holds the score line first, the prompt and the
    keys last."""
    assert len(lines) == height and all(len(line) <= width for line in lines), lines
    assert lines[0].startswith("Score: ") and lines[-2].startswith("meeple>"), lines
    assert lines[-1].startswith("? help"), lines


def test_the_screen_draws_the_move_at_once_answers_and_redraws_on_a_resize(tmp_path):
    """The everyday look at the screen: a placement by its bare label, then skip; the
    session bot answers; a resize redraws the screen at the new size; Ctrl-D leaves it with
    the score said."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    terminal = Terminal([*PLAY, str(game), "--bot", "black=greedy"], 80, 24)
    try:
        shown = terminal.until(lambda s: "Next: red places" in "\n".join(s) and _prompt(s),
                               "no first screen")
        _fits(shown, 80, 24)
        assert "in hand: " in shown[1]
        assert "tile set reconstructed (?)" in "\n".join(shown)  # the bundled set's status
        terminal.keys("?")
        shown = terminal.until(lambda s: "Help (? or Esc closes it" in "\n".join(s), "no help")
        _fits(shown, 80, 24)
        terminal.keys("Escape")
        terminal.until(lambda s: "Help (? or Esc" not in "\n".join(s), "the help stays")
        terminal.line(_label(game, move))
        shown = terminal.until(lambda s: "Next: red may place" in "\n".join(s), "no move drawn")
        assert _last_placements(game)["red"] in "\n".join(shown)
        terminal.line("skip")
        shown = terminal.until(lambda s: "turn 3 ·" in s[0] and "Next: red places" in
                               "\n".join(s), "the bot seat did not answer")
        _fits(shown, 80, 24)
        for told in _last_placements(game).values():
            assert told in "\n".join(shown)
        status = run_json("status", game)
        assert shown[0].startswith("Score: red {red} · black {black} · tiles left".format(
            **status["scores"]))
        terminal.tmux(["resize-window", "-t", "t", "-x", "120", "-y", "40"])
        shown = terminal.until(lambda s: len(s) == 40 and _prompt(s), "not redrawn at 120x40")
        _fits(shown, 120, 40)
        assert terminal.scrolled() == 0
        terminal.keys("C-d")
        shown = terminal.until(lambda s: any(line.startswith("EXITED") for line in s),
                               "the session did not end")
        said = "\n".join(shown)
        assert "EXITED 0" in said and "Traceback" not in said
        assert "Score: red {red} · black {black} · tiles left".format(**status["scores"]) \
            in said and "the game is kept in" in said
    finally:
        terminal.close()
    assert run_json("status", game)["turn"] == 3
    run("check", game)


@pytest.mark.slow
def test_ctrl_c_while_the_bot_thinks_stops_it_and_keeps_the_persons_move(tmp_path):
    """The person's move is drawn before the bot seat's search starts (here up to 30 s of
    CPU), with a thinking line; Ctrl-C then stops the search and ends the session, the
    person's move kept. The key is sent once the screen says the bot thinks: no race."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    terminal = Terminal([*PLAY, str(game), "--bot", "black=mcts:30s"], 80, 24)
    try:
        terminal.until(lambda s: "Next: red places" in "\n".join(s), "no first screen")
        terminal.line(f"place {move['x']} {move['y']} {move['rotation']}")
        terminal.until(lambda s: "Next: red may place" in "\n".join(s), "no move drawn")
        terminal.line("skip")
        shown = terminal.until(lambda s: "black (mcts:30s) is thinking" in "\n".join(s),
                               "no thinking line")
        text = "\n".join(shown)
        assert _last_placements(game)["red"] in text and "no meeple" in text
        terminal.keys("C-c")
        shown = terminal.until(lambda s: any(line.startswith("EXITED") for line in s),
                               "Ctrl-C did not end the session", 20)
        said = "\n".join(shown)
        assert "EXITED 0" in said and "Traceback" not in said
        assert "(interrupted: the log keeps every move made)" in said
    finally:
        terminal.close()
    status = run_json("status", game)
    assert status["turn"] == 2 and status["player"] == "black"
    run("check", game)


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "width", "height"),  # each edition, each size
                         [("star-wars", 80, 24), ("classic", 120, 40)])
def test_a_whole_game_on_one_screen_never_scrolls(tmp_path, edition, width, height):
    """The issue's test: a whole game typed against a recorded bot seat; after every move
    the pane shows the score line (the scores the log has), each side's last placement and
    the prompt, and nothing has scrolled; the end shows the final score table and waits
    for a key."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "w", "--edition", edition,
        "--bot", "black=greedy")
    terminal = Terminal([*PLAY, str(game)], width, height)
    typed = 0
    try:
        while True:
            status, shown = _settled(terminal, game)
            _fits(shown, width, height)
            assert terminal.scrolled() == 0
            assert shown[0].startswith("Score: red {red} · black {black} · ".format(
                **status["scores"])), shown[0]
            text = "\n".join(shown)
            assert "Traceback" not in text and "error" not in text.lower(), text
            if status["phase"] == "over":
                assert "Final scores" in text and "Points by kind" in text
                break
            if typed:
                for told in _last_placements(game).values():
                    assert told in text, (told, text)
            if status["phase"] == "place_meeple":
                line = "skip"
            else:
                move = run_json("moves", game)[typed % 3]
                line = _label(game, move) if typed % 4 else \
                    f"place {move['x']} {move['y']} {move['rotation']}"
                typed += 1
            if typed % 5 == 4:
                terminal.keys("F2")  # the next drawing (down to the compact one, and round)
            size = game.stat().st_size
            terminal.line(line)
            end = time.monotonic() + 60
            while game.stat().st_size == size:  # (a move only ever appends to the log)
                assert time.monotonic() < end, "\n".join(terminal.lines())
                time.sleep(0.05)
        terminal.keys("q")
        shown = terminal.until(lambda s: any(line.startswith("EXITED") for line in s),
                               "a key did not end the session")
        assert "EXITED 0" in "\n".join(shown)
    finally:
        terminal.close()
    assert run_json("check", game)["ok"]
    events = [json.loads(line) for line in game.read_text().splitlines()]
    assert len([e for e in events if e["type"] == "tile_placed" and e["player"] == "red"]) \
        == typed
    assert run_json("status", game)["winners"]
