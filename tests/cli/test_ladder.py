"""Arena statistics and the ladder: paired (pentanomial) errors, the GSPRT on pairs, the
Bradley-Terry Elo fit on data with a known answer, every seating of 3 to 5 bots, and an
arena's summary recomputed from its folder alone (``--resume``)."""

import itertools
import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from meeple.cli.bots.elo import SCALE, fit
from meeple.cli.bots.stats import (
    PairSprt,
    _log_likelihood_at,
    elo_of,
    mean_and_error,
    pair_scores,
    pentanomial,
)
from meeple.cli.bots.tally import seatings

from helpers import fail, interruptible, run, run_json


def test_the_paired_error_comes_from_the_spread_of_the_pairs():
    # every pair split 1-1: no spread, where games counted one by one would have some
    points = [1.0] * 10
    assert pair_scores(points) == (0.5, 0.0)
    games = [1.0, 0.0] * 10
    assert mean_and_error(games)[1] > 0.1
    # pairs of 2, 1, 1, 0 points: pair means 1, .5, .5, 0; sample sd sqrt(1/6), over sqrt 4
    mean, error = pair_scores([2.0, 1.0, 1.0, 0.0])
    assert mean == 0.5 and error == pytest.approx(math.sqrt(1 / 6) / 2)
    assert pentanomial([0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.0]) == [1, 1, 2, 1, 3]


