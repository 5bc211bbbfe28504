"""Every command against hostile files and arguments.

Each command runs on logs that are missing, empty, folders, links to /dev/zero, FIFOs,
read-only, huge, torn, altered by one byte, in every phase of a game and sealed without
their seed; and with empty, very long, control-character, negative and huge arguments.
Whatever it meets, a run must end within a bound with exit 0 to 3 (never 4, a bug), show
no traceback, say a failure in one ``meeple: error:`` line (under ``--json``, one JSON
object; or typer's usage box, exit 2 only), and leave every file it failed on exactly as
it was (README, "Exit codes", "Guarantees").

Inputs that could block a process or feed it without end (FIFOs, /dev/zero) run the CLI
as a real process with a timeout; the rest, a 70 MiB file included (a reader that read it
all would still stop), run in-process under an alarm, which is about ten times faster.
"""

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import invoke, run, run_json

#: about 40 s in all: part of the full run, not the everyday one
pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parents[2] / "fixtures"
OVER = FIXTURES / "random_2p_seed_0.jsonl"
#: seconds any one run may take, in a process of its own or in this one
BOUND = 20
#: the real user nobody, to meet a read-only log as the kernel enforces it
NOBODY = 65534
MIB = 1 << 20


class Hung(BaseException):
    """Raised by the alarm in an in-process run that passed its bound (not an ``Exception``,
    so that the CLI's last guard cannot turn it into an exit code)."""


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    seconds: float


# ---------------------------------------------------------------------------- running


@pytest.fixture(autouse=True)
def default_locks():
    """``--lock-timeout`` configures this process's log locks: give the defaults back after
    each test, whatever it ran."""
    from meeple.events import log as logfile

    yield
    logfile.configure_locks()


def in_process(argv: list[str]) -> Outcome:
    """The CLI in this process, interrupted by an alarm after ``BOUND`` seconds."""
    def alarm(signum, frame):
        raise Hung(f"meeple {' '.join(argv)[:200]} ran past {BOUND} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, BOUND)
    began = time.monotonic()
    try:
        result = invoke(argv)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"an exception escaped the CLI: {result.exception!r}")
    return Outcome(result.exit_code, result.stdout, result.stderr, time.monotonic() - began)


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_DEBUG"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def in_subprocess(argv: list[str], cwd: Path | None = None, as_nobody: bool = False) -> Outcome:
    """The CLI as a real process (``as_nobody``: as the user nobody, by ``setpriv``): one that
    hangs is killed at ``BOUND`` and fails the test."""
    command = [sys.executable, "-m", "meeple.cli.app", *argv]
    if as_nobody:
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                   *command]
    began = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, errors="replace",
                              timeout=BOUND, stdin=subprocess.DEVNULL, env=environment())
    except subprocess.TimeoutExpired:
        pytest.fail(f"meeple {' '.join(argv)[:200]} hung: no exit within {BOUND} s")
    return Outcome(done.returncode, done.stdout, done.stderr, time.monotonic() - began)


#: what no output may carry raw: it moves the cursor, erases or reorders what a person reads
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def usage_box(stderr: str) -> bool:
    """typer's own usage error: a boxed message under a ``Usage:`` line (as an in-process run
    of the app shows it; ``meeple`` itself says it in one line: ``test_cli_entry.py``)."""
    return stderr.lstrip().startswith("Usage:") and "Error" in stderr


def assert_sound(outcome: Outcome, argv: list[str], report: bool = False) -> None:
    """Exit 0-3, no traceback, a failure said in one ``meeple: error:`` line, in time.

    ``report``: the command prints its verdict on stdout (``check``), so a failure may also
    come with nothing on stderr and the verdict on stdout.
    """
    said = f"meeple {' '.join(argv)[:300]!r} -> exit {outcome.code}\n{outcome.stderr[:2000]}"
    assert outcome.code in (0, 1, 2, 3), said
    assert "Traceback" not in outcome.stdout + outcome.stderr, said
    assert outcome.seconds < BOUND, said
    assert not RAW_CONTROL.search(outcome.stdout + outcome.stderr), said
    if outcome.code == 0:
        return
    if outcome.code == 2 and usage_box(outcome.stderr):
        return
    if report and outcome.stderr == "":
        assert outcome.stdout.strip(), said
        return
    lines = outcome.stderr.splitlines()
    if "--json" in argv[: argv.index("--")] if "--" in argv else "--json" in argv:
        assert len(lines) == 1, said  # one JSON object: the error, its kind, code and rule
        error = json.loads(lines[0])
        assert error["code"] == outcome.code and error["error"] and error["kind"], said
        return
    assert len(lines) == 1 and lines[0].startswith("meeple: error: "), said


