"""``meeple bench``: how fast the engine is, as figures and as ratios to a baseline.

Everything is measured in one process after a warm-up, as medians over
repeats. The baseline (decoding one event line with msgspec; 1,000 dict
lookups) is measured in the same run, so ratios compare across noisy machines.
Benchmarks are not tests: nothing here asserts a time.
"""

from __future__ import annotations

import functools
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from meeple.cli.store import game_tileset, load_tileset
from meeple.engine.bots import random_move
from meeple.engine.check import command_of, verify
from meeple.engine.decide import moves_with_targets
from meeple.engine.flow import awaiting
from meeple.engine.play import fold, play, settle
from meeple.engine.setup import new_game
from meeple.engine.state import GameState, start
from meeple.events import log as logfile
from meeple.events.model import (
    Event,
    GameStarted,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    TilePlaced,
    decode,
    encode,
)

#: name -> (unit, target, "at most" or "at least")
TARGETS = {
    "legal_moves": ("us", 60.0, "max"),
    "apply": ("us", None, "max"),
    "replay": ("ms", 5.0, "max"),
    "check": ("ms", 15.0, "max"),
    "random_games": ("games/s", 200.0, "min"),
    "startup": ("x import", 1.5, "max"),
    "classic_legal_moves": ("us", 60.0, "max"),
    "classic_apply": ("us", None, "max"),
    "classic_replay": ("ms", 5.0, "max"),
    "classic_check": ("ms", 15.0, "max"),
    "classic_random_games": ("games/s", 100.0, "min"),
}


def _median_time(fn: Callable[[], object], repeats: int, number: int) -> float:
    """Median seconds per call of ``fn`` over ``repeats`` batches of ``number`` calls."""
    times = []
    for _ in range(repeats):
        begin = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - begin) / number)
    return statistics.median(times)


def play_random(seed: str, players: list[str], tileset) -> tuple[GameState, list[Event]]:
    """A complete seeded game with the random bot, events kept in memory."""
    first = new_game(players, tileset, seed=seed)
    state, log = settle(start(first))
    log = [first, *log]
    while awaiting(state) != "over":
        state, events = play(state, random_move(state))
        log += events
    return state, log


def all_moves(state: GameState) -> list:
    """Every placement of the drawn tile with its meeple targets (what `moves` computes)."""
    return moves_with_targets(state, state.tileset.types[state.drawn])  # type: ignore[index]


def _mid_game_positions(logs: list[list[Event]]) -> list[GameState]:
    positions = []
    for log in logs:
        placed = [i for i, e in enumerate(log) if isinstance(e, TilePlaced)]
        for turn in (20, 35, 50):
            positions.append(fold(log[: placed[turn]]))
    return positions


def _edition(results: dict, prefix: str, tileset, players: list[str], quick: bool,
             repeats: int) -> str:
    """The engine figures of one edition's games; returns the path of a written game."""
    games = [play_random(f"bench-{i}", players, tileset) for i in range(4)]
    logs = [log for _, log in games]
    positions = _mid_game_positions(logs)
    results[f"{prefix}legal_moves"] = 1e6 * statistics.median(
        _median_time(functools.partial(all_moves, s), repeats, 20) for s in positions
    )
    commands = [command for e in logs[0][1:]
                if isinstance(e, (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack))
                and (command := command_of(e)) is not None]
    first = logs[0][0]
    assert isinstance(first, GameStarted)

    def replay_commands() -> None:
        state, _ = settle(start(first))
        for command in commands:
            state, _ = play(state, command)

    turns = sum(isinstance(e, TilePlaced) for e in logs[0])
    results[f"{prefix}apply"] = 1e6 * _median_time(replay_commands, repeats, 1) / turns
    path = os.path.join(tempfile.mkdtemp(prefix="meeple-bench-"), "game.jsonl")
    logfile.create(path, logs[0])
    results[f"{prefix}replay"] = 1e3 * _median_time(lambda: fold(logfile.read(path).events),
                                                    repeats, 5)
    results[f"{prefix}check"] = 1e3 * _median_time(lambda: verify(logfile.read(path).events),
                                                   repeats, 5)
    results[f"{prefix}random_games"] = _games_per_second(tileset, players, 2.0 if quick else 5.0)
    return path


