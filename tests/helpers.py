"""Test helpers: the bundled tile set, small custom sets, and a table-mode game driver."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import time
from pathlib import Path

import msgspec
import typer.testing
from typer.testing import CliRunner

from meeple.engine import (
    DrawTile,
    Game,
    GameState,
    PlaceMeeple,
    PlaceTile,
    RollDice,
    SkipMeeple,
    new_game,
)
from meeple.events.model import Event
from meeple.events.tileset import TileSetDef

from scenarios import (  # noqa: F401  (tests import the shared sets from here)
    HOTH_RING,
    ROUTE_BATTLE,
    SCENARIOS,
    bundled,
    classic,
    mini_set,
    one_of_each,
    rechain,
    setup,
)

runner = CliRunner()
# typer's runner builds the click command of the app it is given at every invoke, about a
# millisecond; ``app_for`` gives one object per command name, so each tree is built once
# (where typer's runner builds it through this name: the tests only run slower otherwise).
if hasattr(typer.testing, "_get_command"):
    typer.testing._get_command = functools.cache(typer.testing._get_command)

#: the recorded games of ``fixtures/`` that fold to a valid game
RECORDED = sorted(p for p in (Path(__file__).parents[1] / "fixtures").glob("*.jsonl")
                  if "unplaceable" not in p.name and "invalid" not in p.name)


def invoke(args, **options):
    """Run a command line of the CLI in this process, whatever its exit code, through the
    command tree ``main`` builds for it (``app_for``: the named command alone, which typer
    builds in a fraction of the whole tree's time). ``options`` go to ``CliRunner.invoke``.
    (The CLI is imported here, so that engine tests using the other helpers never load it.)"""
    from meeple.cli.app import app_for

    words = [str(a) for a in args]
    return runner.invoke(app_for(words), words, **options)


def main(*args, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run ``meeple ARGS`` in this process through the console script's entry point ``main``,
    as a shell runs it (its one-line or JSON usage errors, its exit code), stdout and stderr
    captured as a pipe would take them: what ``subprocess.run`` would give, without starting
    Python again. ``env``: variables set for the run."""
    import contextlib
    import gc
    import io
    import os
    import sys
    from unittest import mock

    from meeple.cli import app, output

    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(sys, "argv", ["meeple", *argv]))
        stack.enter_context(mock.patch.dict(os.environ, env or {}))
        # main's process-wide settings, undone for the tests after this one
        stack.enter_context(mock.patch.object(gc, "freeze", lambda: None))
        stack.enter_context(mock.patch.object(output, "errors_as_json", False))
        stack.enter_context(mock.patch.object(output, "error_said", False))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            app.main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    return subprocess.CompletedProcess(["meeple", *argv], code, out.getvalue(), err.getvalue())


#: two players of each bundled edition
TWO_PLAYERS = {"star-wars": ["red", "black"], "classic": ["red", "blue"]}


def greedy_game(edition: str, seed: str, turns: int) -> Game:
    """A two-player game of ``edition`` that ``greedy`` plays for both seats past ``turns``."""
    from meeple.engine import greedy_move

    game = Game.new(TWO_PLAYERS[edition], edition, seed=seed)
    while not game.over and game.turn <= turns:
        game.push(greedy_move(game.state))
    return game


