"""Bot programs that end (docs/bots.md): a bot program, and whatever it started, is stopped
when it is closed, Ctrl-C during its grace to exit included, when the command that runs it
is sent SIGTERM or SIGHUP, and when the pool of processes that plays `arena` or `simulate` is
stopped (Ctrl-C, SIGTERM or SIGHUP of the command, SIGTERM of one of its workers). What it
started is stopped also where it left the bot's process group (`setsid`)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from meeple.engine import Game

from helpers import interruptible, process_gone

pytestmark = pytest.mark.slow  # (starts bot programs)

#: a bot that notes its pid and its child's, then never answers nor exits by itself
STUBBORN = """\
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
with open(sys.argv[0] + ".pids", "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
time.sleep(120)
"""

def _stubborn(tmp_path) -> str:
    path = tmp_path / "stubborn.py"
    path.write_text(STUBBORN)
    return str(path)


def _pids(path: str) -> list[int]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            text = open(path + ".pids").read().split()
            if len(text) == 2:
                return [int(p) for p in text]
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError("the bot did not start")



def _started(program: str):
    from meeple.cli.external import ExternalBot

    bot = ExternalBot(f"cmd:{program}", 5.0)
    bot._start(Game.new(["red", "blue"], "classic", seed="bots").state)
    return bot


def test_ctrl_c_during_the_grace_still_stops_the_bot_and_what_it_started(tmp_path,
                                                                           monkeypatch):
    program = _stubborn(tmp_path)
    bot = _started(program)
    pids = _pids(program)
    wait = subprocess.Popen.wait

    def interrupted(self, timeout=None):
        if timeout is not None:
            raise KeyboardInterrupt
        return wait(self, timeout)

    monkeypatch.setattr(subprocess.Popen, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bot.close()
    monkeypatch.setattr(subprocess.Popen, "wait", wait)
    assert all(process_gone(pid) for pid in pids), "the bot or its child is left running"


#: a bot that notes its pid in the folder given, answers each move after a moment, and once
#: its input ends or its output breaks neither exits nor lets SIGTERM end it
LINGERING = """\
import json, os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(os.path.join(sys.argv[0] + ".pids", str(os.getpid())), "w").close()
try:
    for line in sys.stdin:
        if json.loads(line)["type"] == "move":
            time.sleep(0.02)
            print(json.dumps({"move": 0}), flush=True)
except Exception:
    pass
time.sleep(120)
"""


def _lingering(tmp_path, name: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(LINGERING)
    (tmp_path / f"{name}.py.pids").mkdir()
    return str(path)


def _noted_pids(tmp_path, names) -> list[int]:
    return [int(p) for n in names for p in os.listdir(tmp_path / f"{n}.py.pids")]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sighup", "worker-sigterm"])
@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_no_bot_program_outlives_a_pool_that_is_stopped(tmp_path, command, how):
    import signal
    import sys

    names = ["lingers_a", "lingers_b"] if command == "arena" else ["lingers_a"]
    bots = [_lingering(tmp_path, n) for n in names]
    if command == "arena":
        args = ["arena", "--bots", ",".join(f"cmd:{b}" for b in bots), "--games", "40"]
    else:
        args = ["simulate", "--bot", f"cmd:{bots[0]}", "--games", "40"]
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli.app", *args, "--seed", "p",
                                "--out", str(tmp_path / "out"), "--jobs", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               preexec_fn=interruptible)
    try:
        deadline = time.monotonic() + 60
        while len(_noted_pids(tmp_path, names)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_noted_pids(tmp_path, names)) >= 2, "the bots did not start"
        if how == "ctrl-c":
            process.send_signal(signal.SIGINT)
        elif how in ("sigterm", "sighup"):
            process.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGHUP)
        else:  # one of the pool's workers is sent SIGTERM
            workers = [p for p in _children(process.pid)
                       if any(p in map(int, _ancestors(b)) for b in _noted_pids(tmp_path, names))]
            assert workers, "no worker of the pool runs a bot"
            os.kill(workers[0], signal.SIGTERM)
        workers = _children(process.pid)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    # (a worker that dies is an internal error, exit 4)
    assert process.returncode == {"ctrl-c": 130, "sigterm": 143, "sighup": 129}.get(how, 4), \
        stderr
    assert all(process_gone(pid) for pid in workers), "a worker of the pool is left running"
    pids = _noted_pids(tmp_path, names)
    left = [pid for pid in pids if not process_gone(pid)]
    for pid in left:  # (leave nothing behind, whatever the outcome)
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of {len(pids)} bot programs left running"


def _ancestors(pid: int) -> list[int]:
    """The process's parent, its parent's parent, and so on."""
    found = []
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            break
        pid = int(stat[stat.rfind(b")") + 2:].split()[1])
        found.append(pid)
    return found


#: a bot that starts a process out of its process group and away from its pipes, as a
#: daemon does, notes both pids, then neither answers nor exits by itself: "child", a child
#: in a session of its own with an empty environment (the bot still runs); "orphan", a
#: double fork whose grandchild leads a new session and whose middle process exits
ESCAPING = """\
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if HOW == "child":
    pid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                           start_new_session=True, env={}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).pid
