"""``meeple arena``: bots against each other over paired games, with the statistics to tell
them apart.

Each seed is played in every seating (``meeple.cli.bots.tally``: all permutations of the
bots at one table, or with ``--ladder`` both seatings of every two bots), so luck in the
tiles falls on every bot alike. Every game is written to ``OUT/arena-SEED-I.jsonl`` (the
players named by their bots), and every such log passes ``meeple check``: a bot program that
fails stops its game at its last legal move and loses it (the others share the win by their
scores so far). The games run on every core; logs are written by this process, whole, for
the games counted. The folder records the arena (``arena.json``) and its summary
(``summary.json``), which ``--resume`` recomputes from the logs after playing what is left.

Reported: each bot's wins (a tie counts half) with a 95% Wilson interval, its mean share
with the error over seeds (paired), its Elo (``meeple.cli.bots.elo``), its mean score in the
games played out, every two bots at a table of two in the pentanomial model, the mean score
difference of the first two bots, and each bot's time a move (CPU seconds for the engine's
bots, wall-clock seconds waiting for a program). ``--sprt P0,P1`` stops as soon as the
pentanomial GSPRT (``meeple.cli.bots.stats.PairSprt``) decides whether the first bot scores
at most P0 or at least P1 a game (errors 5%); in a ladder, once a test of the first bot
against each other bot has decided. Ctrl-C stops the arena with the tally of the
games written, exit 130.
"""

from __future__ import annotations

import json
import os
import time

import msgspec

from meeple.cli.bot_messages import Info, said
from meeple.cli.bots.record import check_plain, interrupts_held, replace_file
from meeple.cli.bots.simulating import check_seed, prepare_folder
from meeple.cli.bots.stats import PairSprt
from meeple.cli.bots.tally import (
    MANIFEST,
    MAX_GAMES,
    RESULTS,
    SUMMARY,
    folder_results,
    game_name,
    group_size,
    note_result,
    outcome,
    read_manifest,
    schedule,
    summarise,
    write_manifest,
)
from meeple.cli.output import emit_json, say
from meeple.cli.session import bot_label, bot_turns, check_bot, check_move_time, make_bot
from meeple.cli.store import Failure
from meeple.engine import Game, edition_named, new_game
from meeple.events import log as logfile


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
        def log_info(info: Info) -> None:
            if len(infos) < MAX_INFO_LINES:
                infos.append({"seat": seat, "bot": seating[seat], "turn": game.turn,
                              "info": said(info), **{
                                  key: value for key, value in msgspec.structs.asdict(info).items()
                                  if key != "type" and value not in (None, "", [])}})
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
    failed = colours.index(state.player) if failure is not None else None
    if failure is not None:
        result["stopped"] = {"seat": failed, "bot": seating[failed], "reason": failure.reason}
    result["shares"] = outcome(scores, failed)
    return result


def _shown(error: float | None, digits: int) -> str:
    """A standard error as the tally prints it: "-" where one seed gives none."""
    return "-" if error is None else f"{error:.{digits}f}"


#: the most ``info`` lines of bot programs an arena keeps of one game
MAX_INFO_LINES = 10_000


def write_info(game_file: str, infos: list[dict]) -> None:
    """The ``info`` lines the bot programs sent in a game, beside its log
    (``arena-SEED-I.info.ndjson``), one JSON object a line; nothing when there are none."""
    if infos:
        with open(os.path.splitext(game_file)[0] + ".info.ndjson", "x", encoding="utf-8") as out:
            out.writelines(json.dumps(info, ensure_ascii=True) + "\n" for info in infos)


def _work(out: str, settings: dict, colours: list[str], tileset):
    """The games of the arena not written yet, in order."""
    for index, seed, seating in schedule(settings["bots"], settings["ladder"],
                                         settings["seeds"], settings["seed"]):
        path = os.path.join(out, game_name(settings["seed"], index))
        if not os.path.exists(path):
            yield path, seed, list(seating), colours, tileset, settings["move_time"]


#: the most bots a ladder rates
MAX_LADDER = 16


def check_arena(bots: list[str], games: int, edition: str, sprt, ladder: bool,
                move_time: float) -> None:
    """The arena's settings, checked.

    :raises Failure: (2) bad bots, game count, move time or SPRT.
    """
    most = MAX_LADDER if ladder else edition_named(edition).players[1]
    if not 2 <= len(bots) <= most:
        raise Failure(f"--bots names {len(bots)} bot(s); {'a ladder' if ladder else 'a table'} "
                      f"takes 2 to {most}", 2)
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
    if sprt is not None and len(bots) != 2 and not ladder:
        raise Failure("--sprt compares bots two at a table: give two bots, or --ladder (the "
                      "first bot against each other)", 2)