# ---------------------------------------------------------------------------- files


def tree(folder: Path) -> dict[str, object]:
    """Every entry under ``folder`` as it stands: kind and content, without following a link,
    opening a FIFO or reading more than a few MiB (a larger file by size and mtime)."""
    seen: dict[str, object] = {}
    for entry in sorted(folder.rglob("*")):
        info = entry.lstat()
        name = str(entry.relative_to(folder))
        if stat.S_ISLNK(info.st_mode):
            seen[name] = ("link", os.readlink(entry))
        elif stat.S_ISREG(info.st_mode):
            small = info.st_size <= 4 * MIB
            seen[name] = ("file", stat.S_IMODE(info.st_mode),
                          entry.read_bytes() if small else (info.st_size, info.st_mtime_ns))
        else:
            seen[name] = ("other", stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode))
    return seen


def play_first_move(game: Path, *finish: str) -> None:
    """Place the drawn tile at its first legal place, then ``finish`` (e.g. --no-meeple)."""
    first = run_json("moves", game)[0]
    run("place", game, first["x"], first["y"], first["rotation"], *finish)


#: README's table-mode tour: red and white hold two routes that red's curve joins (SW-5.2)
BATTLE = [
    ("draw", "L"), ("place", "-1", "0", "180", "--meeple", "route:E"),
    ("draw", "E"), ("place", "0", "1", "180", "--no-meeple"),
    ("draw", "endor"), ("place", "0", "-1", "0", "--no-meeple"),
    ("draw", "tatooine"), ("place", "1", "1", "0", "--meeple", "route:S"),
    ("draw", "V"), ("place", "1", "0", "90", "--no-meeple"),
]


#: the games ``library`` makes, with the phase ``meeple status`` must report for each
PHASE_OF = {
    "place_tile": "place_tile", "place_meeple": "place_meeple", "undone": "place_tile",
    "enter_draw": "enter_draw", "enter_dice": "enter_dice", "over": "over",
    "sealed_holder": "place_tile", "sealed_without_seed": "place_tile",
    "awaiting_seed_holder": "awaiting_seed_holder", "resolving": "resolving",
    "resolving_battle": "resolving",
}


def cut_last_line(source: Path, target: Path) -> Path:
    target.write_bytes(b"".join(source.read_bytes().splitlines(True)[:-1]))
    return target


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> dict[str, Path]:
    """One valid game in every phase, made once: digital, table mode and sealed (the copies
    of the sealed game have no seed file: only ``sealed_holder.jsonl.seed`` is made)."""
    root = tmp_path_factory.mktemp("library")
    made = {name: root / f"{name}.jsonl" for name in PHASE_OF}

    def derive(name: str, source: str, *commands: tuple[str, ...]) -> None:
        shutil.copy(made[source], made[name])
        for command, *args in commands:
            run(command, made[name], *args)

    run("new", made["place_tile"], "--players", "red,black", "--seed", "1")
    derive("place_meeple", "place_tile")
    play_first_move(made["place_meeple"])
    derive("undone", "place_meeple", ("undo",))
    run("new", made["enter_draw"], "--players", "red,white", "--table")
    derive("enter_dice", "enter_draw", *BATTLE)
    shutil.copy(OVER, made["over"])
    run("new", made["sealed_holder"], "--players", "red,black", "--sealed")
    derive("sealed_without_seed", "sealed_holder")
    derive("awaiting_seed_holder", "sealed_holder")
    play_first_move(made["awaiting_seed_holder"], "--no-meeple")
    derive("resolving", "place_meeple", ("skip",))
    cut_last_line(made["resolving"], made["resolving"])
    cut_last_line(made["enter_dice"], made["resolving_battle"])

    for name, phase in PHASE_OF.items():
        assert run_json("status", made[name])["phase"] == phase, name
    assert run_json("status", made["sealed_without_seed"])["sealed"]
    assert not Path(f"{made['sealed_without_seed']}.seed").exists()
    return made


def copy_game(source: Path, target: Path) -> Path:
    shutil.copy(source, target)
    seed = Path(f"{source}.seed")
    if seed.exists():
        shutil.copy(seed, f"{target}.seed")
    return target


