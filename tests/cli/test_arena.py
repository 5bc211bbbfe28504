"""`meeple arena` and bots in any language (`--bot cmd:PATH`): paired seatings, valid logs,
the statistics on known inputs, and a bot program that crashes, stalls or cheats is
stopped with its reason while the log keeps every legal move."""

import json
import os
import textwrap
import time

import pytest

from meeple.cli.bots.stats import Sprt, mean_and_error, wilson
from meeple.events import log
from meeple.events.model import GameEnded

from helpers import fail, run, run_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RANDOM_BOT = os.path.join(ROOT, "docs", "bots", "random_bot.py")


def test_wilson_intervals_match_known_values():
    assert [round(v, 4) for v in wilson(15, 20)] == [0.5313, 0.8881]
    assert [round(v, 4) for v in wilson(0, 10)] == [0.0, 0.2775]
    assert [round(v, 4) for v in wilson(10, 10)] == [0.7225, 1.0]
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_and_standard_error():
    assert mean_and_error([2.0, 4.0, 6.0, 8.0]) == (5.0, pytest.approx(1.2909944))
    assert mean_and_error([3.0]) == (3.0, 0.0)


def test_the_sprt_decides_both_ways_and_waits_while_unsure():
    strong, weak, even = Sprt(0.5, 0.65), Sprt(0.5, 0.65), Sprt(0.5, 0.65)
    decided_after = None
    for games in range(1, 100):
        strong.add(1.0)
        weak.add(0.0)
        if decided_after is None and strong.verdict():
            decided_after = games
    assert (strong.verdict(), weak.verdict()) == ("H1", "H0")
    assert decided_after == 12  # ln(0.95 / 0.05) / ln(0.65 / 0.5) = 11.2 straight wins
    for score in (1.0, 0.0, 0.5, 1.0, 0.0):
        even.add(score)
    assert even.verdict() is None
    for _ in range(200):  # an even match, long enough, is found no better than P0
        even.add(0.5)
    assert even.verdict() == "H0"
    with pytest.raises(ValueError):
        Sprt(0.6, 0.5)


@pytest.mark.slow  # starts processes
def test_an_arena_plays_every_seating_of_each_seed_and_writes_valid_logs(tmp_path):
    out = tmp_path / "a"
    report = run_json("arena", "--bots", "greedy,random", "--games", "3", "--seed", "s",
                      "--out", out, "--jobs", "1")
    games = report["games"]
    assert len(games) == 4  # rounded up to both seatings of 2 seeds
    assert [g["seats"] for g in games] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert [g["seed"] for g in games] == ["s-0", "s-0", "s-1", "s-1"]
    for game in games:
        assert sum(game["shares"]) == pytest.approx(1.0)
        read = log.read(game["file"])
        assert [p.name for p in read.events[0].players] == game["seats"]
    summary = report["summary"]
    rows = {row["bot"]: row for row in summary["bots"]}
    assert rows["greedy"]["wins"] + rows["random"]["wins"] == pytest.approx(4)
    assert summary["score_difference"]["games"] == 4
    run("check", out)  # every log passes (exit 0)
    assert "never overwrites" in fail("arena", "--bots", "greedy,random", "--games", "2",
                                      "--seed", "s", "--out", out)


@pytest.mark.slow  # an arena played to its decision
def test_an_sprt_stops_the_arena_once_decided(tmp_path):
    report = run_json("arena", "--bots", "greedy-v1,random", "--games", "400", "--seed", "q",
                      "--out", tmp_path / "q", "--sprt", "0.3,0.6", "--jobs", "1")
    sprt = report["summary"]["sprt"]
    assert sprt["verdict"] == "H1" and len(report["games"]) < 400
    assert len(report["games"]) % 2 == 0


@pytest.mark.slow  # a ladder played to its decisions
def test_a_ladder_runs_an_sprt_of_the_first_bot_against_each_other_and_stops_when_all_decide(
        tmp_path):
    report = run_json("arena", "--ladder", "--bots", "greedy,greedy-v1,random", "--games",
                      "600", "--seed", "q", "--out", tmp_path / "q", "--sprt", "0.3,0.6",
                      "--jobs", "1")
    tests = report["summary"]["sprt"]["tests"]
    assert [t["bots"] for t in tests] == [["greedy", "greedy-v1"], ["greedy", "random"]]
    assert all(t["verdict"] == "H1" and t["pairs"] >= 2 for t in tests)
    assert "verdict" not in report["summary"]["sprt"]  # no one verdict for several tests
    assert len(report["games"]) < 600
    resumed = run_json("arena", "--resume", tmp_path / "q")  # decided: nothing more to play
    assert len(resumed["games"]) == len(report["games"])


