"""An arena's plan and its tally: which seatings each seed is played in, the folder's record
of the arena (``arena.json``, the games' timings in ``results.ndjson``), and the summary,
which ``meeple arena --resume`` recomputes from the folder alone.

Seatings: the bots at one table play every seating, all permutations of their seats (2 bots:
2 games a seed, 3: 6, 4: 24, 5: 120), so no result depends on the order of ``--bots``. A
ladder (``--ladder``) sets every two bots at a table of two, in both seatings, for every
seed. The games of one seed at one table are its *group*: they share the seed's tiles, and
the errors are computed over groups (for two bots, the pentanomial model of pairs).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Iterator

from meeple.cli.bots.elo import fit
from meeple.cli.bots.record import (
    DAMAGED,
    append_line,
    check_record,
    noted_lines,
    read_plain,
    timing,
)
from meeple.cli.bots.stats import (
    Z95,
    elo_of,
    mean_and_error,
    pair_scores,
    pentanomial,
    wilson,
)
from meeple.cli.store import Failure

#: the file that records an arena's settings, in its folder
MANIFEST = "arena.json"
#: one JSON line a game written (its bots' time and moves, why a game stopped), named so
#: that `meeple check FOLDER` does not take it for a game
RESULTS = "results.ndjson"
#: the summary of the games written
SUMMARY = "summary.json"
#: the most games one arena plays
MAX_GAMES = 100_000
#: the largest ``arena.json`` read, in bytes (an arena writes a few hundred)
MAX_MANIFEST_BYTES = 64 * 1024
#: virtual drawn games between every two bots that met, added to the Elo fit
ELO_PRIOR = 2.0


def game_name(seed: str, index: int) -> str:
    return f"arena-{seed}-{index}.jsonl"


def seatings(bots: list[str], ladder: bool) -> list[tuple[str, ...]]:
    """The seatings a seed is played in, in order: every permutation of the bots at one
    table, or for a ladder both seatings of every two bots."""
    if ladder:
        return [seating for a, b in itertools.combinations(bots, 2)
                for seating in ((a, b), (b, a))]
    return list(itertools.permutations(bots))


def group_size(bots: list[str], ladder: bool) -> int:
    """How many games make one group (one seed at one table)."""
    return 2 if ladder else math.factorial(len(bots))


def schedule(bots: list[str], ladder: bool, seeds: int, seed: str
             ) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """Every game of the arena: its index, its seed and its seating."""
    plan = seatings(bots, ladder)
    for s in range(seeds):
        for k, seating in enumerate(plan):
            yield s * len(plan) + k, f"{seed}-{s}", seating


def outcome(scores: list[int], failed: int | None) -> list[float]:
    """Each seat's share of the win: a bot that failed loses, the others share the win by
    their scores."""
    alive = [i for i in range(len(scores)) if i != failed]
    best = max(scores[i] for i in alive)
    top = [i for i in alive if scores[i] == best]
    return [1.0 / len(top) if i in top else 0.0 for i in range(len(scores))]


def write_manifest(out: str, settings: dict) -> None:
    """Record the arena's settings in its folder, for ``--resume`` (an existing record must
    be the same arena's)."""
    path = os.path.join(out, MANIFEST)
    if os.path.exists(path):
        if read_manifest(out) != settings:
            raise Failure(f"{path}: another arena's record is in this folder; choose another "
                          "--out, or `meeple arena --resume` it", 2)
        return
    with open(path, "x", encoding="utf-8") as f:
        f.write(json.dumps(settings, indent=1, sort_keys=True) + "\n")


def read_manifest(out: str) -> dict:
    """The settings recorded in an arena's folder, checked (``meeple.cli.bots.record``).

    :raises Failure: (2) no arena there; (3) a record that does not read or is damaged.
    """
    path = os.path.join(out, MANIFEST)
    try:
        settings = json.loads(read_plain(path, MAX_MANIFEST_BYTES))
    except FileNotFoundError:
        raise Failure(f"{path}: no arena was started in this folder (no {MANIFEST})", 2) from None
    except (OSError, ValueError, RecursionError) as exc:
        raise Failure(f"{path}: cannot read the arena's record: {exc}", DAMAGED) from None
    keys = {"bots", "seed", "seeds", "ladder", "edition", "move_time", "sprt"}
    if not isinstance(settings, dict) or set(settings) != keys:
        raise Failure(f"{path}: not an arena's record (it holds {', '.join(sorted(keys))})",
                      DAMAGED)
    check_record(path, settings, MAX_GAMES, game_name)
    return settings


