"""``meeple simulate``: complete bot-played games written as logs, with recorded seeds.

Game ``i`` of seed ``S`` goes to ``OUT/game-S-i.jsonl``. Nothing is overwritten: if one of
those files exists already, nothing is written. The work is handed to the worker processes
lazily, so ``--games`` costs no memory before the games are played.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

from meeple.cli.output import emit_json, say
from meeple.cli.session import bot_turns, check_bot, make_bot
from meeple.cli.store import Failure, load_tileset
from meeple.engine import Game, new_game
from meeple.events import log as logfile
from meeple.events.files import kind_of

#: the most games one ``simulate`` writes
MAX_GAMES = 1_000_000
#: the longest file name most file systems take, in bytes
_NAME_BYTES = 255


def simulate_one(path: str, players: list[str], seed: str, bot: str, team: bool,
                 unplaceable: str, tileset=None) -> dict:
    """Play one seeded game to the end with a bot and write its log; returns a summary."""
    first = new_game(players, tileset or load_tileset(None), seed=seed, team=team,
                     unplaceable=unplaceable)
    with make_bot(bot) as choose:
        game = Game.begin(first)
        failure = bot_turns(game, {}, choose)
        if failure is None and hasattr(choose, "finish"):
            choose.finish(game.state)
        head = game.save(path)  # before the bot is closed: its grace to exit may be cut short
    state = game.state
    summary = {"file": path, "seed": seed, "scores": dict(state.scores),
               "winners": list(state.winners or ()), "head": head}
    if failure is not None:
        summary["stopped"] = failure.reason
    return summary


def _one(job: tuple) -> dict:
    path, players, seed, bot, team, unplaceable, tileset = job
    return simulate_one(path, players, seed, bot, team, unplaceable, tileset)


def game_name(seed: str, index: int) -> str:
    """The file name of game ``index`` of base seed ``seed``."""
    return f"game-{seed}-{index}.jsonl"


def check_games(games: int) -> None:
    """``--games``: 1 to ``MAX_GAMES``.

    :raises Failure: (2) outside that range.
    """
    if not 1 <= games <= MAX_GAMES:
        raise Failure(f"--games must be 1 to {MAX_GAMES:,}; got {games}", 2)


def check_seed(seed: str, games: int, name=None) -> None:
    """``--seed`` must make file names (``name(seed, i)``, simulate's by default): no ``/``
    or control character, and short enough for the longest.

    :raises Failure: (2) otherwise.
    """
    from meeple.events.text import control_char

    name = name or game_name
    found = control_char(seed)
    if found is not None:
        raise Failure(f"--seed holds the control character {found}; a seed names the game "
                      "files and is shown, so it may not", 2)
    if "/" in seed or "\0" in seed or os.sep in seed:
        raise Failure(f"--seed names the game files ({name('SEED', 0)[:-7]}N.jsonl), so it may "
                      f"not hold '/' or NUL; got {seed!r}", 2)
    longest = len(name(seed, games - 1).encode("utf-8", "surrogateescape"))
    if longest > _NAME_BYTES:
        raise Failure(f"--seed is too long: the game files would be named with {longest} bytes; "
                      f"the limit is {_NAME_BYTES}", 2)


def prepare_folder(out: str) -> None:
    """Make the ``--out`` folder if it is not there.

    :raises Failure: (2) an empty name, or a path that is not a folder; (3) the folder
        cannot be made.
    """
    if not out:
        raise Failure("--out must name a folder to write the games to", 2)
    try:
        mode = os.stat(out).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise Failure(f"--out {out}: cannot use it: {exc.strerror}", 2) from None
    if mode is not None and not stat.S_ISDIR(mode):
        what = "a file" if stat.S_ISREG(mode) else kind_of(mode)
        raise Failure(f"--out {out}: is {what}, not a folder; name a folder to write the games "
                      "to", 2)
    try:
        os.makedirs(out, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise Failure(f"--out {out}: a part of this path is a file, not a folder", 2) from None
    except OSError as exc:
        raise Failure(f"--out {out}: cannot make the folder: {exc.strerror}", 3) from None


def refuse_existing(out: str, seed: str, games: int) -> None:
    """Refuse before anything is written if a file this run would write exists already.

    Looks at the folder's names once, whatever ``games`` is.

    :raises LogError: ``exists`` (exit 1), naming the first such file.
    """
    prefix, suffix = f"game-{seed}-", ".jsonl"
    taken = []
    try:
        names = os.listdir(out)
    except OSError as exc:
        raise Failure(f"--out {out}: cannot list the folder: {exc.strerror}", 3) from None
    for name in names:
        middle = name[len(prefix):-len(suffix)]
        if (name.startswith(prefix) and name.endswith(suffix) and middle.isascii()
                and middle.isdigit() and str(int(middle)) == middle and int(middle) < games):
            taken.append(int(middle))
    if taken:
        first = os.path.join(out, game_name(seed, min(taken)))
        raise logfile.LogError("exists", first, f"already exists ({len(taken)} of the "
                               f"{games} game files are there); simulate never overwrites a game: "
                               "choose another --out or --seed; nothing was written")


def _work(out: str, players: list[str], games: int, seed: str, bot: str, team: bool,
          unplaceable: str, tileset) -> Iterator[tuple]:
    """The games to play, one at a time."""
    for i in range(games):
        yield (os.path.join(out, game_name(seed, i)), players, f"{seed}-{i}", bot, team,
               unplaceable, tileset)


def run_simulate(out: str, players: list[str], games: int, seed: str, bot: str, team: bool,
                 unplaceable: str, as_json: bool, jobs: int = 0, tileset=None) -> None:
    """Write ``games`` games (seeds SEED-0, SEED-1, ...) in ``jobs`` processes.

    :raises Failure: (2) ``--games`` outside 1 to ``MAX_GAMES``, ``--jobs`` out of range,
        a seed that cannot name files, ``--out`` not a folder.
    :raises LogError: ``exists`` if a game file is there already (nothing is written), or
        any failure to write a game, raised in the worker that met it.
    """
    from meeple.cli.bots.parallel import ordered_map, usable_jobs
    from meeple.cli.progress import progress

    check_games(games)
    usable_jobs(jobs)
    check_seed(seed, games)
    check_bot(bot)
    tileset = tileset or load_tileset(None)
    new_game(players, tileset, seed=seed, team=team, unplaceable=unplaceable)
    prepare_folder(out)
    refuse_existing(out, seed, games)
    work = _work(out, players, games, seed, bot, team, unplaceable, tileset)
    results = []
    with progress(games, as_json) as advance:
        for result in ordered_map(_one, work, jobs):
            results.append(result)
            advance()
    if as_json:
        emit_json(results)
        return
    for result in results:
        scores = " ".join(f"{s} {p}" for s, p in result["scores"].items())
        if "stopped" in result:
            say(f"{result['file']}: {scores}; stopped: the bot {result['stopped']}")
            continue
        say(f"{result['file']}: {scores}; winner(s) {', '.join(result['winners'])}")
