"""meeple's pytest plug-in (``meeple.cli.pytest_plugin``, docs/pytest.md), run by pytest's
``pytester`` on a project of its own: a folder of recorded games as test items, their
snapshots, the flag that writes them, the selections (``-k``, ``-m``), hostile files and
folders, JUnit XML and pytest-xdist."""

import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from battery import FIXTURES, MIB, make_input

from helpers import run

pytest_plugins = ["pytester"]

CLASSIC = FIXTURES / "classic_random_2p_seed_0.jsonl"
STAR_WARS = FIXTURES / "random_2p_seed_0.jsonl"
UNFINISHED = FIXTURES / "route_loop_of_four_curves_is_complete.jsonl"
BROKEN = FIXTURES / "broken" / "wrong_score_rechained.jsonl"
#: the other plug-ins installed here, which an in-process run would import afresh each time
OTHERS = ["-p", "no:hypothesispytest", "-p", "no:anyio", "-p", "no:syrupy", "-p", "no:xdist",
          "-p", "no:platformdirs", "-p", "no:cacheprovider"]
#: seconds an in-process run of the plug-in may take here, hostile files and all
BOUND = 60


class Hung(BaseException):
    """The alarm of a run that passed its bound."""


def run_bounded(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """The plug-in run in this process, interrupted if it takes more than ``BOUND`` s."""
    def alarm(signum, frame):
        raise Hung(f"pytest {' '.join(args)} ran past {BOUND} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, BOUND)
    try:
        return pytester.runpytest_inprocess(*OTHERS, *args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def add_game(pytester: pytest.Pytester, source: Path, name: str | None = None,
             snapshot: bool = True) -> Path:
    """A copy of a recorded game in the project's ``games/``, with its snapshot as
    ``meeple show --json`` writes it."""
    games = pytester.path / "games"
    games.mkdir(exist_ok=True)
    game = games / (name or source.name)
    game.write_bytes(source.read_bytes())
    if snapshot:
        game.with_name(game.name.removesuffix(".jsonl") + ".expected.json").write_text(
            run("show", source, "--json").stdout)
    return game


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project whose ``pyproject.toml`` names its folder of games, with two games in it."""
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\nmeeple_games = "games"\n')
    add_game(pytester, CLASSIC)
    add_game(pytester, STAR_WARS)
    return pytester


def outcomes(result: pytest.RunResult) -> dict[str, str]:
    """Each item's outcome, by name."""
    reports = result.reprec.getreports("pytest_runtest_logreport")
    found: dict[str, str] = {}
    for report in reports:
        name = report.nodeid.split("::")[-1]
        if report.when == "call" or report.outcome != "passed":
            found[name] = report.outcome
    return found


def test_games_with_their_snapshots_pass(project):
    result = run_bounded(project, "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*games/classic_random_2p_seed_0.jsonl::classic_random_2p_seed_0 PASSED*"])


def test_the_plug_in_collects_nothing_unless_asked(pytester):
    add_game(pytester, CLASSIC)
    pytester.makepyfile(test_other="def test_other():\n    assert 1 + 1 == 2\n")
    result = run_bounded(pytester, "-v")
    result.assert_outcomes(passed=1)
    assert "classic_random_2p_seed_0" not in result.stdout.str()
    result = run_bounded(pytester, "-v", "--meeple-games", "games")
    result.assert_outcomes(passed=2)


@pytest.mark.slow
def test_the_ini_setting_adds_nothing_to_what_the_command_line_names(project):
    project.makepyfile(test_other="def test_other():\n    assert 1 + 1 == 2\n")
    run_bounded(project).assert_outcomes(passed=3)
    run_bounded(project, "test_other.py").assert_outcomes(passed=1)
    run_bounded(project, "games/random_2p_seed_0.jsonl").assert_outcomes(passed=1)


def test_a_changed_score_fails_its_game_alone_with_the_difference(project):
    snapshot = project.path / "games" / "random_2p_seed_0.expected.json"
    snapshot.write_text(snapshot.read_text().replace('"red": 15', '"red": 16', 1))
    result = run_bounded(project)
    assert outcomes(result) == {"classic_random_2p_seed_0": "passed",
                                "random_2p_seed_0": "failed"}
    result.stdout.fnmatch_lines([
        "games/random_2p_seed_0.jsonl: expect: scores.red: expected 16, found 15",
        "games/random_2p_seed_0.expected.json: 1 difference(s) from the snapshot; if the "
        "change is meant, write it anew: pytest --meeple-update"])
    assert "Traceback" not in result.stdout.str()


@pytest.mark.slow
def test_at_most_twenty_differences_are_shown_and_all_are_counted(project):
    snapshot = project.path / "games" / "random_2p_seed_0.expected.json"
    text = snapshot.read_text()
    snapshot.write_text(text.replace('"meeples": []', '"meeples": [0]'))
    changed = text.count('"meeples": []')
    assert changed > 20
    result = run_bounded(project)
    lines = result.stdout.lines
    failures = lines[:next((at for at, line in enumerate(lines)
                            if "short test summary info" in line), len(lines))]
    # (the failure's report; the summary after it repeats the reason as wide as the terminal)
    shown = [line for line in failures if ": expect: board[" in line]
    assert len(shown) == 20
    result.stdout.fnmatch_lines([f"*: {changed} difference(s) from the snapshot, the first 20 "
                                 "shown;*"])


def test_a_missing_snapshot_names_the_flag_which_writes_it(project):
    game = add_game(project, UNFINISHED, snapshot=False)
    recorded = game.read_bytes()
    result = run_bounded(project)
    assert outcomes(result)["route_loop_of_four_curves_is_complete"] == "failed"
    result.stdout.fnmatch_lines(["games/route_loop_of_four_curves_is_complete.expected.json: "
                                 "no snapshot (write it: pytest --meeple-update)"])
    result = run_bounded(project, "--meeple-update")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["meeple: 1 snapshot(s) written",
                                 "  games/route_loop_of_four_curves_is_complete.expected.json"])
    written = game.with_name("route_loop_of_four_curves_is_complete.expected.json")
    assert written.read_text() == run("show", game, "--json").stdout
    assert game.read_bytes() == recorded
    run_bounded(project).assert_outcomes(passed=3)
    run("check", project.path / "games", "--expect", project.path / "games")


def test_the_update_flag_rewrites_a_changed_snapshot_and_leaves_the_others(project):
    games = project.path / "games"
    snapshot = games / "random_2p_seed_0.expected.json"
    right = snapshot.read_text()
    snapshot.write_text(right.replace('"red": 15', '"red": 16', 1))
    untouched = (games / "classic_random_2p_seed_0.expected.json").stat().st_mtime_ns
    result = run_bounded(project, "--meeple-update")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["meeple: 1 snapshot(s) written"])
    assert snapshot.read_text() == right
    assert (games / "classic_random_2p_seed_0.expected.json").stat().st_mtime_ns == untouched


