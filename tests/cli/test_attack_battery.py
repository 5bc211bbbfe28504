"""Every command against hostile files and arguments.

Each command runs on logs that are missing, empty, folders, links to /dev/zero, FIFOs,
read-only, huge, torn, altered by one byte, in every phase of a game and sealed without
their seed; and with empty, very long, control-character, negative and huge arguments.
Whatever it meets, a run must end within a bound with exit 0 to 3 (never 4, a bug), show
no traceback, say a failure in one ``meeple: error:`` line (under ``--json``, one JSON
object; or typer's usage box, exit 2 only), and leave every file it failed on exactly as
it was (docs/guide/scripting.md, "Exit codes", docs/guarantees.md).

Inputs that could block a process or feed it without end (FIFOs, /dev/zero) run the CLI
as a real process with a timeout; the rest, a 70 MiB file included (a reader that read it
all would still stop), run in-process under an alarm, which is about ten times faster.
"""

import os
import re
import shutil
import time
from pathlib import Path

import battery
import pytest
from battery import (
    GAME_COMMANDS,
    HOSTILE,
    NOBODY,
    PHASES,
    Hung,
    assert_sound,
    attack,
    expected_code,
    in_subprocess,
    make_input,
    prepare,
    tree,
)

#: about 40 s in all: part of the full run, not the everyday one
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("default_locks")]

@pytest.mark.parametrize("kind", [*HOSTILE, *PHASES])
@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_on_every_game_input(tmp_path, library, command, kind):
    """Any command on any game file: a sound exit, and exit 3 for a file that is no
    readable, intact log (docs/guide/scripting.md, "Exit codes")."""
    folder = tmp_path / "w"
    folder.mkdir()
    game = make_input(kind, folder, library)
    argv = prepare(GAME_COMMANDS[command], folder, game)
    outcome = attack(argv, folder, HOSTILE.get(kind, False))
    expected = expected_code(command, kind)
    if expected is not None:
        assert outcome.code == expected, (argv, outcome.stderr)



# ---------------------------------------------------------------------------- read-only logs

#: each command that writes a log, with a game it writes to when it may
WRITES = {
    "place": "place_tile", "place_and_finish": "place_tile", "deploy": "place_meeple",
    "skip": "place_meeple", "draw": "enter_draw", "roll": "enter_dice", "undo": "place_meeple",
    "redo": "undone", "continue": "resolving", "autoplay": "place_tile",
    "repair": "torn_last_line",
}
#: what the one error line must give as the reason
READ_ONLY_REASON = re.compile(r"read-only|permission denied|not writable", re.IGNORECASE)


@pytest.mark.parametrize("command", WRITES)
def test_read_only_log_is_refused_unchanged(tmp_path, library, command):
    """A log made read-only (mode 0444) is evidence someone froze: a command that would write
    to it is refused with exit 3 and the reason, and the log is left as it was."""
    template = GAME_COMMANDS[command]
    writable = tmp_path / "writable"
    writable.mkdir()
    argv = prepare(template, writable, make_input(WRITES[command], writable, library))
    assert attack(argv, writable, False).code == 0  # the command does write to this game

    folder = tmp_path / "w"
    folder.mkdir()
    game = make_input(WRITES[command], folder, library)
    game.chmod(0o444)
    argv = prepare(template, folder, game)
    outcome = attack(argv, folder, False)
    assert outcome.code == 3 and READ_ONLY_REASON.search(outcome.stderr), \
        f"meeple {command} on a read-only log: exit {outcome.code}: {outcome.stderr or outcome.stdout}"


@pytest.fixture
def shared_folder():
    """A folder under /tmp that another user may enter, owned by nobody; removed after."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="meeple-battery-"))
    try:
        folder.chmod(0o755)
        os.chown(folder, NOBODY, NOBODY)
        yield folder
    finally:
        shutil.rmtree(folder)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv to run the CLI as another user")
@pytest.mark.parametrize("command", WRITES)
def test_read_only_log_of_its_owner_is_refused_unchanged(shared_folder, library, command):
    """The same, as the kernel enforces it: nobody's own log, mode 0444, a command run as
    nobody (run when this suite runs as root, whom the kernel lets write anywhere)."""
    game = make_input(WRITES[command], shared_folder, library)
    os.chown(game, NOBODY, NOBODY)
    game.chmod(0o444)
    argv = prepare(GAME_COMMANDS[command], shared_folder, game)
    before = tree(shared_folder)
    outcome = in_subprocess(argv, cwd=shared_folder, as_nobody=True)
    assert_sound(outcome, argv)
    assert outcome.code == 3 and READ_ONLY_REASON.search(outcome.stderr), outcome.stderr
    assert tree(shared_folder) == before


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="needs root and setpriv to run the CLI as another user")
def test_nobody_writes_its_own_writable_log(shared_folder, library):
    """The control of the test above: with write permission, the same run succeeds, so it is
    the mode, not the set-up, that refuses."""
    game = make_input("place_meeple", shared_folder, library)
    os.chown(game, NOBODY, NOBODY)
    outcome = in_subprocess(["skip", str(game)], cwd=shared_folder, as_nobody=True)
    assert outcome.code == 0, outcome.stderr


# ---------------------------------------------------------------------------- the battery itself


def test_the_battery_catches_a_crash_a_hang_and_a_trace(tmp_path, library, monkeypatch):
    """Each promise can fail: a command that crashes (exit 4), hangs, or changes a log it
    failed on is caught (each planted by replacing what ``status`` prints)."""
    from meeple.cli import report
    from meeple.cli.store import Failure

    game = make_input("place_tile", tmp_path, library)
    monkeypatch.setattr(report, "print_status", lambda *a: 1 / 0)
    with pytest.raises(AssertionError, match="exit 4"):
        attack(["status", str(game)], tmp_path, False)

    monkeypatch.setattr(report, "print_status", lambda *a: time.sleep(5))
    monkeypatch.setattr(battery, "BOUND", 0.5)
    with pytest.raises(Hung):
        attack(["status", str(game)], tmp_path, False)

    def append_then_fail(*a):
        with open(game, "ab") as log:
            log.write(b"x")
        raise Failure("cannot write", 3)

    monkeypatch.setattr(report, "print_status", append_then_fail)
    with pytest.raises(AssertionError, match="changed files"):
        attack(["status", str(game)], tmp_path, False)