def note_result(out: str, result: dict) -> None:
    """Append a written game's timings and failure to ``results.ndjson``."""
    line = {"file": os.path.basename(result["file"]), "seconds": result["seconds"],
            "moves": result["moves"],
            "reason": result["stopped"]["reason"] if result["stopped"] else None}
    append_line(os.path.join(out, RESULTS), json.dumps(line) + "\n")


def folder_results(out: str, settings: dict) -> list[dict]:
    """The results of the games written in an arena's folder, read from their logs (every
    move checked again), in the arena's order; timings from ``results.ndjson`` where noted.

    :raises Failure: (3) a game's log does not read, or names other players than its
        seating's bots.
    """
    from meeple.cli.session import bot_label
    from meeple.engine import Game
    from meeple.events import log as logfile

    seats = 2 if settings["ladder"] else len(settings["bots"])
    noted = {}
    for line in noted_lines(os.path.join(out, RESULTS)):
        entry = timing(line, seats)
        if entry is not None:  # else a line cut by an interruption: its timing is unknown
            noted[entry["file"]] = entry
    results = []
    for index, seed, seating in schedule(settings["bots"], settings["ladder"],
                                         settings["seeds"], settings["seed"]):
        name = game_name(settings["seed"], index)
        path = os.path.join(out, name)
        if not os.path.exists(path):
            continue
        try:
            game = Game.from_log(logfile.read(path))
        except Exception as exc:  # noqa: BLE001 - any failure to read is said, in one line
            raise Failure(f"{path}: cannot be tallied: {exc}; move it away to play it "
                          "again", 3) from None
        state = game.state
        colours = [p.colour for p in state.setup.players]
        if [p.name for p in state.setup.players] != [bot_label(b) for b in seating]:
            raise Failure(f"{path}: its players are not the bots of its seating "
                          f"({', '.join(seating)})", 3)
        if (state.setup.seed, state.setup.edition) != (seed, settings["edition"]):
            raise Failure(f"{path}: not a game of this arena (its seed and edition are "
                          f"{state.setup.seed!r} and {state.setup.edition!r}, not {seed!r} and "
                          f"{settings['edition']!r}); move it away to play it again", 3)
        scores = [state.scores[state.side_of[c]] for c in colours]
        failed = colours.index(state.player) if state.phase != "over" else None
        entry = noted.get(name) or {}
        seconds = entry.get("seconds") or [0.0] * len(seating)
        moves = entry.get("moves") or [0] * len(seating)
        stopped = None if failed is None else {
            "seat": failed, "bot": seating[failed],
            "reason": entry.get("reason") or "(not noted)"}
        results.append({"file": path, "seed": seed, "seats": list(seating), "scores": scores,
                        "seconds": seconds, "moves": moves, "stopped": stopped,
                        "shares": outcome(scores, failed), "head": game.head})
    return results


def _groups(results: list[dict]) -> dict[tuple[str, frozenset], list[dict]]:
    groups: dict[tuple[str, frozenset], list[dict]] = {}
    for result in results:
        groups.setdefault((result["seed"], frozenset(result["seats"])), []).append(result)
    return groups


def _pairwise(results: list[dict]) -> list[tuple[str, str, float]]:
    """Each game as the games of every two of its bots: the larger score wins, equal scores
    tie, and a bot that failed loses to every other."""
    pairs = []
    for result in results:
        scores, seats = result["scores"], result["seats"]
        failed = result["stopped"]["seat"] if result["stopped"] else None
        for i, j in itertools.combinations(range(len(seats)), 2):
            if failed in (i, j):
                score = 0.0 if failed == i else 1.0
            else:
                score = 1.0 if scores[i] > scores[j] else 0.0 if scores[i] < scores[j] else 0.5
            pairs.append((seats[i], seats[j], score))
    return pairs


