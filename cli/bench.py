"""``meeple bench``: how fast the engine is, in CPU time.

Everything is measured in one process after a warm-up, in CPU time
(``time.process_time``: on a shared, loaded machine wall-clock figures swing
several times over, CPU time far less), as the median of several repeats with
their minimum and maximum, beside the load average at the time. Start-up is a
whole-process figure: `meeple status` against a bare import, run in pairs, as
the median ratio of their CPU times. ``--against OLD.json`` gives each figure as
a ratio to a saved run, to judge a change on a noisy machine. Benchmarks are not
tests: nothing here asserts a time.

Scaling: the same figures on the Star Wars set with every count multiplied (50
times; 5 with ``--quick``), as ratios to the plain set: listing the legal moves at
90% of a game (in all, and per placement listed, since a board 50 times larger
offers many more placements) and checking a game, per log line.
"""

from __future__ import annotations

import functools
import gc
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import msgspec

from meeple.cli.store import game_tileset, load_tileset
from meeple.engine import (
    Game,
    GameState,
    command_of,
    detach,
    fold,
    moves_with_targets,
    playout,
    random_move,
    verify,
)
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
from meeple.events.tileset import TileSetDef

#: name -> (unit, target, "at most" or "at least"), the targets of the speed issue
TARGETS = {
    "legal_moves": ("us", 25.0, "max"),
    "apply": ("us", None, "max"),
    "copy": ("us", 20.0, "max"),
    "playouts": ("playouts/s", 2000.0, "min"),
    "replay": ("ms", 5.0, "max"),
    "check": ("ms", 2.0, "max"),
    "random_games": ("games/s", 500.0, "min"),
    "startup": ("x import", 1.4, "max"),
    "check_signed": ("x local", 3.0, "max"),
    "scale_legal_moves": ("x 1x set", 2.0, "max"),
    "scale_legal_per_placement": ("x 1x set", 2.0, "max"),
    "scale_check_line": ("x 1x set", 1.3, "max"),
    "classic_legal_moves": ("us", 25.0, "max"),
    "classic_apply": ("us", None, "max"),
    "classic_copy": ("us", 20.0, "max"),
    "classic_playouts": ("playouts/s", 2000.0, "min"),
    "classic_replay": ("ms", 5.0, "max"),
    "classic_check": ("ms", 2.0, "max"),
    "classic_random_games": ("games/s", 500.0, "min"),
}

#: each figure as (minimum, median, maximum) over the repeats
Spread = tuple[float, float, float]


def _cpu_time(fn: Callable[[], object], repeats: int, number: int) -> Spread:
    """CPU seconds per call of ``fn``: min, median and max over ``repeats`` batches of
    ``number`` calls.

    What the bench made before (games, positions, other figures' leftovers) is frozen out of
    the collector's walks meanwhile, as ``meeple`` freezes its imports: each command is a
    process of its own, whose collections walk only what the command itself makes.
    """
    gc.collect()
    gc.freeze()
    try:
        times = []
        for _ in range(repeats):
            begin = time.process_time()
            for _ in range(number):
                fn()
            times.append((time.process_time() - begin) / number)
    finally:
        gc.unfreeze()
    return min(times), statistics.median(times), max(times)


def _scaled(spread: Spread, factor: float) -> Spread:
    low, mid, high = spread
    return low * factor, mid * factor, high * factor


def _per_second(spread: Spread) -> Spread:
    """Seconds per item as items per second (the order of min and max turns over)."""
    low, mid, high = spread
    return 1 / high, 1 / mid, 1 / low


def play_random(seed: str, players: list[str], tileset) -> tuple[GameState, list[Event]]:
    """A complete seeded game with the random bot, events kept in memory."""
    game = Game.new(players, tileset=tileset, seed=seed)
    while not game.over:
        game.push(random_move(game.state))
    return game.state, list(game.events)