def examples(whole: int) -> int:
    """How many examples a hypothesis test that asks for ``whole`` tries: all of them in the
    whole run, fewer as the loaded profile asks fewer than hypothesis's 100 (the everyday
    run's, ``tests/conftest.py``), never under 10."""
    from hypothesis import settings

    return max(10, whole * settings().max_examples // 100)


def interruptible() -> None:
    """For ``subprocess.Popen(preexec_fn=...)`` of a process a test sends Ctrl-C (SIGINT):
    SIGINT back to its default in the child, even where the tests themselves were started
    with it ignored (as a shell starts a command run in the background), so that Python
    turns it into KeyboardInterrupt there."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(*args, code=0):
    """Run the CLI in-process; the exit code must be ``code`` and no traceback shown."""
    result = invoke(args)
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def run_json(*args, code=0):
    return json.loads(run(*args, "--json", code=code).stdout)


def fail(*args, code=1):
    """Run a command that must fail with one ``meeple: error:`` line (under ``--json``, one
    JSON object whose ``error`` is returned in that form); returns that line."""
    result = run(*args, code=code)
    lines = result.stderr.strip().splitlines()
    if "--json" in [str(a) for a in args]:
        assert len(lines) == 1, result.stderr
        error = json.loads(lines[0])
        assert set(error) == {"error", "kind", "code", "rule", "legal"} and error["code"] == code
        return "meeple: error: " + error["error"]
    assert len(lines) == 1 and lines[0].startswith("meeple: error: "), result.stderr
    return lines[0]


class Table:
    """Drives a table-mode game: chosen draws, placements, meeples and dice."""

    def __init__(self, players: list[str], tileset: TileSetDef | None = None, **options):
        self.first = new_game(players, tileset or bundled(), table=True, **options)
        self.game = Game.begin(self.first)
        #: the commands of a scenario not played yet (see ``scenario`` and ``step``)
        self.rest: list = []

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def events(self) -> list[Event]:
        return list(self.game.events)

    @classmethod
    def scenario(cls, name: str, steps: int | None = None) -> Table:
        """A scenario of ``fixtures/scenarios.py`` (the one the recorded fixture was built
        from), its first ``steps`` commands played (all by default); ``step`` plays on."""
        players, options, commands = SCENARIOS[name]
        table = cls.__new__(cls)
        table.first = setup(players, options)
        table.game = Game.begin(table.first)
        table.rest = list(commands)
        table.step(len(commands) if steps is None else steps)
        return table

    def step(self, count: int = 1) -> list[Event]:
        """Play the scenario's next ``count`` commands."""
        now, self.rest = self.rest[:count], self.rest[count:]
        return self.play(now)

    def play(self, commands) -> list[Event]:
        """Play commands in order (as ``fixtures/scenarios.py`` writes them)."""
        new: list[Event] = []
        for command in commands:
            new += self.do(command)
        return new

    def do(self, command) -> list[Event]:
        return self.game.push(command)

    def turn(self, tile: str, x: int, y: int, rotation: int, meeple: str | None = None,
             large: bool = False) -> list[Event]:
        """Draw ``tile``, place it, then deploy on ``meeple`` or skip."""
        new = self.do(DrawTile(tile))
        new += self.do(PlaceTile(x, y, rotation))
        figure = "large" if large else "small"
        new += self.do(PlaceMeeple(meeple, figure) if meeple else SkipMeeple())
        return new

    def roll(self, **rolls: tuple[int, ...]) -> list[Event]:
        return self.do(RollDice({k: tuple(v) for k, v in rolls.items()}))

    @property
    def waiting(self) -> str | None:
        return self.game.phase

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]


def short_set_file(folder: Path, edition: str) -> Path:
    """``one_of_each(edition)`` written as a tile set file in ``folder`` (for ``--tileset``)."""
    path = folder / f"{edition}-one-of-each.json"
    path.write_bytes(msgspec.json.encode(one_of_each(edition)))
    return path


def route_battle(players=("red", "white")) -> Table:
    """RULES.md's route battle: red holds a route west of the start, white one ending at
    tatooine (1, 1); red's curve at (1, 0) joins them into one complete 4-tile route."""
    t = Table(list(players))
    t.play(ROUTE_BATTLE)
    return t


def surround_hoth(t: Table, last_meeple: str | None = None) -> None:
    """Hoth lies at (0, -1): lay its 7 other neighbours; the last, naboo, may deploy a meeple."""
    t.play(HOTH_RING)
    t.turn("naboo", 1, -2, 0, meeple=last_meeple)


def meeples_on_board(state) -> int:
    """How many figures stand on the board of ``state``."""
    return sum(1 for placed in state.board.values() for node in placed.nodes
               for _, _, where in state.realms.realm(node).meeples if where == node)


def plain(doc: dict) -> dict:
    """The page's document as its script reads it: a frame and an event object per event."""
    doc = json.loads(msgspec.json.encode(doc))
    frames = [doc["frames"][k] for k in doc["frame_of"]]
    events = [{"seq": seq, "text": doc["texts"][text], "undone": bool(doc["flags"][seq] & 1),
               "turn_end": bool(doc["flags"][seq] & 2),
               "hash": doc["hashes"][64 * seq:64 * seq + 64]}
              for seq, text in enumerate(doc["text_of"])]
    return {**doc, "frames": frames, "events": events}


def process_gone(pid: int, within: float = 10.0) -> bool:
    """Whether the process ``pid`` ends within ``within`` seconds (a zombie of this process's
    is gone once reaped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False