@pytest.mark.slow
def test_the_update_flag_never_writes_through_a_link(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "theirs.json"
    outside.write_text("{}")
    snapshot = project.path / "games" / "random_2p_seed_0.expected.json"
    snapshot.unlink()
    snapshot.symlink_to(outside)
    result = run_bounded(project, "--meeple-update")
    assert outcomes(result)["random_2p_seed_0"] == "failed"
    result.stdout.fnmatch_lines(["games/random_2p_seed_0.expected.json: snapshot not written: "
                                 "it is a link: a link is never written through"])
    assert outside.read_text() == "{}" and snapshot.is_symlink()


@pytest.mark.slow
def test_the_update_flag_never_writes_into_a_folder_linked_out_of_the_snapshots(
        project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (project.path / "games" / "sub").mkdir()
    add_game(project, UNFINISHED, name="sub/g.jsonl", snapshot=False)
    (project.path / "expected").mkdir()
    (project.path / "expected" / "sub").symlink_to(outside)
    result = run_bounded(project, "--meeple-update", "--meeple-expected", "expected")
    assert outcomes(result)["g"] == "failed"
    result.stdout.fnmatch_lines(["expected/sub/g.expected.json: snapshot not written: its "
                                 "folder leads outside*"])
    assert list(outside.iterdir()) == []


@pytest.mark.slow
def test_snapshots_kept_in_a_folder_of_their_own(project):
    kept = project.path / "snapshots"
    result = run_bounded(project, "--meeple-expected", "snapshots")
    result.stdout.fnmatch_lines(["snapshots/random_2p_seed_0.expected.json: no snapshot*"])
    run_bounded(project, "--meeple-expected", "snapshots", "--meeple-update").assert_outcomes(
        passed=2)
    assert sorted(p.name for p in kept.iterdir()) == ["classic_random_2p_seed_0.expected.json",
                                                      "random_2p_seed_0.expected.json"]
    run_bounded(project, "--meeple-expected", "snapshots").assert_outcomes(passed=2)


def test_dash_k_selects_games_by_file_name(project):
    result = run_bounded(project, "-k", "classic")
    assert outcomes(result) == {"classic_random_2p_seed_0": "passed"}


@pytest.mark.slow
@pytest.mark.parametrize(("expression", "selected"), [
    ("classic", {"classic_random_2p_seed_0"}),
    ("star_wars", {"random_2p_seed_0", "route_loop_of_four_curves_is_complete"}),
    ("unfinished", {"route_loop_of_four_curves_is_complete"}),
    ("finished and not classic", {"random_2p_seed_0"}),
])
def test_dash_m_selects_games_by_edition_and_outcome(project, expression, selected):
    add_game(project, UNFINISHED)
    result = run_bounded(project, "--strict-markers", "-m", expression)
    assert set(outcomes(result)) == selected


def test_a_plug_in_editions_marker_is_listed_and_selects_its_games(project, monkeypatch,
                                                                   tmp_path):
    from plugin_edition.outpost import Outpost

    from meeple.engine import EDITIONS

    monkeypatch.setitem(EDITIONS, "outpost", Outpost())
    made = tmp_path / "outpost_3.jsonl"
    run("new", made, "--players", "red,blue", "--edition", "outpost", "--seed", "3")
    run("autoplay", made, "--to-end")
    add_game(project, made)
    result = run_bounded(project, "--strict-markers", "-m", "outpost and finished")
    assert outcomes(result) == {"outpost_3": "passed"}
    listed = run_bounded(project, "--markers").stdout.str()
    assert "@pytest.mark.outpost: a recorded game of Outpost (a plug-in edition) (meeple)" in listed
    assert "@pytest.mark.star_wars: a recorded game of Carcassonne: Star Wars Edition" in listed


def test_a_broken_game_fails_with_checks_located_reason(project):
    add_game(project, BROKEN, snapshot=False)
    result = run_bounded(project)
    assert outcomes(result) == {"classic_random_2p_seed_0": "passed",
                                "random_2p_seed_0": "passed", "wrong_score_rechained": "failed"}
    result.stdout.fnmatch_lines([
        "games/wrong_score_rechained.jsonl:23: rules: the recorded consequence differs from "
        "the rules' (SW-5.4)",
        "    points: recorded 2, the rules give 1"])
    assert "Traceback" not in result.stdout.str()


@pytest.mark.slow
def test_a_file_name_s_control_characters_are_escaped(project):
    add_game(project, BROKEN, name="a\x1b[2Jb.jsonl", snapshot=False)
    result = run_bounded(project)
    assert "\x1b" not in result.stdout.str()
    result.stdout.fnmatch_lines(["games/a\\x1b[[]2Jb.jsonl:23: rules: *"])


def test_junit_xml_carries_each_failure_s_reason(project):
    add_game(project, BROKEN, snapshot=False)
    report = project.path / "report.xml"
    run_bounded(project, f"--junitxml={report}")
    cases = {case.get("name"): case for case in ElementTree.parse(report).iter("testcase")}
    assert cases["classic_random_2p_seed_0"].find("failure") is None
    failure = cases["wrong_score_rechained"].find("failure")
    assert failure is not None
    assert failure.get("message", "").startswith(
        "games/wrong_score_rechained.jsonl:23: rules: the recorded consequence differs")


#: the hostile logs of the attack battery (and a deep one), each failing its own item
HOSTILE_LOGS = ["link_to_dev_zero", "fifo", "sparse_70mib", "one_line_of_2mib", "nul_bytes",
                "dangling_link", "torn_last_line", "altered_byte", "empty", "folder", "deep"]
#: each hostile log's reason, as ``meeple check`` gives it
HOSTILE_REASONS = {
    "link_to_dev_zero": "unreadable: is a character device",
    "fifo": "unreadable: is a FIFO",
    "sparse_70mib": "too_large: the file is over",
    "folder": "is a directory",
    "torn_last_line": "torn: ",
}


@pytest.mark.slow
def test_hostile_logs_fail_their_own_items_in_bounded_time(project):
    library = {"over": STAR_WARS}
    for kind in HOSTILE_LOGS:
        folder = project.path / "games" / kind
        folder.mkdir()
        if kind == "deep":
            (folder / "g.jsonl").write_bytes(b"[" * MIB + b"\n")
        else:
            make_input(kind, folder, library)
    result = run_bounded(project)
    found = {report.nodeid.split("/")[1]: report
             for report in result.reprec.getreports("pytest_runtest_logreport")
             if report.when == "call" and "/g.jsonl" in report.nodeid}
    assert set(found) == set(HOSTILE_LOGS)
    assert all(report.outcome == "failed" for report in found.values())
    assert outcomes(result)["random_2p_seed_0"] == "passed"
    for kind, reason in HOSTILE_REASONS.items():
        assert reason in str(found[kind].longrepr), (kind, str(found[kind].longrepr))
    for report in found.values():
        text = str(report.longrepr)
        assert "Traceback" not in text and len(text.splitlines()) <= 3, text


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_game_fails_its_item(project):
    game = project.path / "games" / "random_2p_seed_0.jsonl"
    game.chmod(0)
    result = run_bounded(project)
    assert outcomes(result) == {"classic_random_2p_seed_0": "passed", "random_2p_seed_0": "failed"}


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "reason"), [
    ("fifo", "is a FIFO (named pipe), not a regular file"),
    ("link_to_dev_zero", "is a character device, not a regular file"),
    ("sparse", "is larger than the limit"),
    ("deep", "nested"),
    ("list", "this one is a list, not an object"),
])
def test_a_hostile_snapshot_fails_its_game_alone(project, kind, reason):
    snapshot = project.path / "games" / "random_2p_seed_0.expected.json"
    snapshot.unlink()
    if kind == "fifo":
        os.mkfifo(snapshot)
    elif kind == "link_to_dev_zero":
        snapshot.symlink_to("/dev/zero")
    elif kind == "sparse":
        with open(snapshot, "wb") as sparse:
            sparse.truncate(70 * MIB)
    elif kind == "deep":
        snapshot.write_text("[" * 100_000 + "]" * 100_000)
    else:
        snapshot.write_text("[1, 2]")
    result = run_bounded(project)
    assert outcomes(result) == {"classic_random_2p_seed_0": "passed", "random_2p_seed_0": "failed"}
    result.stdout.fnmatch_lines([f"games/random_2p_seed_0.expected.json: *{reason}*"])
    if kind != "list":
        result = run_bounded(project, "--meeple-update")
        assert outcomes(result)["random_2p_seed_0"] == ("passed" if kind in ("sparse", "deep")
                                                         else "failed")