@pytest.mark.parametrize("args, words", [
    (["--bots", "greedy"], "2 to"),
    (["--bots", "greedy,greedy-v1,random", "--sprt", "0.5,0.6"], "or --ladder"),
    (["--bots", "greedy,clever"], "unknown bot"),
    (["--bots", "greedy,random", "--sprt", "0.7,0.5"], "0 < P0 < P1 < 1"),
    (["--bots", "greedy,random", "--sprt", "x"], "P0,P1"),
    (["--bots", "greedy,random", "--games", "0"], "--games"),
    (["--bots", "greedy,cmd:/no/such/bot"], "no program file"),
])
def test_bad_arena_options_are_usage_errors(tmp_path, args, words):
    assert words in fail("arena", *args, "--out", tmp_path / "x", code=2)


def _bot(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys, time\n" + textwrap.dedent(body))
    return str(path)


def _late_bot(tmp_path, name: str, good: int, then: str) -> str:
    """A bot that answers move 0 ``good`` times, then runs the statement ``then``."""
    return _bot(tmp_path, name, f"""
        n = 0
        for line in sys.stdin:
            if json.loads(line)['type'] == 'move':
                n += 1
                if n > {good}:
                    {then}
                print(json.dumps({{'move': 0}}), flush=True)
        """)


BAD_BOTS = {
    "crash": ("for line in sys.stdin:\n    if json.loads(line)['type'] == 'move':\n"
              "        raise SystemExit('out of ideas')\n", "exited with code 1"),
    "stall": ("for line in sys.stdin:\n    if json.loads(line)['type'] == 'move':\n"
              "        time.sleep(30)\n", "no answer within 0.5 s"),
    "cheat": ("for line in sys.stdin:\n    if json.loads(line)['type'] == 'move':\n"
              "        print(json.dumps({'move': 9999}), flush=True)\n", "not one of the"),
    "babble": ("for line in sys.stdin:\n    if json.loads(line)['type'] == 'move':\n"
               "        print('\\x1b[2Jplace 0 0', flush=True)\n", "not {\"move\": INDEX}"),
}


@pytest.mark.parametrize("name", sorted(BAD_BOTS))
@pytest.mark.slow  # starts processes
def test_a_failing_bot_program_stops_autoplay_with_its_reason_and_a_valid_log(tmp_path, name):
    body, words = BAD_BOTS[name]
    bot = _bot(tmp_path, name, body)
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    run("autoplay", game, "--bot", "greedy", "--turns", "2")
    before = game.read_bytes()
    message = fail("autoplay", game, "--bot", f"cmd:{bot}", "--to-end", "--move-time", "0.5")
    assert words in message and "\x1b" not in message
    assert game.read_bytes() == before  # its first move failed: nothing to add
    run("check", game)


@pytest.mark.slow  # starts processes
def test_a_bot_program_that_fails_later_keeps_its_legal_moves(tmp_path):
    bot = _late_bot(tmp_path, "late", 5, "sys.exit(3)")
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    before = len(log.read(game).events)
    assert "exited with code 3" in fail("autoplay", game, "--bot", f"cmd:{bot}", "--to-end")
    assert len(log.read(game).events) > before
    run("check", game)


@pytest.mark.slow  # starts processes
def test_the_example_bot_plays_a_whole_game_seeing_nothing_hidden(tmp_path):
    spy = _bot(tmp_path, "spy", f"""
        record = open({str(tmp_path / 'seen.jsonl')!r}, 'a')
        for line in sys.stdin:
            record.write(line)
            if json.loads(line)['type'] == 'move':
                print(json.dumps({{'move': 0}}), flush=True)
        """)
    for bot in (RANDOM_BOT, spy):
        game = tmp_path / f"{os.path.basename(bot)}.jsonl"
        run("new", game, "--players", "red,black", "--seed", "hidden-7f3a")
        run("autoplay", game, "--bot", f"cmd:{bot}", "--to-end")
        assert isinstance(log.read(game).events[-1], GameEnded)
        run("check", game)
    seen = (tmp_path / "seen.jsonl").read_text()
    first = json.loads(seen.splitlines()[0])
    assert first["type"] == "hello" and first["protocol"] == 1
    assert "hidden-7f3a" not in seen and '"pile"' not in seen and '"seed"' not in seen


@pytest.mark.slow  # starts processes
def test_an_arena_counts_a_failing_bot_program_as_a_lost_game(tmp_path):
    bot = _bot(tmp_path, "crash", BAD_BOTS["crash"][0])
    report = run_json("arena", "--bots", f"greedy,cmd:{bot}", "--games", "2", "--seed", "c",
                      "--out", tmp_path / "c", "--jobs", "1")
    rows = {row["bot"]: row for row in report["summary"]["bots"]}
    assert rows[f"cmd:{bot}"]["failed"] == 2 and rows[f"cmd:{bot}"]["wins"] == 0
    assert all(g["stopped"]["reason"].startswith("exited") for g in report["games"])
    run("check", tmp_path / "c")


@pytest.mark.slow  # starts processes
def test_a_bot_that_never_reads_its_input_is_stopped_not_waited_for(tmp_path):
    bot = _bot(tmp_path, "deaf", """
        import select
        while True:  # answers every message it sees arrive, without ever reading one
            select.select([sys.stdin], [], [])
            print(json.dumps({'move': 0}), flush=True)
            time.sleep(0.01)
        """)
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    began = time.monotonic()
    message = fail("autoplay", game, "--bot", f"cmd:{bot}", "--to-end", "--move-time", "1")
    assert "did not read its input" in message or "answered more than one line" in message
    assert time.monotonic() - began < 60
    run("check", game)


@pytest.mark.slow  # starts processes
def test_a_deeply_nested_answer_is_an_illegal_answer_and_earlier_moves_stay(tmp_path):
    bot = _late_bot(tmp_path, "nested", 5, "print('{\"move\":' + '[' * 5000, flush=True); continue")
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    before = len(log.read(game).events)
    assert "not {\"move\": INDEX}" in fail("autoplay", game, "--bot", f"cmd:{bot}", "--to-end")
    assert len(log.read(game).events) > before
    run("check", game)


@pytest.mark.slow  # starts processes
def test_what_a_bot_program_starts_is_stopped_with_it(tmp_path):
    pids = tmp_path / "child.pid"
    bot = _bot(tmp_path, "forker", f"""
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        open({str(pids)!r}, "w").write(str(child.pid))
        sys.stderr.write("x" * 5_000_000 + "\\nmy last words\\n")
        sys.exit(7)
        """)
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5")
    message = fail("autoplay", game, "--bot", f"cmd:{bot}", "--to-end", "--move-time", "20")
    assert "exited with code 7" in message and "my last words" in message
    child = int(pids.read_text())
    time.sleep(0.3)
    stat = f"/proc/{child}/stat"
    gone = not os.path.exists(stat) or open(stat).read().split(") ")[1].startswith("Z")
    assert gone  # killed with its bot (a zombie awaits only its parent's reaping)


@pytest.mark.parametrize("args, words", [
    (["autoplay", "{g}", "--bot", "cmd:{bot}", "--move-time", "nan"], "--move-time"),
    (["autoplay", "{g}", "--bot", "greedy", "--turns", "0"], "turns"),
    (["arena", "--bots", "greedy,greedy", "--out", "{d}"], "names a bot twice"),
    (["arena", "--bots", "greedy,cmd:{notexec}", "--out", "{d}"], "not executable"),
    (["arena", "--bots", "greedy,random", "--seed", "s" * 242, "--out", "{d}"], "too long"),
])
def test_review_findings_are_usage_errors_before_anything_is_played(tmp_path, args, words):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5")
    notexec = tmp_path / "bot"
    notexec.write_text("#!/bin/sh\n")
    values = {"g": game, "bot": RANDOM_BOT, "d": tmp_path / "out", "notexec": notexec}
    assert words in fail(*[a.format(**values) for a in args], code=2)
    assert not (tmp_path / "out").exists() or not os.listdir(tmp_path / "out")


@pytest.mark.slow  # an arena of search bots, to a decision
def test_an_sprt_writes_the_games_it_counts_and_no_others(tmp_path):
    out = tmp_path / "q"
    report = run_json("arena", "--bots", "greedy-v1,random", "--games", "400", "--seed", "w",
                      "--out", out, "--sprt", "0.5,0.65", "--jobs", "2")
    games = sorted(n for n in os.listdir(out) if n.endswith(".jsonl"))
    assert games == sorted(os.path.basename(g["file"]) for g in report["games"])
    # beside them, the arena's record, its games' timings and its summary
    assert set(os.listdir(out)) - set(games) == {"arena.json", "results.ndjson", "summary.json"}


@pytest.mark.slow  # starts processes
def test_a_stopped_games_scores_count_for_nothing(tmp_path):
    bot = _late_bot(tmp_path, "late", 8, "sys.exit(1)")
    report = run_json("arena", "--bots", f"greedy,cmd:{bot}", "--games", "2", "--seed", "z",
                      "--out", tmp_path / "z", "--jobs", "1")
    rows = {row["bot"]: row for row in report["summary"]["bots"]}
    assert rows["greedy"]["mean_score"] is None and "score_difference" not in report["summary"]
    assert rows["greedy"]["wins"] == 2
    names = [p.name for p in log.read(report["games"][0]["file"]).events[0].players]
    assert names == ["greedy", "cmd:late.py"]


def test_the_search_bot_plays_a_table_game_and_waits_for_the_table(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,black", "--table")
    run("draw", game, "L")
    run("autoplay", game, "--bot", "mcts:30", "--to-end")
    status = run_json("status", game)
    assert status["phase"] == "enter_draw" and status["player"] == "black"
    assert "digital games only" in fail("autoplay", game, "--bot", "greedy")
    run("check", game)