else:
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.write(write, str(os.getpid()).encode())
            time.sleep(120)
        os._exit(0)
    os.wait()
    pid = int(os.read(read, 32))
with open(sys.argv[0] + ".pids", "w") as f:
    f.write(f"{os.getpid()} {pid}")
time.sleep(120)
"""


@pytest.mark.parametrize("how", ["child", "orphan"])
def test_what_a_bot_started_out_of_its_group_is_stopped_with_it(tmp_path, how):
    path = tmp_path / f"escaping_{how}.py"
    path.write_text(f"HOW = {how!r}\n" + ESCAPING)
    bot = _started(str(path))
    pids = _pids(str(path))
    try:
        bot.close()
        left = [pid for pid in pids if not process_gone(pid, within=5)]
    finally:
        for pid in pids:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
    assert not left, f"left running: {left} of {pids} (the bot, then what it started)"


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP"])
def test_a_signal_that_ends_a_command_stops_its_bot_programs(tmp_path, signum):
    """No pool: the command runs its bot in its own process, and ends by the signal."""
    import signal
    import sys

    bot = _lingering(tmp_path, "lingers")
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli.app", "simulate", "--bot",
                                f"cmd:{bot}", "--games", "40", "--seed", "p", "--jobs", "1",
                                "--out", str(tmp_path / "out")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _noted_pids(tmp_path, ["lingers"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _noted_pids(tmp_path, ["lingers"]), "the bot did not start"
        process.send_signal(getattr(signal, signum))
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -getattr(signal, signum), stderr
    pids = _noted_pids(tmp_path, ["lingers"])
    left = [pid for pid in pids if not process_gone(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of {len(pids)} bot programs left running"


#: a bot that plays the first move offered, notes when its input ends, then never exits
NO_EXIT = """\
import json, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    if json.loads(line)["type"] == "move":
        print(json.dumps({"move": 0}), flush=True)