def _pairings(bots: list[str], groups: dict, size: int) -> list[dict]:
    """For every two bots that met at a table of two: the pentanomial counts of their pairs
    (whole groups only), the first bot's mean score with its paired error, its Elo."""
    rows = []
    for a, b in itertools.combinations(bots, 2):
        points = [sum(r["shares"][r["seats"].index(a)] for r in games)
                  for (_, bots_at), games in groups.items()
                  if bots_at == {a, b} and len(games) == size]
        if not points:
            continue
        mean, error = pair_scores(points)
        low, high = max(0.0, mean - Z95 * error), min(1.0, mean + Z95 * error)
        rows.append({"bots": [a, b], "pairs": len(points), "pentanomial": pentanomial(points),
                     "score": round(mean, 4), "se": _error(error, len(points), 4),
                     "elo": _finite(elo_of(mean)), "elo95": [_finite(elo_of(low)),
                                                             _finite(elo_of(high))]})
    return rows


def _error(error: float, count: int, digits: int) -> float | None:
    """A standard error, rounded, or None where fewer than two values give none."""
    return round(error, digits) if count >= 2 else None


def _finite(value: float) -> float | None:
    return round(value, 1) + 0.0 if math.isfinite(value) else None  # + 0.0: no "-0"


def summarise(bots: list[str], results: list[dict], ladder: bool = False) -> dict:
    """Per bot: games, wins (ties half) and their Wilson interval, its mean share a group
    with the error over groups (paired), mean score, seconds a move, games lost by failing,
    its Elo (Bradley-Terry over every two bots of each game); every pairing of two bots at a
    table of two in the pentanomial model; for the first two bots at one table the mean
    score difference with its error over seeds."""
    size = 2 if ladder else math.factorial(len(bots))
    per: dict[str, dict] = {b: {"games": 0, "wins": 0.0, "scores": [], "seconds": 0.0,
                                "moves": 0, "failed": 0} for b in bots}
    for result in results:
        whole = result["stopped"] is None  # a stopped game's scores count for nothing
        for seat, bot in enumerate(result["seats"]):
            entry = per[bot]
            entry["games"] += 1
            entry["wins"] += result["shares"][seat]
            if whole:
                entry["scores"].append(result["scores"][seat])
            entry["seconds"] += result["seconds"][seat]
            entry["moves"] += result["moves"][seat]
            if result["stopped"] and result["stopped"]["seat"] == seat:
                entry["failed"] += 1
    groups = {key: games for key, games in _groups(results).items() if len(games) == size}
    try:
        played = [b for b in bots if per[b]["games"]]  # a bot yet to play is not rated
        ratings = fit(played, _pairwise(results), prior=ELO_PRIOR) if results else {}
    except ValueError:
        ratings = {}
    table = []
    for bot in bots:
        entry = per[bot]
        low, high = wilson(entry["wins"], entry["games"])
        mean, error = mean_and_error([float(s) for s in entry["scores"]])
        shares = [sum(r["shares"][r["seats"].index(bot)] for r in games) / len(games)
                  for (_, at), games in groups.items() if bot in at]
        paired, paired_se = mean_and_error(shares)
        elo, elo_se = ratings.get(bot, (math.nan, math.nan))
        table.append({"bot": bot, "games": entry["games"], "wins": entry["wins"],
                      "win_rate": entry["wins"] / entry["games"] if entry["games"] else None,
                      "wilson95": [round(low, 4), round(high, 4)],
                      "paired_rate": round(paired, 4) if shares else None,
                      "paired_se": _error(paired_se, len(shares), 4), "groups": len(shares),
                      "elo": _finite(elo), "elo_se": _finite(elo_se),
                      "mean_score": round(mean, 2) if entry["scores"] else None,
                      "mean_score_se": _error(error, len(entry["scores"]), 2),
                      "seconds_per_move": (entry["seconds"] / entry["moves"]
                                           if entry["moves"] else None),
                      "clock": "wall" if bot.startswith("cmd:") else "cpu",
                      "failed": entry["failed"]})
    summary: dict = {"bots": table, "pairings": _pairings(bots, groups, 2)}
    if not ladder:
        diffs = []
        for games in groups.values():
            if all(r["stopped"] is None for r in games):
                diffs.append(sum(r["scores"][r["seats"].index(bots[0])]
                                 - r["scores"][r["seats"].index(bots[1])] for r in games)
                             / len(games))
        if diffs:
            mean, error = mean_and_error(diffs)
            summary["score_difference"] = {"of": bots[0], "over": bots[1],
                                           "mean": round(mean, 2),
                                           "se": _error(error, len(diffs), 2),
                                           "seeds": len(diffs), "games": len(diffs) * size}
    return summary
