"""An arena's folder read as someone else's: ``arena --resume`` takes nothing in it on trust.

Its record (``arena.json``) must hold settings an arena could have been started with
(``meeple arena --bots ... --games ... --seed ...``): known fields of the right types, at
most ``MAX_GAMES`` games, a seed that names files inside the folder. A record that names
program bots (``cmd:``), or engine bots thinking longer than a seat may (``mcts:3600s``), is
not enough to start them: the user names them again with ``--bots`` on the command line.
The timings in ``results.ndjson`` are read only up to ``MAX_RESULTS_BYTES``, and only where
each line has the shape a game's timings have.
The summary is written to a new file moved into place, never through a link planted in the
folder; timings are appended to ``results.ndjson`` only if it is a plain file.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import stat
import threading
from collections.abc import Callable, Iterator

from meeple.cli.store import Failure

#: the largest ``results.ndjson`` read: far above what the most games an arena plays write
MAX_RESULTS_BYTES = 64 * 1024 * 1024
#: exit code of a folder whose record or timings are damaged (as of a corrupt log)
DAMAGED = 3


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def check_record(path: str, settings: dict, most_games: int,
                 game_name: Callable[[str, int], str]) -> None:
    """The settings of an arena's record, checked as ``meeple arena`` checks its options;
    ``game_name`` names its game files.

    :raises Failure: (3) a field of the wrong type or out of range.
    """
    from meeple.cli.bots.simulating import check_seed

    def damaged(what: str) -> Failure:
        return Failure(f"{path}: damaged arena record: {what}", DAMAGED)

    bots, seed, seeds = settings["bots"], settings["seed"], settings["seeds"]
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots) \
            or not 2 <= len(bots) <= 16:
        raise damaged("'bots' must be a list of 2 to 16 bot specs")
    if not isinstance(settings["ladder"], bool):
        raise damaged("'ladder' must be true or false")
    if not isinstance(settings["edition"], str):
        raise damaged("'edition' must be an edition's name")
    if not _number(settings["move_time"]):
        raise damaged("'move_time' must be a number of seconds")
    sprt = settings["sprt"]
    if sprt is not None and not (isinstance(sprt, list) and len(sprt) == 2
                                 and all(_number(p) for p in sprt)
                                 and 0 < sprt[0] < sprt[1] < 1):
        raise damaged("'sprt' must be null or [P0, P1] with 0 < P0 < P1 < 1")
    if not isinstance(seed, str):
        raise damaged("'seed' must be a string")
    size = len(bots) * (len(bots) - 1) if settings["ladder"] else math.factorial(len(bots))
    if not isinstance(seeds, int) or isinstance(seeds, bool) \
            or not 1 <= seeds or (seeds - 1) * size >= most_games:
        raise damaged(f"'seeds' must make 1 to {most_games:,} games")
    try:
        check_seed(seed, seeds * size, game_name)
    except Failure as exc:
        raise damaged(f"its seed cannot name game files ({exc.message})") from None


def check_programs(path: str, recorded: list[str], named: list[str] | None,
                   left: bool = True) -> None:
    """Program bots (``cmd:``), and engine bots above the ceiling on seat budgets
    (``meeple.cli.seat_ceiling``), run only if the user names them on the command line: a
    record that names one needs ``--bots`` giving the record's bots, in its order, while
    games are ``left`` to play.

    :raises Failure: (2) such a bot not named so, or ``--bots`` not the record's.
    """
    if named is None and left:
        from meeple.cli.seat_ceiling import CEILING_SECONDS, over_ceiling

        programs = [b for b in recorded if b.startswith("cmd:")]
        if programs:
            raise Failure(f"{path} names program bots ({', '.join(programs)}); an arena's "
                          "folder never starts a program on its own: if you trust them, "
                          f"resume with --bots {','.join(recorded)}", 2)
        slow = [b for b in recorded if over_ceiling(b)]
        if slow:
            raise Failure(f"{path} names bots above the ceiling of {CEILING_SECONDS:g} s a "
                          f"move ({', '.join(slow)}); to let them think so long, resume with "
                          f"--bots {','.join(recorded)}", 2)
    elif named is not None and named != recorded:
        raise Failure(f"{path}: this arena's bots are {','.join(recorded)}; --bots names "
                      f"{','.join(named)}", 2)


def noted_lines(path: str) -> list[str]:
    """The lines of ``results.ndjson`` (none if it is missing).

    :raises Failure: (3) not a plain file, or larger than ``MAX_RESULTS_BYTES``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise Failure(f"{path}: cannot read the arena's timings: {exc.strerror}", DAMAGED) \
            from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise Failure(f"{path}: not a plain file; an arena writes its timings there",
                          DAMAGED)
        if info.st_size > MAX_RESULTS_BYTES:
            raise Failure(f"{path}: {info.st_size:,} bytes, more than an arena writes "
                          f"({MAX_RESULTS_BYTES:,} at most); move it away to resume", DAMAGED)
        data = f.read(MAX_RESULTS_BYTES + 1)
    return data.decode("utf-8", "replace").splitlines()