def all_moves(state: GameState) -> list:
    """Every placement of the drawn tile with its meeple targets (what `moves` computes)."""
    return moves_with_targets(state, state.in_hand)


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
    spreads = [_cpu_time(functools.partial(all_moves, s), repeats, 20) for s in positions]
    low, mid, high = (statistics.median(s[i] for s in spreads) for i in range(3))
    results[f"{prefix}legal_moves"] = _scaled((low, mid, high), 1e6)
    results[f"{prefix}copy"] = _scaled(_cpu_time(positions[1].copy, repeats, 200), 1e6)
    turn_35 = positions[1]
    rng = random.Random(35)
    results[f"{prefix}playouts"] = _per_second(
        _cpu_time(functools.partial(run_playout, turn_35, rng), repeats, 10))
    commands = [command for e in logs[0][1:]
                if isinstance(e, (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack))
                and (command := command_of(e)) is not None]
    first = logs[0][0]
    assert isinstance(first, GameStarted)

    def replay_commands() -> None:
        game = Game.begin(first)
        for command in commands:
            game.push(command)

    turns = sum(isinstance(e, TilePlaced) for e in logs[0])
    results[f"{prefix}apply"] = _scaled(_cpu_time(replay_commands, repeats, 1), 1e6 / turns)
    path = os.path.join(tempfile.mkdtemp(prefix="meeple-bench-"), "game.jsonl")
    logfile.create(path, logs[0])
    results[f"{prefix}replay"] = _scaled(
        _cpu_time(lambda: fold(logfile.read(path).events), repeats, 5), 1e3)
    results[f"{prefix}check"] = _scaled(
        _cpu_time(lambda: Game.load(path), repeats, 5), 1e3)
    play_random("warm-up", players, tileset)
    counter = iter(range(10**9))
    results[f"{prefix}random_games"] = _per_second(_cpu_time(
        lambda: play_random(f"rate-{next(counter)}", players, tileset), repeats,
        2 if quick else 5))
    return path


def run_playout(position: GameState, rng: random.Random) -> GameState:
    """A detached copy of ``position`` played to the end with random moves, draws sampled
    from the tiles left (what a search bot runs)."""
    return playout(detach(position, rng), rng)


def scaled_set(tileset: TileSetDef, factor: int) -> TileSetDef:
    """A tile set with every count multiplied by ``factor`` (the start tile's too)."""
    return msgspec.structs.replace(
        tileset, name=f"{tileset.name}-x{factor}",
        tiles=tuple(msgspec.structs.replace(t, count=t.count * factor) for t in tileset.tiles))


def _at_90_percent(log: list[Event], count: int) -> list[GameState]:
    """``count`` states awaiting a placement from 90% of the game's placements on."""
    placed = [i for i, e in enumerate(log) if isinstance(e, TilePlaced)]
    first = int(len(placed) * 0.9)
    return [fold(log[: placed[i]]) for i in range(first, min(first + count, len(placed)))]


def _scaling(results: dict, tileset: TileSetDef, factor: int, repeats: int) -> dict:
    """Legal moves at 90% of a game and check per log line, on a set ``factor`` times the
    size against the set itself; returns what was measured, for the report."""
    sizes = {}
    figures: dict[int, dict[str, Spread]] = {}
    for times in (1, factor):
        tiles = scaled_set(tileset, times) if times > 1 else tileset
        _, log = play_random("scale", ["red", "black"], tiles)
        positions = _at_90_percent(log, 5)
        listed = sum(len(all_moves(p)) for p in positions) / len(positions)
        spreads = [_cpu_time(functools.partial(all_moves, p), repeats, 3) for p in positions]
        low, mid, high = (statistics.mean(s[i] for s in spreads) for i in range(3))
        legal = (low, mid, high)
        check = _cpu_time(functools.partial(verify, log), max(5, repeats // 2),
                          max(1, 20 // times))
        figures[times] = {"legal": legal, "per": (low / listed, mid / listed, high / listed),
                          "check": (check[0] / len(log), check[1] / len(log),
                                    check[2] / len(log))}
        sizes[f"x{times}"] = {"tiles": sum(t.count for t in tiles.tiles), "log_lines": len(log),
                              "placements_listed": round(listed, 1),
                              "frontier": len(positions[0].frontier)}
    for name, key in (("scale_legal_moves", "legal"), ("scale_legal_per_placement", "per"),
                      ("scale_check_line", "check")):
        one, many = figures[1][key], figures[factor][key]
        results[name] = (many[0] / one[2], many[1] / one[1], many[2] / one[0])
    return {"factor": factor, "sizes": sizes}


def run(quick: bool) -> dict:
    repeats = 5 if quick else 15
    tileset = load_tileset(None)
    games = [play_random(f"bench-{i}", ["red", "black"], tileset) for i in range(1)]
    results: dict[str, Spread] = {}
    load_before = os.getloadavg()

    line = encode(next(e for e in games[0][1] if isinstance(e, TilePlaced)))
    decode_s = _cpu_time(lambda: decode(line), repeats, 2000)[1]

    path = _edition(results, "", tileset, ["red", "black"], quick, repeats)
    ratio, status_s, import_s = _startup(path, 3 if quick else 7)
    shutil.rmtree(os.path.dirname(path))
    results["startup"] = ratio
    path = _edition(results, "classic_", game_tileset("classic", None), ["red", "blue"],
                    quick, repeats)
    shutil.rmtree(os.path.dirname(path))
    scaling = _scaling(results, tileset, 5 if quick else 50, repeats)
    from meeple.cli.bench_signed import check_signed

    ratio_signed, _, _ = check_signed(lambda fn: _cpu_time(fn, repeats, 2)[1])
    results["check_signed"] = (ratio_signed, ratio_signed, ratio_signed)

    report: dict[str, dict] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "clock": "cpu",
                    "load_average": [round(x, 2) for x in load_before],
                    "load_average_after": [round(x, 2) for x in os.getloadavg()]},
        "baseline": {"decode_line_us": 1e6 * decode_s},
        "startup": {"status_cpu_ms": 1e3 * status_s, "import_typer_msgspec_cpu_ms": 1e3 * import_s},
        "scaling": scaling,
        "results": {},
    }
    for name, (low, value, high) in results.items():
        unit, target, how = TARGETS[name]
        entry: dict[str, object] = {"value": round(value, 3), "min": round(low, 3),
                                    "max": round(high, 3), "unit": unit}
        if target is not None:
            entry["target"] = target
            entry["met"] = value <= target if how == "max" else value >= target
        report["results"][name] = entry
    return report


def _startup(path: str, repeats: int) -> tuple[Spread, float, float]:
    """CPU time of `meeple status` on a finished game against a bare `import typer, msgspec`,
    run in pairs: (min, median, max) of the pairs' ratios, and the median of each."""
    status = [sys.executable, "-c", "from meeple.cli.console import main; main()", "status", path]
    bare = [sys.executable, "-c", "import typer, msgspec"]

    # as an installed user runs it: compiled bytecode cached (the warm-up run writes it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def cpu(argv: list[str]) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    cpu(status), cpu(bare)
    pairs = [(cpu(status), cpu(bare)) for _ in range(repeats)]
    ratios = sorted(a / b for a, b in pairs)
    return ((ratios[0], statistics.median(ratios), ratios[-1]),
            statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs))