def run_arena(bots: list[str], games: int, seed: str, out: str, edition: str, tileset,
              jobs: int, sprt: tuple[float, float] | None, move_time: float,
              as_json: bool, ladder: bool = False) -> None:
    """Play the arena (see the module) and report it.

    :raises Failure: (2) bad bots, game count, seed or folder; (130) Ctrl-C, after the tally
        of the games written; ``LogError`` if a game file exists already (nothing is
        overwritten).
    """
    check_arena(bots, games, edition, sprt, ladder, move_time)
    size = len(bots) * (len(bots) - 1) if ladder else group_size(bots, False)
    seeds = -(-games // size)
    check_seed(seed, seeds * size, game_name)
    prepare_folder(out)
    check_plain(os.path.join(out, RESULTS))
    taken = [n for n in range(seeds * size)
             if os.path.exists(os.path.join(out, game_name(seed, n)))]
    if taken:
        raise logfile.LogError("exists", os.path.join(out, game_name(seed, taken[0])),
                               "already exists; an arena never overwrites a game: choose "
                               "another --out or --seed, or `meeple arena --resume` it; "
                               "nothing was written")
    settings = {"bots": bots, "seed": seed, "seeds": seeds, "ladder": ladder,
                "edition": edition, "move_time": move_time,
                "sprt": list(sprt) if sprt else None}
    write_manifest(out, settings)
    _play(out, settings, tileset, jobs, as_json, [])


def resume_arena(out: str, jobs: int, as_json: bool, bots: list[str] | None = None) -> None:
    """Finish the arena recorded in ``out`` (the games not written yet) and tally it from
    its logs. Its program bots run only if ``bots`` (``--bots``) names them
    (``meeple.cli.bots.record``); a finished arena is tallied without.

    :raises Failure: (2) no arena's record there, or program bots not named; (3) a damaged
        record or a game that does not read.
    """
    from meeple.cli.bots.record import check_programs
    from meeple.cli.store import game_tileset

    settings = read_manifest(out)
    left = any(True for _ in _work(out, settings, [], None))
    check_programs(os.path.join(out, MANIFEST), settings["bots"], bots, left)
    check_arena(settings["bots"], 1, settings["edition"], settings["sprt"],
                settings["ladder"], settings["move_time"])
    written = folder_results(out, settings)
    _play(out, settings, game_tileset(settings["edition"], None, []), jobs, as_json, written)


def _play(out: str, settings: dict, tileset, jobs: int, as_json: bool,
          results: list[dict]) -> None:
    """Play the games of the arena not written yet, after ``results`` (those written), and
    report; Ctrl-C reports the games written and exits 130."""
    from meeple.cli.bots.parallel import ordered_map, usable_jobs
    from meeple.cli.progress import progress

    usable_jobs(jobs)
    bots, ladder = settings["bots"], settings["ladder"]
    colours = list(edition_named(settings["edition"]).colours[:2 if ladder else len(bots)])
    # an SPRT of the first bot against each other one (one at a table of two)
    tests = {rival: PairSprt(*settings["sprt"]) for rival in bots[1:]} if settings["sprt"] \
        else {}
    tables: dict[tuple[str, frozenset], list[dict]] = {}

    def counted(result: dict) -> None:
        if bots[0] not in result["seats"] or not tests:
            return
        pair = tables.setdefault((result["seed"], frozenset(result["seats"])), [])
        pair.append(result)
        if len(pair) == 2:
            rival = next(bot for bot in result["seats"] if bot != bots[0])
            tests[rival].add(_points(pair, bots[0]))

    def decided() -> bool:
        return bool(tests) and all(test.verdict() is not None for test in tests.values())

    for result in results:
        counted(result)
    total = settings["seeds"] * len(list(schedule(bots, ladder, 1, "")))
    interrupted = False
    # (a game each: a game is written as soon as it ends, so an interrupt loses none that did)
    games = ordered_map(play_one, _work(out, settings, colours, tileset), jobs, chunk=1)
    try:
        with progress(total - len(results), as_json) as advance:
            for result in games if not decided() else ():
                with interrupts_held():
                    result["head"] = logfile.create(result["file"], result.pop("events"))
                    write_info(result["file"], result.pop("info"))
                    note_result(out, result)
                    results.append(result)
                advance()
                counted(result)
                if decided():
                    break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        games.close()
    results.sort(key=lambda r: _index(r["file"]))
    summary = summarise(bots, results, ladder)
    summary.update({"edition": settings["edition"], "seed": settings["seed"], "out": out,
                    "games": len(results), "planned": total, "ladder": ladder,
                    "seeds": len({r["seed"] for r in results})})
    if tests:
        p0, p1 = settings["sprt"]
        rows = [{"bots": [bots[0], rival], "pairs": sum(test.counts), "llr": round(test.llr, 4),
                 "verdict": test.verdict()} for rival, test in tests.items()]
        summary["sprt"] = {"p0": p0, "p1": p1, "alpha": 0.05, "beta": 0.05,
                           "model": "pentanomial", "tests": rows}
        if len(rows) == 1:  # two bots: the one test's figures beside it, as before
            summary["sprt"].update({key: rows[0][key] for key in ("pairs", "llr", "verdict")})
    replace_file(os.path.join(out, SUMMARY), json.dumps(summary, indent=1, sort_keys=True) + "\n")
    if as_json:
        emit_json({"summary": summary, "games": results})
    else:
        _say(summary)
    if interrupted:
        raise Failure(f"interrupted: {len(results)} of {total} games written, tallied above; "
                      f"`meeple arena --resume {out}` plays the rest", 130)


def _index(path: str) -> int:
    return int(os.path.basename(path).rsplit("-", 1)[1].split(".")[0])


def _points(pair: list[dict], bot: str) -> float:
    """What ``bot`` made of a pair of games (0 to 2 points)."""
    return sum(r["shares"][r["seats"].index(bot)] for r in pair)


def _say(summary: dict) -> None:
    names = [row["bot"] for row in summary["bots"]]
    kind = "ladder, every two bots in both seatings" if summary["ladder"] else "every seating"
    say(f"arena: {' vs '.join(names)} · {summary['edition']} · {summary['games']} of "
        f"{summary['planned']} games ({kind}) · logs in {summary['out']}")
    width = max(len(n) for n in names)
    for row in sorted(summary["bots"], key=lambda r: -(r["elo"] or 0)):
        low, high = row["wilson95"]
        per_move = row["seconds_per_move"]
        mean = f"{row['mean_score']:.1f}" if row["mean_score"] is not None else "-"
        timing = f"{per_move:.3f} s {row['clock']} a move" if per_move is not None else "-"
        failed = f" · {row['failed']} game(s) lost by failing" if row["failed"] else ""
        rate = f"{row['win_rate']:.3f}" if row["win_rate"] is not None else "-"
        elo = (f"Elo {row['elo']:+.0f} ± {row['elo_se']:.0f}" if row["elo"] is not None
               and row["elo_se"] is not None else "Elo -")
        say(f"  {row['bot']:<{width}}  {elo} · wins {row['wins']:g}/{row['games']} = {rate} "
            f"(95% Wilson {low:.3f} to {high:.3f}; per seed {_shown(row['paired_se'], 3)} s.e.) · "
            f"mean score {mean} · {timing}{failed}")
    for pairing in summary["pairings"]:
        a, b = pairing["bots"]
        elo = pairing["elo"]
        say(f"  {a} vs {b}: {pairing['score']:.3f} a game over {pairing['pairs']} pairs "
            f"(pentanomial {'/'.join(map(str, pairing['pentanomial']))}, s.e. "
            f"{_shown(pairing['se'], 3)}), Elo {'-' if elo is None else f'{elo:+.0f}'}")
    diff = summary.get("score_difference")
    if diff:
        say(f"  score difference {diff['of']} - {diff['over']}: {diff['mean']:+.1f} a game "
            f"(standard error over seeds {_shown(diff['se'], 1)}, {diff['games']} games)")
    sprt: dict = summary.get("sprt") or {}
    for test in sprt.get("tests", ()):
        first, rival = test["bots"]
        words = {"H1": f"decided: {first} scores at least {sprt['p1']:g} a game",
                 "H0": f"decided: {first} scores at most {sprt['p0']:g} a game",
                 None: "not decided yet (play more games)"}[test["verdict"]]
        pair = "" if len(sprt["tests"]) == 1 else f" {first} vs {rival}"
        say(f"  SPRT{pair} on {test['pairs']} pairs (P0 {sprt['p0']:g}, P1 {sprt['p1']:g}, 5% "
            f"errors): {words}; log-likelihood ratio {test['llr']:.2f}")