def run(quick: bool) -> dict:
    repeats = 5 if quick else 15
    tileset = load_tileset(None)
    games = [play_random(f"bench-{i}", ["red", "black"], tileset) for i in range(1)]
    results: dict[str, float] = {}

    line = encode(next(e for e in games[0][1] if isinstance(e, TilePlaced)))
    table = {i: i for i in range(1000)}
    keys = list(range(1000))
    decode_s = _median_time(lambda: decode(line), repeats, 2000)
    lookups_s = _median_time(lambda: [table[k] for k in keys], repeats, 50)

    path = _edition(results, "", tileset, ["red", "black"], quick, repeats)
    status_s, import_s = _startup(path, 3 if quick else 7)
    shutil.rmtree(os.path.dirname(path))
    results["startup"] = status_s / import_s
    path = _edition(results, "classic_", game_tileset("classic", None), ["red", "blue"],
                    quick, repeats)
    shutil.rmtree(os.path.dirname(path))

    report: dict[str, dict] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "baseline": {"decode_line_us": 1e6 * decode_s, "dict_lookups_1000_us": 1e6 * lookups_s},
        "startup": {"status_ms": 1e3 * status_s, "import_typer_msgspec_ms": 1e3 * import_s},
        "results": {},
    }
    for name, value in results.items():
        unit, target, how = TARGETS[name]
        entry: dict[str, object] = {"value": round(value, 3), "unit": unit}
        if unit in ("us", "ms"):
            seconds = value / (1e6 if unit == "us" else 1e3)
            entry["x_decode_line"] = round(seconds / decode_s, 1)
        elif unit == "games/s":
            entry["x_decode_line"] = round((1 / value) / decode_s, 1)
        if target is not None:
            entry["target"] = target
            entry["met"] = value <= target if how == "max" else value >= target
        report["results"][name] = entry
    return report


def _games_per_second(tileset, players: list[str], seconds: float) -> float:
    play_random("warm-up", players, tileset)
    count = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        play_random(f"rate-{count}", players, tileset)
        count += 1
    return count / (time.perf_counter() - begin)


def _startup(path: str, repeats: int) -> tuple[float, float]:
    """Median wall time of `meeple status` on a finished game, and of a bare import."""
    status = [sys.executable, "-c", "from meeple.cli.app import main; main()", "status", path]
    bare = [sys.executable, "-c", "import typer, msgspec"]

    # as an installed user runs it: compiled bytecode cached (the warm-up run writes it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def timed(argv: list[str]) -> float:
        begin = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env)
        return time.perf_counter() - begin

    timed(status), timed(bare)
    status_times, bare_times = [], []
    for _ in range(repeats):
        status_times.append(timed(status))
        bare_times.append(timed(bare))
    return statistics.median(status_times), statistics.median(bare_times)


def render(report: dict) -> str:
    base = report["baseline"]
    lines = [
        f"meeple bench · Python {report['machine']['python']} · {report['machine']['cpus']} cpus",
        f"baseline: decode one event line {base['decode_line_us']:.2f} us; "
        f"1,000 dict lookups {base['dict_lookups_1000_us']:.1f} us",
        "",
        f"{'benchmark':<22}{'value':>12}  {'unit':<10}{'x baseline':>11}  target",
    ]
    for name, entry in report["results"].items():
        target = ""
        if "target" in entry:
            sign = "<=" if TARGETS[name][2] == "max" else ">="
            target = f"{sign} {entry['target']:g}  " + ("met" if entry["met"] else "MISSED")
        ratio = entry.get("x_decode_line", "")
        lines.append(f"{name:<22}{entry['value']:>12.2f}  {entry['unit']:<10}{ratio!s:>11}  {target}")
    s = report["startup"]
    lines.append(f"\nstartup: `meeple status` {s['status_ms']:.0f} ms, bare `import typer, msgspec` "
                 f"{s['import_typer_msgspec_ms']:.0f} ms")
    return "\n".join(lines)
