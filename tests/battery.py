"""The hostile-input battery shared by the attack tests (``tests/cli/test_attack_*.py``):
how a command is run in this process or its own, what a sound outcome is, the hostile
game inputs and the commands they are given to (see ``test_attack_battery.py``)."""


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

FIXTURES = Path(__file__).parents[1] / "fixtures"
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