def against(report: dict, old: dict) -> dict[str, float]:
    """Each figure of ``report`` as a ratio to the same figure of a saved run ``old``, turned
    so that above 1 is better (faster, or more per second)."""
    ratios = {}
    for name, entry in report["results"].items():
        before = old.get("results", {}).get(name)
        if not before or not before.get("value"):
            continue
        better_lower = TARGETS.get(name, ("", None, "max"))[2] == "max"
        value, previous = entry["value"], before["value"]
        ratios[name] = previous / value if better_lower else value / previous
    return ratios


def render(report: dict, ratios: dict[str, float] | None = None) -> str:
    machine = report["machine"]
    base = report["baseline"]
    load = " ".join(f"{x:.2f}" for x in machine["load_average"])
    lines = [
        f"meeple bench · Python {machine['python']} · {machine['cpus']} cpus · CPU time · load "
        f"average {load} (after: {' '.join(f'{x:.2f}' for x in machine['load_average_after'])})",
        f"baseline: decode one event line {base['decode_line_us']:.2f} us",
        "",
        f"{'benchmark':<22}{'median':>10}{'min':>10}{'max':>10}  {'unit':<11}target"
        + ("          vs old" if ratios is not None else ""),
    ]
    for name, entry in report["results"].items():
        target = ""
        if "target" in entry:
            sign = "<=" if TARGETS[name][2] == "max" else ">="
            target = f"{sign} {entry['target']:g} " + ("met" if entry["met"] else "MISSED")
        row = (f"{name:<22}{entry['value']:>10.2f}{entry['min']:>10.2f}{entry['max']:>10.2f}  "
               f"{entry['unit']:<11}{target:<16}")
        if ratios is not None and name in ratios:
            row += f"{ratios[name]:.2f}x"
        lines.append(row.rstrip())
    s = report["startup"]
    lines.append(f"\nstartup, CPU: `meeple status` {s['status_cpu_ms']:.0f} ms, bare "
                 f"`import typer, msgspec` {s['import_typer_msgspec_cpu_ms']:.0f} ms (medians)")
    scaling = report.get("scaling")
    if scaling:
        one, big = scaling["sizes"]["x1"], scaling["sizes"][f"x{scaling['factor']}"]
        lines.append(f"scaling: Star Wars set x{scaling['factor']} ({big['tiles']} tiles) against "
                     f"x1 ({one['tiles']}): at 90% of a game {big['placements_listed']:g} "
                     f"placements listed against {one['placements_listed']:g}, frontier "
                     f"{big['frontier']} cells against {one['frontier']}; check of "
                     f"{big['log_lines']} lines against {one['log_lines']}")
    if ratios is not None:
        lines.append("vs old: above 1 is faster than the saved run")
    return "\n".join(lines)