def timing(line: str, seats: int) -> dict | None:
    """A line of ``results.ndjson`` as a game's timings for ``seats`` seats, or None if it
    is not one (cut by an interruption, or written by hand)."""
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        return None
    seconds, moves, reason = entry.get("seconds"), entry.get("moves"), entry.get("reason")
    if not (isinstance(seconds, list) and len(seconds) == seats
            and all(_number(s) and s >= 0 for s in seconds)):
        return None
    if not (isinstance(moves, list) and len(moves) == seats
            and all(isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in moves)):
        return None
    if reason is not None and not isinstance(reason, str):
        return None
    return {"file": entry["file"], "seconds": seconds, "moves": moves, "reason": reason}


def check_plain(path: str) -> None:
    """``path`` is missing or a plain file (not a link, a pipe, a folder): checked before
    any game is played, so that no game is played for timings that cannot be written.

    :raises Failure: (3) otherwise.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise Failure(f"{path}: not a plain file; an arena writes its timings there (move it "
                      "away); nothing was played", DAMAGED)


def append_line(path: str, line: str) -> None:
    """Append one line to ``path``, a plain file (created if missing), never through a
    link.

    :raises Failure: (3) the path is a link or not a plain file.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
                     | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        raise Failure(f"{path}: cannot write the arena's timings: {exc.strerror}", DAMAGED) \
            from None
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise Failure(f"{path}: not a plain file; an arena writes its timings there",
                          DAMAGED)
        f.write(line)


def replace_file(path: str, text: str) -> None:
    """Write ``text`` to a new file beside ``path`` and move it there: whatever ``path``
    was (a link included) is replaced, and nothing it pointed to is written.

    :raises Failure: (3) it cannot be written (``path`` is a folder, the disk is full).
    """
    temporary = os.path.join(os.path.dirname(path),
                             f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise Failure(f"{path}: cannot write the arena's summary: {exc.strerror}; its games "
                      "are written", DAMAGED) from None


def read_plain(path: str, most: int) -> str:
    """The text of ``path``, a plain file of at most ``most`` bytes (a pipe or a device is
    not opened for long: its open does not wait for a writer).

    :raises Failure: (3) not a plain file, or larger.
    :raises OSError: it cannot be opened (``FileNotFoundError`` if it is missing).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise Failure(f"{path}: not a plain file", DAMAGED)
        data = f.read(most + 1)
    if len(data) > most:
        raise Failure(f"{path}: larger than {most:,} bytes", DAMAGED)
    return data.decode("utf-8", "replace")


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) waits while a game that was played is written and counted, so that
    the tally an interrupted arena prints holds every game it wrote: a SIGINT meanwhile is
    kept and handled as it would have been once the block ends (a few milliseconds). Only
    the main thread handles signals: elsewhere nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: kept.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if kept:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous == signal.SIG_DFL:
                signal.raise_signal(signal.SIGINT)
