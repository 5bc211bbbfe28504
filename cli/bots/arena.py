"""``meeple arena``: bots against each other over paired games, with the statistics to tell
them apart.

Each seed is played once per seating, the bots' seats rotated (two bots: each seed twice,
seats swapped), so luck in the tiles falls on every bot alike. Every game is written to
``OUT/arena-SEED-I.jsonl`` (the players named by their bots), and every such log passes
``meeple check``: a bot program that fails stops its game at its last legal move and loses
it (the others share the win by their scores so far). The games run on every core; logs
are written by this process, whole, for the games counted. Reported: each bot's wins (a
tie counts half) with a 95% Wilson interval, its mean score in the games played out, the
mean score difference of the first two bots with its standard error, and each bot's time a
move (CPU seconds for the engine's bots, wall-clock seconds waiting for a program).
``--sprt P0,P1`` stops as soon as Wald's test decides whether the first bot wins at most
P0 or at least P1 of its games (errors 5%).
"""

from __future__ import annotations

import json
import os
import time

from meeple.cli.bots.simulating import check_seed, prepare_folder
from meeple.cli.bots.stats import Sprt, mean_and_error, wilson
from meeple.cli.output import emit_json, say
from meeple.cli.session import bot_label, bot_turns, check_bot, check_move_time, make_bot
from meeple.cli.store import Failure
from meeple.engine import Game, edition_named, new_game
from meeple.events import log as logfile

#: the most games one arena plays
MAX_GAMES = 100_000


def game_name(seed: str, index: int) -> str:
    return f"arena-{seed}-{index}.jsonl"


class _Timed:
    """A bot that adds up the time it takes a move."""

    def __init__(self, choose, external: bool) -> None:
        self.choose, self.external = choose, external
        self.seconds, self.moves = 0.0, 0

    def __call__(self, state):
        clock = time.monotonic if self.external else time.process_time
        begin = clock()
        try:
            return self.choose(state)
        finally:
            self.seconds += clock() - begin
            self.moves += 1


def play_one(job: tuple) -> dict:
    """One arena game: ``(path, seed, seating, colours, tileset, move_time)``, where the
    seating lists the bots by seat. Returns its result with its events, for the caller to
    write (only the games it counts, and never half a file)."""
    path, seed, seating, colours, tileset, move_time = job
    first = new_game(colours, tileset, names=[bot_label(b) for b in seating], seed=seed)
    infos: list[dict] = []
    game = Game.begin(first)

    def logger(seat: int):
        def log_info(text: str) -> None:
            if len(infos) < MAX_INFO_LINES:
                infos.append({"seat": seat, "bot": seating[seat], "turn": game.turn,
                              "info": text})
        return log_info

    contexts = [make_bot(spec, move_time, logger(seat)) for seat, spec in enumerate(seating)]
    timed = []
    try:
        for spec, context in zip(seating, contexts, strict=True):
            timed.append(_Timed(context.__enter__(), spec.startswith("cmd:")))
        failure = bot_turns(game, dict(zip(colours, timed, strict=True)), None)
        for context in contexts:
            if hasattr(context, "finish"):
                context.finish(game.state)
    finally:
        for context in contexts:
            context.__exit__(None, None, None)
    state = game.state
    scores = [state.scores[state.side_of[c]] for c in colours]
    result: dict = {"file": path, "seed": seed, "seats": list(seating), "scores": scores,
                    "seconds": [t.seconds for t in timed], "moves": [t.moves for t in timed],
                    "stopped": None, "events": list(game.events), "info": infos}
    # a bot that fails loses; the others share the win by their scores so far
    alive = list(range(len(colours)))
    if failure is not None:
        loser = colours.index(state.player)
        result["stopped"] = {"seat": loser, "bot": seating[loser], "reason": failure.reason}
        alive.remove(loser)
    best = max(scores[i] for i in alive)
    top = [i for i in alive if scores[i] == best]
    result["shares"] = [1.0 / len(top) if i in top else 0.0 for i in range(len(colours))]
    return result


#: the most ``info`` lines of bot programs an arena keeps of one game
MAX_INFO_LINES = 10_000


def write_info(game_file: str, infos: list[dict]) -> None:
    """The ``info`` lines the bot programs sent in a game, beside its log
    (``arena-SEED-I.info.jsonl``), one JSON object a line; nothing when there are none."""
    if infos:
        with open(os.path.splitext(game_file)[0] + ".info.jsonl", "x", encoding="utf-8") as out:
            out.writelines(json.dumps(info, ensure_ascii=True) + "\n" for info in infos)


def _work(out: str, bots: list[str], seeds: int, seed: str, colours: list[str], tileset,
          move_time: float):
    index = 0
    for s in range(seeds):
        for turn in range(len(bots)):
            seating = bots[turn:] + bots[:turn]
            yield (os.path.join(out, game_name(seed, index)), f"{seed}-{s}", seating, colours,
                   tileset, move_time)
            index += 1