def altered(source: Path, target: Path, at_line: int | None = None) -> Path:
    """One letter or digit changed, in the middle of the log or of line ``at_line``: in a
    hash, a field name or a value."""
    data = bytearray(source.read_bytes())
    at = len(data) // 2
    if at_line is not None:
        lines = data.splitlines(True)
        start = sum(map(len, lines[:at_line]))
        at = start + len(lines[at_line]) // 2
    while not chr(data[at]).isalnum():
        at += 1
    data[at] = ord("0") if data[at] != ord("0") else ord("1")
    target.write_bytes(bytes(data))
    return target


def torn(source: Path, target: Path) -> Path:
    """The last line cut in the middle, as a crash mid-write leaves it."""
    data = source.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    target.write_bytes(data[: start + (len(data) - start) // 2])
    return target


#: what a game input is made of; ``True`` for inputs that need a process of their own
HOSTILE = {
    "missing": False, "empty": False, "folder": False, "link_to_dev_zero": True,
    "fifo": True, "sparse_70mib": False, "one_line_of_2mib": False, "nul_bytes": False,
    "dangling_link": False, "link_to_a_game": False, "torn_last_line": False,
    "altered_byte": False, "altered_last_line": False, "read_only": False,
}
PHASES = list(PHASE_OF)
#: inputs no command may read as a game: each is exit 3 (repair mends a torn line: exit 0)
UNREADABLE = {"missing", "empty", "folder", "link_to_dev_zero", "fifo", "sparse_70mib",
              "one_line_of_2mib", "nul_bytes", "dangling_link", "torn_last_line",
              "altered_byte"}


def make_input(kind: str, folder: Path, library: dict[str, Path]) -> Path:
    """The game path of input ``kind`` in ``folder``."""
    game = folder / "g.jsonl"
    if kind in library:
        return copy_game(library[kind], game)
    if kind == "empty":
        game.touch()
    elif kind == "folder":
        game.mkdir()
    elif kind == "link_to_dev_zero":
        game.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(game)
    elif kind == "sparse_70mib":
        with open(game, "wb") as sparse:
            sparse.truncate(70 * MIB)
    elif kind == "one_line_of_2mib":
        game.write_bytes(b'{"type":"game_started","seq":0,"x":"' + b"a" * (2 * MIB) + b'"}\n')
    elif kind == "nul_bytes":
        game.write_bytes(b"\0" * 4096)
    elif kind == "dangling_link":
        game.symlink_to(folder / "nowhere.jsonl")
    elif kind == "link_to_a_game":
        game.symlink_to(copy_game(library["place_tile"], folder / "real.jsonl"))
    elif kind == "torn_last_line":
        torn(library["over"], game)
    elif kind == "altered_byte":
        altered(library["over"], game)
    elif kind == "altered_last_line":
        altered(library["place_meeple"], game, at_line=-1)
    elif kind == "read_only":
        copy_game(library["place_meeple"], game).chmod(0o444)
    elif kind != "missing":
        raise ValueError(kind)
    return game


# ---------------------------------------------------------------------------- commands

#: stand-ins in an argument list: the game, a new output file, a FIFO, a folder, a text file,
#: a 70 MiB file
GAME, OUT, FIFO, FOLDER, TEXT, HUGE_FILE = "@GAME", "@OUT", "@FIFO", "@FOLDER", "@TEXT", "@HUGE"
LONG = "x" * 100_000
HUGE = str(10**30)
#: characters a terminal obeys: escape sequences, carriage return, newline, a bidi override
CONTROL = "a\x1b[2J\rmeeple: error: forged\n\u202eb\x7f"

#: every command that takes a game, with arguments that some phase accepts; and the other
#: readers of a file a user names, given the game input instead
GAME_COMMANDS = {
    "new": ["new", GAME, "--players", "red,black", "--seed", "1"],
    "status": ["status", GAME, "--json"],
    "moves": ["moves", GAME],
    "place": ["place", GAME, "0", "1", "270"],
    "place_and_finish": ["place", GAME, "-1", "0", "0", "--meeple", "route:E"],
    "deploy": ["deploy", GAME, "route:E"],
    "take-back": ["take-back", GAME, "0", "0", "road:E"],
    "skip": ["skip", GAME, "--json"],
    "draw": ["draw", GAME, "L"],
    "roll": ["roll", GAME, "red=5", "white=2"],
    "undo": ["undo", GAME],
    "redo": ["redo", GAME],
    "continue": ["continue", GAME],
    "show": ["show", GAME, "--ascii"],
    "show_json": ["show", GAME, "--json"],
    "show_svg": ["show", GAME, "--svg", OUT],
    "export": ["export", GAME, "--html", OUT],
    "replay": ["replay", GAME, "--heads"],
    "score": ["score", GAME, "--json"],
    "score_valid_prefix": ["score", GAME, "--valid-prefix"],
    "check": ["check", GAME, "--jobs", "1"],
    "repair": ["repair", GAME],
    "autoplay": ["autoplay", GAME, "--turns", "2"],
    "tiles_tileset": ["tiles", "--tileset", GAME],
    "check_expect": ["check", str(OVER), "--expect", GAME],
}


def prepare(template: list[str], folder: Path, game: Path) -> list[str]:
    """The argument list with its stand-ins made and named (``@GAME.seed`` is the game's seed
    file, ``@OUT/name`` a file in a folder that is not there)."""
    places = {GAME: str(game), OUT: str(folder / "out"), FIFO: str(folder / "fifo"),
              FOLDER: str(folder / "folder"), TEXT: str(folder / "notes.txt"),
              HUGE_FILE: str(folder / "huge.json")}
    if FIFO in template:
        os.mkfifo(places[FIFO])
    if FOLDER in template:
        os.mkdir(places[FOLDER])
    if TEXT in template:
        Path(places[TEXT]).write_text("not JSON at all\n")
    if HUGE_FILE in template:
        with open(places[HUGE_FILE], "wb") as sparse:
            sparse.truncate(70 * MIB)

    def named(item: str) -> str:
        for token, path in places.items():
            if item == token or item.startswith((f"{token}.", f"{token}/")):
                return path + item[len(token):]
        return item

    return [named(item) for item in template]


def own_process(argv: list[str]) -> bool:
    """Whether a run may meet something that blocks or never ends: a FIFO or /dev/zero."""
    return any(item.endswith("/fifo") or item == "/dev/zero" for item in argv)


def attack(argv: list[str], folder: Path, alone: bool) -> Outcome:
    """Run ``argv``, check every promise, and that a failure left ``folder`` untouched."""
    before = tree(folder)
    outcome = (in_subprocess if alone else in_process)(argv)
    assert_sound(outcome, argv, report=argv[0] in ("check", "demo"))
    if outcome.code != 0:
        assert tree(folder) == before, f"meeple {argv[0]} failed (exit {outcome.code}) and " \
                                       f"changed files: {outcome.stderr}"
    return outcome


def expected_code(command: str, kind: str) -> int | None:
    """The exit code an input must give, or None where any sound code will do."""
    if command == "new":
        return 0 if kind == "missing" else 1  # never over anything that is there
    if command == "tiles_tileset":
        return 2  # no game log, nor anything else here, is a tile set
    if command == "check_expect":
        return 1  # nor a snapshot of a game's state
    if kind not in UNREADABLE:
        return None
    if command == "repair" and kind == "torn_last_line":
        return 0  # the one fault repair mends
    if command == "score_valid_prefix" and kind in ("torn_last_line", "altered_byte"):
        return 0  # the lines before the fault, said on stderr
    if command == "check" and kind == "folder":
        return 1  # a folder is a set of games; this one holds none
    return 3


@pytest.mark.parametrize("kind", [*HOSTILE, *PHASES])
@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_on_every_game_input(tmp_path, library, command, kind):
    """Any command on any game file: a sound exit, and exit 3 for a file that is no
    readable, intact log (README, "Exit codes")."""
    folder = tmp_path / "w"
    folder.mkdir()
    game = make_input(kind, folder, library)
    argv = prepare(GAME_COMMANDS[command], folder, game)
    outcome = attack(argv, folder, HOSTILE.get(kind, False))
    expected = expected_code(command, kind)
    if expected is not None:
        assert outcome.code == expected, (argv, outcome.stderr)


# ---------------------------------------------------------------------------- arguments

#: (id, game input, arguments, exit code or None for any sound one); ``missing`` for the
#: commands that make a file
ARGUMENTS = [
    # options of every command
    ("lock_timeout_negative", "place_tile", ["--lock-timeout", "-1", "status", GAME], 2),
    ("lock_timeout_nan", "place_tile", ["--lock-timeout", "nan", "status", GAME], 2),
    ("lock_timeout_inf", "place_tile", ["--lock-timeout", "inf", "status", GAME], 2),
    ("lock_timeout_huge", "place_tile", ["--lock-timeout", HUGE, "status", GAME], 0),
    ("lock_timeout_empty", "place_tile", ["--lock-timeout", "", "status", GAME], 2),
    ("unknown_command", "place_tile", ["frobnicate", GAME], 2),
    ("game_path_empty", "place_tile", ["status", ""], 3),
    ("game_path_long", "place_tile", ["status", LONG], 3),
    ("game_path_control", "place_tile", ["status", CONTROL], 3),
    # new
    ("new_players_empty", "missing", ["new", GAME, "--players", ""], 1),
    ("new_players_unknown_colour", "missing", ["new", GAME, "--players", "pink,red"], 1),
    ("new_players_twice", "missing", ["new", GAME, "--players", "red,red"], 1),
    ("new_players_one", "missing", ["new", GAME, "--players", "red"], 1),
    ("new_players_long", "missing", ["new", GAME, "--players", LONG], 1),
    ("new_players_control", "missing", ["new", GAME, "--players", f"red,{CONTROL}"], 1),
    ("new_names_control", "missing", ["new", GAME, "--players", "red,black", "--names",
                                      f"{CONTROL},Bob"], 1),
    ("new_names_long", "missing", ["new", GAME, "--players", "red,black", "--names",
                                   f"{LONG},Bob"], 1),
    ("new_names_too_many", "missing", ["new", GAME, "--players", "red,black", "--names",
                                       "a,b,c"], 1),
    ("new_seed_empty", "missing", ["new", GAME, "--players", "red,black", "--seed", ""], None),
    ("new_seed_long", "missing", ["new", GAME, "--players", "red,black", "--seed", LONG], None),
    ("new_seed_control", "missing", ["new", GAME, "--players", "red,black", "--seed", CONTROL],
     None),
    ("new_tileset_dev_zero", "missing", ["new", GAME, "--players", "red,black", "--tileset",
                                         "/dev/zero"], 2),
    ("new_tileset_fifo", "missing", ["new", GAME, "--players", "red,black", "--tileset", FIFO],
     2),
    ("new_tileset_empty_name", "missing", ["new", GAME, "--players", "red,black",
                                           "--tileset", ""], 2),
    ("new_tileset_folder", "missing", ["new", GAME, "--players", "red,black", "--tileset",
                                       FOLDER], 2),
    ("new_tileset_not_json", "missing", ["new", GAME, "--players", "red,black", "--tileset",
                                         TEXT], 2),
    ("new_edition_unknown", "missing", ["new", GAME, "--players", "red,black", "--edition",
                                        CONTROL], 2),
    ("new_expansion_unknown", "missing", ["new", GAME, "--players", "red,black",
                                          "--expansion", ""], 2),
    ("new_unplaceable_unknown", "missing", ["new", GAME, "--players", "red,black",
                                            "--unplaceable", LONG], 1),
    ("new_undo_unknown", "missing", ["new", GAME, "--players", "red,black", "--undo", ""], 1),
    ("new_path_empty", "missing", ["new", "", "--players", "red,black"], 3),
    ("new_path_folder", "missing", ["new", FOLDER, "--players", "red,black"], 1),
    ("new_path_fifo", "missing", ["new", FIFO, "--players", "red,black"], 1),
    ("new_path_dev_zero", "missing", ["new", "/dev/zero", "--players", "red,black"], 1),
    ("new_path_in_no_folder", "missing", ["new", f"{OUT}/g.jsonl", "--players", "red,black"],
     3),
    ("new_path_too_long", "missing", ["new", "y" * 300, "--players", "red,black"], 3),
    ("new_over_a_game", "over", ["new", GAME, "--players", "red,black"], 1),
    # place, deploy, take-back, skip
    ("place_x_empty", "place_tile", ["place", GAME, "", "0", "0"], 2),
    ("place_x_huge", "place_tile", ["place", GAME, HUGE, "0", "0"], 1),
    ("place_far_negative", "place_tile", ["place", GAME, f"-{HUGE}", f"-{HUGE}", "90"], 1),
    ("place_rotation_huge", "place_tile", ["place", GAME, "0", "1", HUGE], 1),
    ("place_rotation_negative", "place_tile", ["place", GAME, "0", "1", "-90"], 1),
    ("place_rotation_45", "place_tile", ["place", GAME, "0", "1", "45"], 1),
    ("place_meeple_empty", "place_tile", ["place", GAME, "0", "1", "270", "--meeple", ""],
     1),
    ("place_meeple_long", "place_tile", ["place", GAME, "0", "1", "270", "--meeple", LONG], 1),
    ("place_meeple_control", "place_tile", ["place", GAME, "0", "1", "270", "--meeple",
                                            CONTROL], 1),
    ("place_meeple_and_none", "place_tile", ["place", GAME, "0", "1", "270", "--meeple",
                                             "route:N", "--no-meeple"], 2),
    ("deploy_empty", "place_meeple", ["deploy", GAME, ""], 1),
    ("deploy_long", "place_meeple", ["deploy", GAME, LONG], 1),
    ("deploy_control", "place_meeple", ["deploy", GAME, CONTROL], 1),
    ("deploy_unknown_edge", "place_meeple", ["deploy", GAME, "route:Q"], 1),
    ("deploy_planet_far", "place_meeple", ["deploy", GAME, f"planet@{HUGE},-{HUGE}"], 1),
    ("deploy_planet_half", "place_meeple", ["deploy", GAME, "planet@1,"], 1),
    ("take_back_huge", "place_meeple", ["take-back", GAME, HUGE, f"-{HUGE}", "road:E"], 1),
    ("take_back_control", "place_meeple", ["take-back", GAME, "0", "0", CONTROL], 1),
    ("skip_extra", "place_meeple", ["skip", GAME, "extra"], 2),
    # draw, roll (table mode)
    ("draw_empty", "enter_draw", ["draw", GAME, ""], 1),
    ("draw_long", "enter_draw", ["draw", GAME, LONG], 1),
    ("draw_control", "enter_draw", ["draw", GAME, CONTROL], 1),
    ("draw_newline", "enter_draw", ["draw", GAME, "L\n"], 1),
    ("draw_while_dice_are_due", "enter_dice", ["draw", GAME, "L"], 1),
    ("roll_no_value", "enter_dice", ["roll", GAME, "red=", "white=2"], 2),
    ("roll_no_colour", "enter_dice", ["roll", GAME, "=5", "white=2"], 1),
    ("roll_unknown_colour", "enter_dice", ["roll", GAME, "pink=5", "white=2"], 1),
    ("roll_control_colour", "enter_dice", ["roll", GAME, f"{CONTROL}=5", "white=2"], 1),
    ("roll_zero", "enter_dice", ["roll", GAME, "red=0", "white=2"], 1),
    ("roll_seven", "enter_dice", ["roll", GAME, "red=7", "white=2"], 1),
    ("roll_negative", "enter_dice", ["roll", GAME, "red=-1", "white=2"], 1),
    ("roll_huge", "enter_dice", ["roll", GAME, f"red={HUGE}", "white=2"], 1),
    ("roll_many_dice", "enter_dice", ["roll", GAME, "red=" + ",".join(["5"] * 40_000),
                                      "white=2"], 1),
    ("roll_twice_one_colour", "enter_dice", ["roll", GAME, "red=5", "red=6", "white=2"], None),
    ("roll_empty", "enter_dice", ["roll", GAME, ""], 2),
    ("roll_one_side", "enter_dice", ["roll", GAME, "red=5"], 1),
    ("roll_in_a_digital_game", "place_tile", ["roll", GAME, "red=5", "black=2"], 1),
    # undo, redo, continue, autoplay
    ("undo_zero", "place_meeple", ["undo", GAME, "--steps", "0"], 1),
    ("undo_negative", "place_meeple", ["undo", GAME, "--steps", "-1"], 1),
    ("undo_huge", "place_meeple", ["undo", GAME, "--steps", HUGE], 1),
    ("redo_huge", "place_meeple", ["redo", GAME, "--steps", HUGE], 1),
    ("redo_negative", "place_meeple", ["redo", GAME, "--steps", f"-{HUGE}"], 1),
    ("autoplay_bot_unknown", "place_tile", ["autoplay", GAME, "--bot", CONTROL], 2),
    ("autoplay_bot_empty", "place_tile", ["autoplay", GAME, "--bot", ""], 2),
    ("autoplay_turns_zero", "place_tile", ["autoplay", GAME, "--turns", "0"], None),
    ("autoplay_turns_negative", "place_tile", ["autoplay", GAME, "--turns", "-5"], None),
    ("autoplay_turns_huge", "place_tile", ["autoplay", GAME, "--turns", HUGE], 0),
    ("autoplay_table_game", "enter_draw", ["autoplay", GAME], 1),
    ("autoplay_sealed_without_seed", "awaiting_seed_holder", ["autoplay", GAME], 1),
    ("continue_sealed_without_seed", "awaiting_seed_holder", ["continue", GAME], 1),
    # show, export, replay, score
    ("show_at_negative", "over", ["show", GAME, "--at", "-1"], 1),
    ("show_at_huge", "over", ["show", GAME, "--at", HUGE], 1),
    ("show_turn_huge", "over", ["show", GAME, "--turn", f"-{HUGE}"], 1),
    ("show_at_and_turn", "over", ["show", GAME, "--at", "3", "--turn", "1"], 2),
    ("show_svg_empty", "over", ["show", GAME, "--svg", ""], 2),
    ("show_svg_folder", "over", ["show", GAME, "--svg", FOLDER], 2),
    ("show_svg_fifo", "over", ["show", GAME, "--svg", FIFO], 2),
    ("show_svg_dev_zero", "over", ["show", GAME, "--svg", "/dev/zero"], 2),
    ("show_svg_over_its_log", "over", ["show", GAME, "--svg", GAME], 2),
    ("show_svg_in_no_folder", "over", ["show", GAME, "--svg", f"{OUT}/board.svg"], 2),
    ("show_svg_name_too_long", "over", ["show", GAME, "--svg", "z" * 300], 2),
    ("export_html_empty", "over", ["export", GAME, "--html", ""], 2),
    ("export_html_folder", "over", ["export", GAME, "--html", FOLDER], 2),
    ("export_html_fifo", "over", ["export", GAME, "--html", FIFO], 2),
    ("export_html_over_its_log", "over", ["export", GAME, "--html", GAME], 2),
    ("export_html_over_the_seed", "sealed_holder", ["export", GAME, "--html", f"{GAME}.seed"],
     2),
    ("replay_range_huge", "over", ["replay", GAME, "--from", f"-{HUGE}", "--to", HUGE], 0),
    ("replay_range_reversed", "over", ["replay", GAME, "--from", "50", "--to", "3"], 0),
    # check
    ("check_expect_dev_zero", "over", ["check", GAME, "--expect", "/dev/zero"], 1),
    ("check_expect_fifo", "over", ["check", GAME, "--expect", FIFO], 1),
    ("check_expect_empty_name", "over", ["check", GAME, "--expect", ""], 1),
    ("check_expect_huge", "over", ["check", GAME, "--expect", HUGE_FILE], 1),
    ("new_tileset_huge", "missing", ["new", GAME, "--players", "red,black", "--tileset",
                                     HUGE_FILE], 2),
    ("check_expect_folder", "over", ["check", GAME, "--expect", FOLDER], 1),
    ("check_expect_not_json", "over", ["check", GAME, "--expect", TEXT], 1),
    ("check_expect_a_log", "over", ["check", GAME, "--expect", GAME], 1),
    ("check_jobs_negative", "over", ["check", GAME, "--jobs", "-1"], 2),
    ("check_jobs_huge", "over", ["check", GAME, "--jobs", HUGE], 2),
    ("check_head_empty", "over", ["check", GAME, "--head", ""], 2),
    ("check_head_not_hex", "over", ["check", GAME, "--head", "zzzzzzzzzzzzzz"], 2),
    ("check_head_long", "over", ["check", GAME, "--head", LONG], 2),
    ("check_head_unknown", "over", ["check", GAME, "--head", "0" * 64], 1),
    ("check_nothing", "over", ["check"], 2),
    ("check_a_fifo_and_a_game", "over", ["check", FIFO, GAME, "--jobs", "1"], 3),
    ("check_the_seed_file", "sealed_holder", ["check", f"{GAME}.seed"], 3),
    # repair
    ("repair_the_seed_file", "sealed_holder", ["repair", f"{GAME}.seed"], 3),
    ("repair_a_folder", "over", ["repair", FOLDER], 3),
    # simulate
    ("simulate_out_empty", "over", ["simulate", "--out", "", "--games", "1"], 2),
    ("simulate_out_a_file", "over", ["simulate", "--out", TEXT, "--games", "1"], 2),
    ("simulate_out_a_game", "over", ["simulate", "--out", GAME, "--games", "1"], 2),
    ("simulate_out_fifo", "over", ["simulate", "--out", FIFO, "--games", "1"], 2),
    ("simulate_games_zero", "over", ["simulate", "--out", OUT, "--games", "0"], 2),
    ("simulate_games_negative", "over", ["simulate", "--out", OUT, "--games", "-1"], 2),
    ("simulate_games_huge", "over", ["simulate", "--out", OUT, "--games", HUGE], 2),
    ("simulate_players_empty", "over", ["simulate", "--out", OUT, "--games", "1",
                                        "--players", ""], 1),
    ("simulate_players_unknown", "over", ["simulate", "--out", OUT, "--games", "1",
                                          "--players", f"red,{CONTROL}"], 1),
    ("simulate_seed_empty", "over", ["simulate", "--out", OUT, "--games", "1", "--seed", ""],
     None),
    ("simulate_seed_long", "over", ["simulate", "--out", OUT, "--games", "1", "--seed",
                                    LONG], 2),
    ("simulate_seed_slash", "over", ["simulate", "--out", OUT, "--games", "1", "--seed",
                                     "../../escape"], 2),
    ("simulate_seed_control", "over", ["simulate", "--out", OUT, "--games", "1", "--seed",
                                       CONTROL], None),
    ("simulate_jobs_huge", "over", ["simulate", "--out", OUT, "--games", "1", "--jobs",
                                    HUGE], 2),
    ("simulate_bot_unknown", "over", ["simulate", "--out", OUT, "--games", "1", "--bot",
                                      "nope"], 2),
    ("simulate_edition_unknown", "over", ["simulate", "--out", OUT, "--games", "1",
                                          "--edition", "nope"], 2),
    # tiles, schema, bench, demo
    ("tiles_tileset_dev_zero", "over", ["tiles", "--tileset", "/dev/zero"], 2),
    ("tiles_tileset_fifo", "over", ["tiles", "--tileset", FIFO], 2),
    ("tiles_tileset_huge", "over", ["tiles", "--tileset", HUGE_FILE], 2),
    ("tiles_tileset_empty_name", "over", ["tiles", "--tileset", ""], 2),
    ("tiles_tileset_folder", "over", ["tiles", "--tileset", FOLDER], 2),
    ("tiles_tileset_not_json", "over", ["tiles", "--tileset", TEXT], 2),
    ("tiles_tileset_a_log", "over", ["tiles", "--tileset", GAME], 2),
    ("tiles_edition_unknown", "over", ["tiles", "--edition", CONTROL], 2),
    ("tiles_fiesta_in_star_wars", "over", ["tiles", "--fiesta"], 2),
    ("tiles_svg_empty", "over", ["tiles", "--svg", ""], 2),
    ("tiles_svg_fifo", "over", ["tiles", "--svg", FIFO], 2),
    ("tiles_svg_over_a_log", "over", ["tiles", "--svg", GAME], 2),
    ("schema_extra", "over", ["schema", "extra"], 2),
    ("bench_help", "over", ["bench", "--help"], 0),
    ("demo_out_a_game", "over", ["demo", "--out", GAME], 1),
    ("demo_out_a_folder", "over", ["demo", "--out", FOLDER], 1),
    ("demo_players_unknown", "over", ["demo", "--out", OUT, "--players", "pink"], 1),
]


@pytest.mark.parametrize("case", ARGUMENTS, ids=[case[0] for case in ARGUMENTS])
def test_hostile_arguments(tmp_path, library, case):
    """Arguments no one should give, each with the exit code the README's classes call for:
    1 invalid or refused, 2 usage, 3 unreadable."""
    _, kind, template, expected = case
    folder = tmp_path / "w"
    folder.mkdir()
    game = make_input(kind, folder, library)
    argv = prepare(template, folder, game)
    outcome = attack(argv, folder, own_process(argv))
    if expected is not None:
        assert outcome.code == expected, (argv[:6], outcome.stdout[-500:], outcome.stderr)


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
    monkeypatch.setattr(sys.modules[__name__], "BOUND", 0.5)
    with pytest.raises(Hung):
        attack(["status", str(game)], tmp_path, False)

    def append_then_fail(*a):
        with open(game, "ab") as log:
            log.write(b"x")
        raise Failure("cannot write", 3)

    monkeypatch.setattr(report, "print_status", append_then_fail)
    with pytest.raises(AssertionError, match="changed files"):
        attack(["status", str(game)], tmp_path, False)