def test_elo_of_a_score_is_the_logistic_difference():
    assert elo_of(0.5) == 0.0
    assert elo_of(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_of(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf


def _approximate_llr(counts, s0, s1):
    """The normal approximation of the pentanomial LLR: N (s1 - s0)(2 mu - s0 - s1) / 2 var."""
    outcomes = [0, 0.25, 0.5, 0.75, 1]
    n = sum(counts)
    mu = sum(c * a for c, a in zip(counts, outcomes, strict=True)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, outcomes, strict=True)) / n
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


@pytest.mark.parametrize("counts", [[5, 20, 50, 30, 10], [10, 40, 100, 40, 10],
                                    [8, 25, 40, 20, 7]])
def test_the_pair_sprt_matches_the_normal_approximation_for_close_hypotheses(counts):
    test = PairSprt(0.49, 0.51)
    for points, count in zip([0, 0.5, 1, 1.5, 2], counts, strict=True):
        for _ in range(count):
            test.add(points)
    assert test.counts == counts
    assert test.llr == pytest.approx(_approximate_llr(counts, 0.49, 0.51), rel=0.05)
    # at the observed mean the best fit is the observed frequencies themselves
    n, outcomes = sum(counts), [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * a for c, a in zip(counts, outcomes, strict=True)) / n
    unconstrained = sum(c * math.log(c / n) for c in counts)
    assert _log_likelihood_at(counts, mean) == pytest.approx(unconstrained, abs=1e-9)
    assert _log_likelihood_at(counts, mean + 0.05) < unconstrained - 0.1


def test_the_pair_sprt_decides_both_ways_and_waits_while_unsure():
    strong, weak, even = PairSprt(0.5, 0.65), PairSprt(0.5, 0.65), PairSprt(0.5, 0.65)
    for _ in range(30):
        strong.add(1.5)
        strong.add(2.0)
        weak.add(0.5)
        weak.add(1.0)
    assert (strong.verdict(), weak.verdict()) == ("H1", "H0")
    for points in (2.0, 0.0, 1.0, 1.5, 0.5):
        even.add(points)
    assert even.verdict() is None and abs(even.llr) < 2.9
    with pytest.raises(ValueError):
        PairSprt(0.6, 0.5)


def test_the_elo_fit_finds_the_known_ratings_of_exact_data():
    # a beats b in 3 of 4 games: 400 log10(3) points apart, each 95.4 from the mean
    ratings = fit(["a", "b"], [("a", "b", 1.0)] * 75 + [("a", "b", 0.0)] * 25)
    assert ratings["a"][0] - ratings["b"][0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    # its error: 1 / sqrt(n p (1 - p)) in log strength for the difference, half each
    assert ratings["a"][1] == pytest.approx(SCALE / math.sqrt(100 * 0.75 * 0.25) / 2, rel=1e-6)
    # results exactly as expected from known ratings are fitted back to them
    truth = {"x": -150.0, "y": 0.0, "z": 40.0, "w": 110.0}
    results = []
    for a, b in itertools.combinations(truth, 2):
        p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
        results += [(a, b, p)] * 100  # (a fractional score a game: the expected one)
    fitted = fit(list(truth), results)
    for name, rating in truth.items():
        assert fitted[name][0] == pytest.approx(rating, abs=1e-4)
    with pytest.raises(ValueError, match="every game"):
        fit(["a", "b"], [("a", "b", 1.0)] * 3)
    assert math.isfinite(fit(["a", "b"], [("a", "b", 1.0)] * 3, prior=2)["a"][0])


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_every_seating_gives_every_bot_every_seat_whatever_the_order(count):
    bots = [f"b{i}" for i in range(count)]
    plan = seatings(bots, False)
    assert len(plan) == math.factorial(count) and len(set(plan)) == len(plan)
    for bot in bots:
        seats = [seating.index(bot) for seating in plan]
        assert all(seats.count(s) == len(plan) // count for s in range(count))
    assert set(seatings(bots[::-1], False)) == set(plan)
    ladder = seatings(bots, True)
    assert len(ladder) == count * (count - 1)
    assert set(ladder) == set(seatings(bots[::-1], True))


@pytest.mark.slow  # every seating of three bots, game after game
def test_an_arena_of_three_plays_every_seating_and_its_summary_is_recomputed(tmp_path):
    out = tmp_path / "a"
    # (the quickest bots: what is tested is the seatings and the tally, not how they play)
    report = run_json("arena", "--bots", "greedy-v1,random,mcts-v1:1", "--games", "5", "--seed",
                      "e", "--out", out, "--jobs", "1", "--edition", "classic")
    assert len(report["games"]) == 6
    assert {tuple(g["seats"]) for g in report["games"]} == \
        set(itertools.permutations(["greedy-v1", "random", "mcts-v1:1"]))
    written = json.loads((out / "summary.json").read_text())
    assert written == report["summary"]
    assert {row["bot"] for row in written["bots"]} == {"greedy-v1", "random", "mcts-v1:1"}
    assert sum(row["elo"] for row in written["bots"]) == pytest.approx(0, abs=0.2)
    (out / "summary.json").unlink()
    again = run_json("arena", "--resume", out, "--jobs", "1")
    assert again["summary"] == written
    assert json.loads((out / "summary.json").read_text()) == written


@pytest.mark.slow  # an arena played, then resumed
def test_resume_plays_only_the_games_missing_and_tallies_them_all(tmp_path):
    out = tmp_path / "r"
    first = run_json("arena", "--bots", "greedy-v1,random", "--games", "6", "--seed", "r",
                     "--out", out, "--jobs", "1")
    kept = (out / "arena-r-1.jsonl").read_bytes()
    (out / "arena-r-4.jsonl").unlink()
    (out / "summary.json").unlink()
    again = run_json("arena", "--resume", out, "--jobs", "1")
    assert [g["file"] for g in again["games"]] == [g["file"] for g in first["games"]]
    assert (out / "arena-r-1.jsonl").read_bytes() == kept  # nothing written is rewritten
    for a, b in zip(first["summary"]["bots"], again["summary"]["bots"], strict=True):
        assert (a["wins"], a["mean_score"], a["elo"]) == (b["wins"], b["mean_score"], b["elo"])
    assert "no arena was started" in fail("arena", "--resume", tmp_path, code=2)
    assert "--resume takes" in fail("arena", "--resume", out, "--ladder", code=2)


@pytest.mark.slow  # a ladder of four bots, game after game
def test_a_ladder_rates_every_bot_from_every_two_in_both_seatings(tmp_path):
    out = tmp_path / "l"
    # (two specs of one bot among them: a ladder tells them apart by their specs)
    report = run_json("arena", "--ladder", "--bots", "random,greedy-v1,mcts-v1:1,mcts-v1:2",
                      "--games", "12", "--seed", "l", "--out", out, "--jobs", "1")
    games = report["games"]
    assert len(games) == 12 and all(len(g["seats"]) == 2 for g in games)
    pairings = report["summary"]["pairings"]
    assert len(pairings) == 6 and all(p["pairs"] == 1 for p in pairings)
    assert all(sum(p["pentanomial"]) == 1 for p in pairings)
    run("check", out)


@pytest.mark.slow  # starts an arena process
def test_ctrl_c_prints_the_tally_of_the_games_written_and_exits_130(tmp_path):
    out = tmp_path / "c"
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli.app", "arena", "--bots", "mcts:40,greedy", "--games",
         "40", "--seed", "c", "--out", str(out), "--jobs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    deadline = time.monotonic() + 120
    while not (out / "arena-c-1.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "arena: mcts:40 vs greedy" in stdout and "interrupted:" in stderr
    written = sorted(n for n in os.listdir(out) if n.endswith(".jsonl") and n[:5] == "arena")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == len(written) >= 2 and summary["planned"] == 40
    assert f"{len(written)} of 40 games" in stdout


def test_ctrl_c_while_a_game_is_written_waits_until_it_is_counted(tmp_path, monkeypatch):
    """A Ctrl-C that comes between a game's log being written and the game being counted
    waits for it: the tally holds every game on disk (it held one fewer)."""
    from meeple.cli.bots import arena

    real = arena.note_result
    written = []

    def interrupted_while_noting(out, result):
        written.append(result["file"])
        if len(written) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        real(out, result)

    monkeypatch.setattr(arena, "note_result", interrupted_while_noting)
    out = tmp_path / "w"
    # (Ctrl-C as a terminal gives it, even where the tests run with SIGINT ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        said = run_json("arena", "--bots", "greedy-v1,random", "--games", "6", "--seed", "w",
                        "--out", out, "--jobs", "1", code=130)
    finally:
        signal.signal(signal.SIGINT, previous)
    games = sorted(n for n in os.listdir(out) if n.startswith("arena-") and n.endswith(".jsonl"))
    assert len(games) == 2 == said["summary"]["games"]
    assert json.loads((out / "summary.json").read_text())["games"] == 2


@pytest.mark.slow  # a pool of worker processes, and 3 s until the interrupt
def test_an_interrupted_arena_on_two_processes_keeps_each_game_that_ended(tmp_path,
                                                                          monkeypatch):
    """With ``--jobs 2``, a game that ended is written as soon as it ends, not when the games
    handed out with it end: a Ctrl-C while the second game goes on keeps the first (the
    first 40 games went out two at a time, and the first game was lost with the second)."""
    import threading

    from meeple.cli.bots import arena

    monkeypatch.setattr(_real, "play_one", arena.play_one, raising=False)
    monkeypatch.setattr(arena, "play_one", _second_game_goes_on)
    out = tmp_path / "j"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        said = run_json("arena", "--bots", "greedy-v1,random", "--games", "40", "--seed", "j",
                        "--out", out, "--jobs", "2", code=130)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert (out / "arena-j-0.jsonl").exists()
    assert said["summary"]["games"] >= 1


class _real:
    """``arena.play_one`` as it was, for the stand-in below (set by the test)."""


def _second_game_goes_on(job):
    """``arena.play_one``, but the second game goes on for 20 s (the interrupt stops it)."""
    if job[0].endswith("-1.jsonl"):
        time.sleep(20)
    return _real.play_one(job)