def summarise(bots: list[str], results: list[dict]) -> dict:
    """Per bot: games, wins (ties half) and their Wilson interval, mean score, seconds a
    move, games lost by failing; for the first two bots the mean score difference."""
    per: dict[str, dict] = {b: {"bot": b, "games": 0, "wins": 0.0, "scores": [], "seconds": 0.0,
                                "moves": 0, "failed": 0} for b in bots}
    diffs = []
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
        if whole:
            seat_of = {bot: seat for seat, bot in enumerate(result["seats"])}
            diffs.append(result["scores"][seat_of[bots[0]]] - result["scores"][seat_of[bots[1]]])
    table = []
    for bot in dict.fromkeys(bots):
        entry = per[bot]
        low, high = wilson(entry["wins"], entry["games"])
        mean, error = mean_and_error([float(s) for s in entry["scores"]])
        table.append({"bot": bot, "games": entry["games"], "wins": entry["wins"],
                      "win_rate": entry["wins"] / entry["games"] if entry["games"] else None,
                      "wilson95": [round(low, 4), round(high, 4)],
                      "mean_score": round(mean, 2) if entry["scores"] else None,
                      "mean_score_se": round(error, 2),
                      "seconds_per_move": (entry["seconds"] / entry["moves"]
                                           if entry["moves"] else None),
                      "clock": "wall" if bot.startswith("cmd:") else "cpu",
                      "failed": entry["failed"]})
    summary: dict = {"bots": table}
    if diffs:
        mean, error = mean_and_error([float(d) for d in diffs])
        summary["score_difference"] = {"of": bots[0], "over": bots[1], "mean": round(mean, 2),
                                       "se": round(error, 2), "games": len(diffs)}
    return summary


def run_arena(bots: list[str], games: int, seed: str, out: str, edition: str, tileset,
              jobs: int, sprt: tuple[float, float] | None, move_time: float,
              as_json: bool) -> None:
    """Play the arena (see the module) and report it.

    :raises Failure: (2) bad bots, game count, seed or folder; ``LogError`` if a game file
        exists already (nothing is overwritten).
    """
    from meeple.cli.bots.parallel import ordered_map, usable_jobs
    from meeple.cli.progress import progress

    if not 2 <= len(bots) <= edition_named(edition).players[1]:
        raise Failure(f"--bots names {len(bots)} bot(s); a table takes 2 to "
                      f"{edition_named(edition).players[1]}", 2)
    for bot in bots:
        check_bot(bot)
    if len(set(bots)) != len(bots):
        raise Failure("--bots names a bot twice; an arena compares different bots (to pit a "
                      "bot against itself, give it two specs, e.g. mcts:500,mcts:501)", 2)
    if len({bot_label(b) for b in bots}) != len(bots):
        raise Failure("--bots names two programs with the same file name; rename one", 2)
    check_move_time(move_time)
    if not 1 <= games <= MAX_GAMES:
        raise Failure(f"--games must be 1 to {MAX_GAMES:,}; got {games}", 2)
    if sprt is not None and len(bots) != 2:
        raise Failure("--sprt compares two bots", 2)
    usable_jobs(jobs)
    seeds = -(-games // len(bots))
    check_seed(seed, seeds * len(bots), game_name)
    colours = list(edition_named(edition).colours[:len(bots)])
    prepare_folder(out)
    taken = [n for n in range(seeds * len(bots))
             if os.path.exists(os.path.join(out, game_name(seed, n)))]
    if taken:
        raise logfile.LogError("exists", os.path.join(out, game_name(seed, taken[0])),
                               "already exists; an arena never overwrites a game: choose "
                               "another --out or --seed; nothing was written")
    test = Sprt(*sprt) if sprt is not None else None
    results: list[dict] = []
    verdict = None
    work = _work(out, bots, seeds, seed, colours, tileset, move_time)
    with progress(seeds * len(bots), as_json) as advance:
        for result in ordered_map(play_one, work, jobs):
            result["head"] = logfile.create(result["file"], result.pop("events"))
            write_info(result["file"], result.pop("info"))
            results.append(result)
            advance()
            if test is not None:
                test.add(result["shares"][result["seats"].index(bots[0])])
                if len(results) % len(bots) == 0 and (verdict := test.verdict()) is not None:
                    break
    summary = summarise(bots, results)
    summary.update({"edition": edition, "seed": seed, "out": out, "games": len(results),
                    "seeds": len(results) // len(bots)})
    if test is not None:
        summary["sprt"] = {"p0": test.p0, "p1": test.p1, "alpha": 0.05, "beta": 0.05,
                           "llr": round(test.llr, 4), "verdict": verdict}
    if as_json:
        emit_json({"summary": summary, "games": results})
        return
    _say(summary)


def _say(summary: dict) -> None:
    names = [row["bot"] for row in summary["bots"]]
    say(f"arena: {' vs '.join(names)} · {summary['edition']} · {summary['games']} games "
        f"({summary['seeds']} seeds, every seating) · logs in {summary['out']}")
    width = max(len(n) for n in names)
    for row in summary["bots"]:
        low, high = row["wilson95"]
        per_move = row["seconds_per_move"]
        mean = f"{row['mean_score']:.1f}" if row["mean_score"] is not None else "-"
        timing = f"{per_move:.3f} s {row['clock']} a move" if per_move is not None else "-"
        failed = f" · {row['failed']} game(s) lost by failing" if row["failed"] else ""
        say(f"  {row['bot']:<{width}}  wins {row['wins']:g}/{row['games']} = "
            f"{row['win_rate']:.3f} (95% Wilson {low:.3f} to {high:.3f}) · mean score "
            f"{mean} · {timing}{failed}")
    diff = summary.get("score_difference")
    if diff:
        say(f"  score difference {diff['of']} - {diff['over']}: {diff['mean']:+.1f} a game "
            f"(standard error {diff['se']:.1f}, {diff['games']} games)")
    sprt = summary.get("sprt")
    if sprt:
        words = {"H1": f"decided: {names[0]} wins at least {sprt['p1']:g} of its games",
                 "H0": f"decided: {names[0]} wins at most {sprt['p0']:g} of its games",
                 None: "not decided yet (play more games)"}[sprt["verdict"]]
        say(f"  SPRT (P0 {sprt['p0']:g}, P1 {sprt['p1']:g}, 5% errors): {words}; "
            f"log-likelihood ratio {sprt['llr']:.2f}")