open(sys.argv[0] + ".ended", "w").close()
time.sleep(120)
"""


def test_ctrl_c_while_a_bot_is_given_its_grace_keeps_every_move(tmp_path):
    """The moves are written before the bot is closed, so Ctrl-C during its grace to exit
    loses none of them."""
    import signal
    import sys

    from helpers import run

    bot = tmp_path / "no_exit.py"
    bot.write_text(NO_EXIT)
    game = str(tmp_path / "g.jsonl")
    run("new", game, "--players", "red,blue", "--edition", "classic", "--seed", "grace")
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli.app", "autoplay", game,
                                "--bot", f"cmd:{bot}", "--to-end"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               preexec_fn=interruptible)
    try:
        deadline = time.monotonic() + 120
        while not os.path.exists(f"{bot}.ended") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert os.path.exists(f"{bot}.ended"), "the game did not end"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert Game.load(game).phase == "over", "the moves of the game were not all written"


def test_a_forged_note_makes_the_pool_parent_kill_no_process_it_names(tmp_path):
    """A note in the pool's folder is a bot's word: a process it names is killed only if it
    is the process noted (its start time), never on a note without one."""
    import sys

    from meeple.cli.bot_processes import stop_noted

    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                              start_new_session=True)
    try:
        folder = tmp_path / "notes"
        folder.mkdir()
        (folder / str(victim.pid)).write_text(" " + "0" * 32)  # no start time
        stop_noted(str(folder))
        folder.mkdir()
        (folder / str(victim.pid)).write_text("12 not-a-mark")
        stop_noted(str(folder))
        time.sleep(0.2)
        assert victim.poll() is None, "a process named by a forged note was killed"
    finally:
        victim.kill()
        victim.wait()


def test_a_stop_cut_short_kills_what_it_stopped_and_the_exit_hook_finishes_it(tmp_path,
                                                                            monkeypatch):
    from meeple.cli import bot_processes, proc_table

    program = _stubborn(tmp_path)
    bot = _started(program)
    pids = _pids(program)
    scan, passes = proc_table.scan, []

    def cut_short(*args):
        passes.append(1)
        if len(passes) == 2:  # Ctrl-C after the first pass stopped the bot's child
            raise KeyboardInterrupt
        return scan(*args)

    monkeypatch.setattr(proc_table, "scan", cut_short)
    with pytest.raises(KeyboardInterrupt):
        bot.close()
    assert process_gone(pids[1]), "a process stopped before Ctrl-C was left stopped"
    assert pids[0] in bot_processes._LIVE, "the bot was forgotten before it was stopped"
    monkeypatch.setattr(proc_table, "scan", scan)
    bot_processes.stop_all_bots()  # (as the exit hook does)
    assert all(process_gone(pid) for pid in pids)


def test_a_process_forked_after_a_bot_started_forgets_it(tmp_path):
    """A child forked later (a library user's worker pool) did not start the bot: it must
    not stop it when it ends or is sent SIGTERM."""
    import signal

    from meeple.cli import bot_processes

    program = _stubborn(tmp_path)
    bot = _started(program)
    _pids(program)
    try:
        child = os.fork()
        if child == 0:
            forgot = not bot_processes._LIVE
            handler = signal.getsignal(signal.SIGTERM) is not bot_processes._ended_by
            os._exit(0 if forgot and handler else 1)
        assert os.waitpid(child, 0)[1] == 0, "the forked child still holds the bot"
    finally:
        bot.close()


#: a bot that notes the signals it was started ignoring, then plays the first move offered
IGNORES = """\
import json, os, sys
with open(os.path.join(sys.argv[0] + ".ignored", str(os.getpid())), "w") as out:
    out.write(next(line for line in open("/proc/self/status") if line.startswith("SigIgn")))
for line in sys.stdin:
    if json.loads(line)["type"] == "move":
        print(json.dumps({"move": 0}), flush=True)
"""


def test_bots_of_a_pool_are_not_started_ignoring_ctrl_c_or_sighup(tmp_path):
    """A worker leaves Ctrl-C and SIGHUP to the pool's parent with a handler, not by ignoring
    them, which a program it starts would inherit through exec."""
    from helpers import run

    bot = tmp_path / "ignores.py"
    bot.write_text(IGNORES)
    (tmp_path / "ignores.py.ignored").mkdir()
    run("arena", "--bots", f"cmd:{bot},random", "--games", "2", "--seed", "i", "--jobs", "2",
        "--out", tmp_path / "out")
    masks = [int(p.read_text().split()[1], 16) for p in (tmp_path / "ignores.py.ignored").iterdir()]
    assert len(masks) == 2
    assert not any(mask & 0b11 for mask in masks), "a bot was started ignoring SIGHUP or SIGINT"


def test_a_pool_parent_leaves_alone_a_child_that_is_no_bot_program():
    """Once a pool is gone its parent stops the orphans it took in: bot programs, each the
    leader of a session. A child of another kind (a server a test or a host program
    started) is neither stopped nor waited for."""
    import sys
    import threading

    from meeple.cli.bot_processes import stop_adopted

    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        done = threading.Thread(target=stop_adopted, daemon=True)
        done.start()
        done.join(5)
        assert not done.is_alive(), "the pool's parent waits for a child that is no bot"
        assert server.poll() is None, "the pool's parent stopped a child that is no bot"
    finally:
        server.kill()
        server.wait()
