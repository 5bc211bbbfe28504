"""`meeple play`: a game typed at a terminal, with bot seats. Tested in a real terminal (tmux:
line editing, Tab completion, Ctrl-C and Ctrl-D; the session line by line, ``--lines``) and
through a pipe; the session as one screen is tested in ``test_play_screen``."""

import json
import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from meeple.events import log

from helpers import fail, invoke, run, run_json

PLAY = [sys.executable, "-m", "meeple.cli.app", "play"]


def _play(path, lines: str, *options: str) -> subprocess.CompletedProcess:
    """``meeple play`` in this process, its lines read from a pipe."""
    done = invoke(["play", path, *options], input=lines)
    return subprocess.CompletedProcess(PLAY, done.exit_code, done.stdout, done.stderr)


def test_a_piped_session_plays_moves_and_bot_seats_answer(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    target = move["targets"][0] if move["targets"] else ""
    done = _play(game, f"moves\nplace 99 99 0\nbogus\nplace {move['x']} {move['y']} "
                       f"{move['rotation']} {target}\n{'x' * 100_000}\nquit\n", "--bot",
                 "black=greedy")
    assert done.returncode == 1, done.stderr  # from a pipe: not every line could be played
    assert len(done.stderr) < 5000  # the 100 KB line is not echoed back whole
    assert "does not touch a placed tile" in done.stderr and "unknown command 'bogus'" in done.stderr
    assert _play(game, "status\nquit\n").returncode == 0  # every line played: 0
    assert "a line of over 4,096 characters" in done.stderr
    assert "-- black (greedy) plays --" in done.stdout and "tile in hand:" in done.stdout
    status = run_json("status", game)
    assert status["turn"] == 3 and status["player"] == "red"  # red moved, then black's bot
    run("check", game)


def test_a_usage_error_typed_to_play_is_one_line(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "2")
    done = _play(game, "undo --steps x\nquit\n")
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert said == ["meeple: error: Invalid value for '--steps': 'x' is not a valid int. "
                    "(see `undo --help`)"], done.stderr  # what to type in play


@pytest.mark.slow  # processes reading from a pipe that never ends
def test_a_piped_line_too_long_to_be_a_command_ends_the_session_at_once(tmp_path):
    """Bounded input: a line is read only up to the longest command, so a huge line (or an
    endless one) costs no more than that and leaves the log as it was."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "9")
    before = game.read_bytes()
    done = subprocess.run(f"head -c 50000000 /dev/zero | tr '\\0' a | {sys.executable} -m "
                          f"meeple.cli.app play {game}", shell=True, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert "a line of over 4,096 characters; a command is a few words: the rest of the input " \
           "is not read" in done.stderr
    assert game.read_bytes() == before
    endless = subprocess.Popen([*PLAY, str(game)], stdin=open("/dev/zero", "rb"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, err = endless.communicate(timeout=60)
    assert endless.returncode == 1 and b"the rest of the input is not read" in err
    assert game.read_bytes() == before


@pytest.mark.parametrize("options, words", [
    (["--bot", "=mcts"], "COLOUR=BOT"), (["--bot", "black=clever"], "unknown bot"),
    (["--bot", "green=greedy"], "green does not play"),
])
def test_bad_bot_seats_are_usage_errors(tmp_path, options, words):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "1")
    assert words in fail("play", game, *options, code=2)


def test_ctrl_c_at_any_moment_of_a_session_ends_it_as_at_the_prompt(tmp_path, monkeypatch):
    """Ctrl-C while the board is drawn after the bot seat's move (here made to come there)
    ends the session as Ctrl-C at the prompt does: exit 0, every move made kept, no line
    read after it."""
    from meeple.cli import interactive

    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    drawn = []

    def show(path: str, run) -> None:
        drawn.append(path)
        if len(drawn) == 3:  # the first board, after red's placement, after black's move
            raise KeyboardInterrupt

    monkeypatch.setattr(interactive, "_show", show)
    done = invoke(["play", game, "--bot", "black=greedy"],
                  input=f"place {move['x']} {move['y']} {move['rotation']}\nskip\nundo\n")
    assert done.exit_code == 0, (done.stdout, done.stderr)
    assert done.stdout.rstrip().endswith("(interrupted: the log keeps every move made)")
    assert "-- black (greedy) plays --" in done.stdout
    status = run_json("status", game)
    assert status["turn"] == 3 and status["player"] == "red"  # no undo was read


class _Terminal:
    """A tmux pane running a command, on a server of its own."""

    def __init__(self, command: list[str]) -> None:
        self.socket = f"meeple-test-{uuid.uuid4().hex[:8]}"
        self.tmux(["new-session", "-d", "-x", "120", "-y", "60", "-s", "t",
                   " ".join(command) + "; echo EXITED $?; sleep 30"])

    def tmux(self, args: list[str]) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30, env={**os.environ, "TERM": "xterm"}).stdout

    def keys(self, *keys: str) -> None:
        self.tmux(["send-keys", "-t", "t", *keys])

    def screen(self) -> str:
        return self.tmux(["capture-pane", "-p", "-t", "t", "-S", "-200"])

    def wait(self, text: str, seconds: float = 60) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not on the screen:\n{self.screen()}")

    def wait_last(self, line: str, seconds: float = 60) -> None:
        """Wait for ``line`` to be the last line on the screen (what the prompt is showing)."""
        end = time.monotonic() + seconds
        while _last_line(self).rstrip() != line:
            assert time.monotonic() < end, f"{line!r} is not the last line:\n{self.screen()}"
            time.sleep(0.05)

    def prompt_after(self, text: str, seconds: float = 60) -> None:
        """Wait for ``text`` on the screen and the empty prompt on the last line: what
        printed ``text`` has finished, and the session waits for a line."""
        end = time.monotonic() + seconds
        while not (text in self.screen() and _last_line(self).rstrip() == "meeple>"):
            assert time.monotonic() < end, f"no prompt after {text!r}:\n{self.screen()}"
            time.sleep(0.05)

    def close(self) -> None:
        self.tmux(["kill-server"])


_TMUX = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.mark.slow
@_TMUX
def test_a_terminal_session_completes_plays_and_ends_cleanly(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    placement = f"{move['x']} {move['y']} {move['rotation']}"
    terminal = _Terminal([*PLAY, str(game), "--lines", "--bot", "black=greedy"])
    try:
        terminal.prompt_after("Next: red places")
        terminal.keys("pla")
        terminal.wait_last("meeple> pla")
        terminal.keys("Tab")
        terminal.wait_last("meeple> place")
        terminal.keys(" ", placement)
        terminal.wait_last(f"meeple> place {placement}")
        terminal.keys("Tab")  # the placement's targets are offered
        shown = terminal.wait(f"{placement} {move['targets'][0]}")
        assert "meeple> place" in shown
        terminal.keys("C-u")  # the line is cleared, as in any shell (and the offer closed)
        terminal.wait_last("meeple>")
        terminal.keys(f"place {placement}", "Enter")
        terminal.prompt_after("Next: red may place a meeple")
        terminal.keys("skip", "Enter")
        terminal.prompt_after("-- black (greedy) plays --")  # its move is written and drawn
        terminal.keys("C-c")
        shown = terminal.wait("EXITED")
        assert "EXITED 0" in shown and "Traceback" not in shown
        assert "(interrupted: the log keeps every move made)" in shown
    finally:
        terminal.close()
    status = run_json("status", game)
    assert status["turn"] == 3 and status["player"] == "red"
    assert len(log.read(game).events) > 5
    run("check", game)


@pytest.mark.slow
@_TMUX
def test_ctrl_c_while_a_session_bot_thinks_ends_the_session_and_keeps_the_persons_move(tmp_path):
    """Ctrl-C stops the bot seat's search (up to 30 s of CPU a move here) at once and ends
    the session, as at the prompt; the person's move before it stands."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "11")
    move = run_json("moves", game)[0]
    terminal = _Terminal([*PLAY, str(game), "--lines", "--bot", "black=mcts:30s"])
    try:
        terminal.prompt_after("Next: red places")
        terminal.keys(f"place {move['x']} {move['y']} {move['rotation']}", "Enter")
        terminal.prompt_after("Next: red may place a meeple")
        terminal.keys("skip", "Enter")
        terminal.wait("-- black (mcts:30s) plays --")
        terminal.keys("C-c")
        shown = terminal.wait("EXITED", 20)
        assert "EXITED 0" in shown and "Traceback" not in shown
        assert "(interrupted: the log keeps every move made)" in shown
    finally:
        terminal.close()
    status = run_json("status", game)
    assert status["turn"] == 2 and status["player"] == "black"
    run("check", game)


@pytest.mark.slow
@_TMUX
def test_ctrl_d_ends_a_terminal_session_and_up_recalls_a_line(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "12")
    before = game.read_bytes()
    terminal = _Terminal([*PLAY, str(game), "--lines"])
    try:
        terminal.prompt_after("Next: red places")
        terminal.keys("status", "Enter")
        terminal.prompt_after("head ")
        terminal.keys("Up")
        terminal.wait_last("meeple> status")
        terminal.keys("C-u")
        terminal.wait_last("meeple>")
        terminal.keys("C-d")
        shown = terminal.wait("EXITED")
        assert "EXITED 0" in shown
    finally:
        terminal.close()
    assert game.read_bytes() == before
    assert json.loads(json.dumps(run_json("status", game)))["turn"] == 1


def _last_line(terminal: _Terminal) -> str:
    lines = terminal.screen().rstrip().splitlines()
    return lines[-1] if lines else ""


def _ready(terminal: _Terminal, seconds: float = 60) -> None:
    """Wait for the prompt on the last line: the command before has been written and drawn."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if _last_line(terminal).rstrip() == "meeple>":
            return
        time.sleep(0.05)
    raise AssertionError(f"no prompt:\n{terminal.screen()}")


@pytest.mark.slow
@_TMUX
@pytest.mark.parametrize("edition", ["star-wars", "classic"])
def test_a_whole_game_typed_at_a_terminal_against_a_recorded_bot_seat(tmp_path, edition):
    """The issue's test: a person types a whole 2-player game in a real terminal, reading
    the board's labels back (``place b2 TARGET``) and coordinates, against a bot seat
    recorded with ``new --bot``; the log it leaves checks, and holds every move typed."""
    from meeple.cli.labels import spots
    from meeple.cli.session import open_game

    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "w", "--edition", edition,
        "--bot", "black=greedy")
    terminal = _Terminal([*PLAY, str(game), "--lines"])
    typed = placed_by_label = 0
    try:
        while True:
            _ready(terminal)
            state = open_game(str(game)).state
            status = run_json("status", game)
            if status["phase"] == "over":
                break
            assert status["player"] == "red", status  # the bot seat has answered already
            if status["phase"] == "place_meeple":
                line = "skip"
            else:
                move = run_json("moves", game)[typed % 3]
                target = move["targets"][0] if move["targets"] and typed % 2 else ""
                named = {(x, y): name for name, (x, y, _) in spots(state).items()}
                if typed % 2:
                    line = f"place {named[(move['x'], move['y'])]}{move['rotation'] // 90 + 1}"
                    placed_by_label += 1
                else:
                    line = f"place {move['x']} {move['y']} {move['rotation']}"
                line = f"{line} {target}".rstrip()
                if target and move["figures"] == ["large"]:
                    line += " --large"
            head = status["head"]
            terminal.keys(line, "Enter")
            end = time.monotonic() + 60
            while run_json("status", game)["head"] == head:
                assert time.monotonic() < end, terminal.screen()
                time.sleep(0.05)
            typed += line.startswith("place")
        shown = terminal.screen()
        assert "Traceback" not in shown and "error" not in shown.lower(), shown
        terminal.keys("C-d")
        assert "EXITED 0" in terminal.wait("EXITED")
    finally:
        terminal.close()
    assert run_json("check", game)["ok"]
    events = [json.loads(line) for line in game.read_text().splitlines()]
    mine = [e for e in events if e["type"] == "tile_placed" and e["player"] == "red"]
    assert len(mine) == typed and placed_by_label > 10
    assert len([e for e in events if e["type"] == "tile_placed" and e["player"] == "black"]) \
        >= typed - 1
    assert run_json("status", game)["winners"]