@pytest.mark.slow
def test_two_workers_give_the_same_outcomes(project):
    add_game(project, BROKEN, snapshot=False)
    add_game(project, UNFINISHED, snapshot=False)
    alone = project.runpytest_subprocess("-p", "no:cacheprovider", "-rA")
    together = project.runpytest_subprocess("-p", "no:cacheprovider", "-rA", "-n", "2")
    assert "created: 2/2 workers" in together.stdout.str()

    def verdicts(result):
        return sorted(line.split(" - ")[0] for line in result.stdout.lines
                      if line.startswith(("PASSED ", "FAILED ")))

    assert verdicts(alone) == verdicts(together)
    assert verdicts(alone) == [
        "FAILED games/route_loop_of_four_curves_is_complete.jsonl::"
        "route_loop_of_four_curves_is_complete",
        "FAILED games/wrong_score_rechained.jsonl::wrong_score_rechained",
        "PASSED games/classic_random_2p_seed_0.jsonl::classic_random_2p_seed_0",
        "PASSED games/random_2p_seed_0.jsonl::random_2p_seed_0"]
    together.stdout.fnmatch_lines(["games/wrong_score_rechained.jsonl:23: rules: *"])


@pytest.mark.slow
def test_the_option_takes_several_folders_and_replaces_the_ini_setting(project):
    (project.path / "more").mkdir()
    (project.path / "more" / "g.jsonl").write_bytes(UNFINISHED.read_bytes())
    assert set(outcomes(run_bounded(project, "--meeple-games", "more"))) == {"g"}
    assert set(outcomes(run_bounded(project, "--meeple-games", "games,more"))) == {
        "classic_random_2p_seed_0", "random_2p_seed_0", "g"}


def test_the_plug_in_imports_nothing_of_meeple_at_start_up():
    code = ("import sys, meeple.cli.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.startswith('meeple')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == str(["meeple", "meeple.cli", "meeple.cli.pytest_plugin",
                                       "meeple.cli.pytest_plugin.settings"])


@pytest.mark.slow
def test_the_update_flag_writes_no_snapshot_for_a_broken_game(project):
    game = add_game(project, BROKEN, snapshot=False)
    result = run_bounded(project, "--meeple-update")
    assert outcomes(result)["wrong_score_rechained"] == "failed"
    result.stdout.fnmatch_lines([
        "games/wrong_score_rechained.jsonl:23: rules: *",
        "games/wrong_score_rechained.expected.json: no snapshot written: the game fails its "
        "check"])
    assert not game.with_name("wrong_score_rechained.expected.json").exists()


@pytest.mark.slow
def test_a_folder_of_games_that_does_not_exist_is_a_usage_error(project):
    result = run_bounded(project, "--meeple-games", "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--meeple-games: no such folder of games: */nowhere"])
    (project.path / "games").rename(project.path / "moved")
    result = run_bounded(project)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the ini setting meeple_games: no such folder of games: */games"])
