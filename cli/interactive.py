"""``meeple play GAME``: a game at the terminal, typed move by move, against bots or not.

Each line is a command of the CLI without the file name (``place 1 0 90 route:E``,
``deploy planet``, ``skip``, ``undo``, ``draw L``, ``roll red=5 black=2``, ``moves``,
``show``, ``status``, ``score``), run by the same code as on the command line, so every
move is checked, appended and reported the same way. After each move the board and the
tile in hand are drawn again, and the bot seats (``--bot black=mcts``) play until a person
is to act. Tab completes commands, legal placements, targets and tiles (prompt_toolkit);
Up and Down walk the history. Ctrl-D or ``quit`` ends the session, Ctrl-C too: a move is
either appended whole or not at all, so the log is never left half written.
"""

from __future__ import annotations

import functools
import gc
import re
import shlex
import sys
from collections.abc import Callable

from prompt_toolkit.completion import Completer, Completion

from meeple.cli.output import note, say

#: the verbs a line may start with, as typed
VERBS = ("place", "deploy", "skip", "take-back", "draw", "roll", "undo", "redo", "moves",
         "show", "status", "score", "continue", "rules", "hint", "help", "quit", "exit")
#: the verbs of the screen alone (``meeple.cli.screen.app``)
SCREEN_VERBS = ("zoom", "centre", "center")
#: the verbs that only show something: after them no bot plays and the board is not redrawn
SHOWING = ("moves", "show", "status", "score", "rules")
#: a short word typed for a verb
SHORT = {"p": "place"}
HELP = ("commands: place X Y ROTATION [TARGET] or place LABEL [TARGET] (b2: cell b, "
        "rotation 2; b2 alone or p b2 for short) · deploy TARGET [--figure NAME] · skip · "
        "take-back X Y TARGET · draw TILE · roll COLOUR=N,N ... · undo [--steps N] · redo · "
        "moves · show · status · score · rules [ID|WORD] · hint · quit (Tab completes; Up and "
        "Down recall)")
#: a placement label typed alone (``b2``): letters then a rotation number
_LABEL = re.compile(r"[a-z]{1,3}[0-9]+", re.IGNORECASE)
#: a command of the shell named in a message: `meeple VERB ARGS`
_SHELL_COMMAND = re.compile(r"`meeple ([a-z-]+)([^`]*)`")


#: runs one command line in this process and gives its exit code, its messages already shown
#: (``meeple.cli.app.run_command``)
Run = Callable[[list[str]], int]


def _interruptible(run: Run) -> Run:
    """``run``, raising ``KeyboardInterrupt`` where Ctrl-C stopped the command (its exit code
    is 130), so that the session ends there."""

    def running(argv: list[str]) -> int:
        code = run(argv)
        if code == 130:
            raise KeyboardInterrupt
        return code

    return running


def _state(path: str):
    from meeple.cli.session import open_game

    return open_game(path).state


def _bots_move(path: str, bots: dict[str, str], move_time: float, run: Run) -> None:
    """Let the bot seats play until a person is to act (or the game is over)."""
    from meeple.engine import awaiting

    while True:
        state = _state(path)
        if awaiting(state) not in ("place", "meeple") or state.player not in bots:
            return
        say(f"-- {state.player} ({bots[state.player]}) plays --")
        if run(["autoplay", path, "--bot", bots[state.player], "--turns", "1",
                 "--move-time", str(move_time)]):
            note("meeple: the bot could not play on; the game waits for you")
            return


def _show(path: str, run: Run) -> None:
    from meeple.cli.pictures.tilesheet import in_hand
    from meeple.cli.report import next_line

    run(["show", path])
    state = _state(path)
    if state.phase == "over":  # (the final table, with each score's formula)
        run(["score", path])
    hand = in_hand(state)
    if hand:
        say(hand)
    say(score_line(state))
    say(in_play_words(path, next_line(state)))


def score_line(state) -> str:
    """The scores and the tiles left, on one line: what a player keeps in view."""
    scores = " · ".join(f"{side} {points}" for side, points in state.scores.items())
    return f"Score: {scores} · tiles left {state.tiles_left()}"


def in_play_words(path: str, message: str) -> str:
    """An error line as ``play`` says it: a shell command it names that is also typed at
    the prompt (`meeple moves`, `meeple deploy GAME TARGET`) becomes what to type there
    (`moves`, `deploy TARGET`)."""

    def typed(match: re.Match[str]) -> str:
        verb, rest = match.group(1), match.group(2).split()
        if verb not in VERBS:
            return match.group()
        return "`" + " ".join([verb, *(word for word in rest if word not in ("GAME", path))]) + "`"

    return _SHELL_COMMAND.sub(typed, message)


def _argv(path: str, line: str) -> list[str] | None:
    """The CLI command a typed line stands for, or None for an empty line."""
    words = shlex.split(line)
    if not words:
        return None
    verb, rest = words[0].lower(), words[1:]
    if _LABEL.fullmatch(verb):
        verb, rest = "place", words
    verb = SHORT.get(verb, verb)
    if verb == "rules":
        return ["rules", *rest]
    if verb == "place" and rest:
        # place X Y R TARGET [--large] or place LABEL TARGET [--large]
        spot = 3 if rest[0].lstrip("-").isdigit() else 1
        if len(rest) > spot and not rest[spot].startswith("-"):
            rest = [*rest[:spot], "--meeple", *rest[spot:]]
    return [verb, path, *rest]


class _Completer(Completer):
    """Tab completion: the verbs, then what the game allows now (placements with their
    targets, targets, tiles left, the sides that roll)."""

    def __init__(self, path: str, extra: tuple[str, ...] = ()) -> None:
        self.path = path
        self.verbs = [*VERBS, *extra]

    def candidates(self, verb: str) -> list[str]:
        from meeple.engine import legal_moves

        try:
            state = _state(self.path)
        except Exception:  # a log that cannot be read offers nothing to complete
            return []
        moves = legal_moves(state)
        if verb == "place":
            from meeple.cli.labels import spots

            named = {(x, y): name for name, (x, y, _) in spots(state).items()}
            labelled = [f"{named[(m.x, m.y)]}{m.rotation // 90 + 1}" + (f" {t}" if t else "")
                        for m in moves if (m.x, m.y) in named for t in ("", *m.targets)]
            return labelled + [f"{m.x} {m.y} {m.rotation}" + (f" {t}" if t else "")
                               for m in moves for t in ("", *m.targets)]
        if verb == "deploy":
            return sorted({t for m in moves for t in m.targets})
        if verb == "draw":
            return sorted(t for t, n in state.remaining.items() if n)
        if verb == "rules":
            from meeple.cli import rulebook

            return list(rulebook.by_id())
        if verb == "roll" and state.battle is not None:
            return [f"{side}=" for side in state.battle.active]
        return []

    def get_completions(self, document, complete_event):
        line = document.text_before_cursor.lstrip()
        if " " not in line:
            typed, found = line, self.verbs
        else:
            verb, typed = line.split(" ", 1)
            found = self.candidates(verb.lower())
        for option in found:
            if option.startswith(typed):
                yield Completion(option, start_position=-len(typed))


def run_play(path: str, bots: dict[str, str], move_time: float, run: Run,
             relay: str | None = None, lines: bool = False) -> int:
    """The session (see the module), each command line run by ``run``. At a terminal it is
    one screen (``meeple.cli.screen``), or with ``lines`` (or a ``relay``) lines read with
    prompt_toolkit; from a pipe, lines read plainly. Returns the exit code: 0, or 1 when
    lines read from a pipe failed (a script learns that not every line was played; each
    error was said on stderr). With ``relay`` (a remote game), the lines go to and come from
    the relay after each move, and while the game waits for another seat the session waits
    for its lines."""
    from meeple.cli.store import Failure
    from meeple.cli.views import seated_bots
    from meeple.engine import sees_only_the_table

    state = _state(path)  # an unreadable or invalid log stops here, with its error
    recorded = seated_bots(state)
    for colour in bots:
        if colour not in state.players:
            raise Failure(f"--bot {colour}=...: {colour} does not play in this game; players: "
                          + ", ".join(state.players), 2)
        if colour in recorded:
            raise Failure(f"--bot {colour}=...: {colour} is a bot seat of this game already "
                          f"({recorded[colour]}, recorded at `meeple new`)", 2)

    seeded = [bot for bot in bots.values() if not sees_only_the_table(bot)]
    if seeded and not (state.digital and state.chance_known):
        raise Failure(f"the {seeded[0]} bot takes its choices from the game's seed, which this "
                      "game does not have here (table mode or a sealed seed): seat mcts or a "
                      "program", 2)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if terminal and not lines and relay is None:
        return _on_screen(path, bots, move_time, run)
    read = _terminal_reader(path) if terminal else _pipe_reader
    failed = 0
    # Ctrl-C ends the session wherever it comes: at the prompt, in a command, while a bot
    # plays or the board is drawn
    run = _interruptible(run)
    from meeple.cli import output

    shell_words = output.error_words
    output.error_words = lambda message: in_play_words(path, message)
    try:
        _bots_move(path, bots, move_time, run)
        if relay is not None:
            _wait_turn(path, relay, run)
        _show(path, run)
        while True:
            try:
                line = read("meeple> ")
            except EOFError:
                say("")
                break
            if len(line.rstrip("\n")) > MAX_LINE:
                note(f"meeple: error: a line of over {MAX_LINE:,} characters; a command is a few "
                     "words" + ("" if terminal else ": the rest of the input is not read"))
                failed += 1
                if terminal:
                    continue
                break
            try:
                argv = _argv(path, line)
            except ValueError as exc:
                note(f"meeple: error: cannot read that line: {exc}")
                failed += 1
                continue
            if argv is None:
                continue
            verb = argv[0]
            if verb in ("quit", "exit"):
                break
            if verb == "help":
                say(HELP)
                continue
            if verb == "hint":
                say(_hint(path))
                continue
            if verb not in VERBS:
                shown = verb if len(verb) <= 40 else verb[:40] + "…"
                note(f"meeple: error: unknown command {shown!r} (`help` lists the commands)")
                failed += 1
                continue
            code = run(argv)
            failed += code != 0
            if code == 0 and verb not in SHOWING:
                _bots_move(path, bots, move_time, run)
                if relay is not None:
                    run(["send", path, "--relay", relay])
                    _wait_turn(path, relay, run)
                _show(path, run)
    except KeyboardInterrupt:
        say("(interrupted: the log keeps every move made)")
    finally:
        output.error_words = shell_words
    return 1 if failed and not terminal else 0


def _hint(path: str) -> str:
    """What the default bot would play now, and why (``meeple.cli.screen.hints``)."""
    from meeple.cli.screen.hints import hint
    from meeple.cli.session import DEFAULT_OPPONENT

    try:
        return hint(_state(path), DEFAULT_OPPONENT)
    except ValueError as exc:
        return f"no hint now: {exc}"


def _on_screen(path: str, bots: dict[str, str], move_time: float, run: Run) -> int:
    """The session as one screen; what it leaves said on the terminal once it closes."""
    from meeple.cli import output
    from meeple.cli.screen.app import play_screen
    from meeple.cli.screen.lines import Typing

    words = functools.partial(in_play_words, path)
    typing = Typing(argv=functools.partial(_argv, path), completer=_Completer(path, SCREEN_VERBS),
                    verbs=VERBS, showing=SHOWING, help=HELP, words=words, max_line=MAX_LINE)
    shell_words = output.error_words
    output.error_words = words
    try:
        interrupted = play_screen(path, bots, move_time, run, typing)
    finally:
        output.error_words = shell_words
    if interrupted:
        say("(interrupted: the log keeps every move made)")
    say(score_line(_state(path)) + f" · the game is kept in {path}")
    return 0


#: seconds between two looks at the relay while the game waits for another seat
WAIT_POLL = 1.0


def _wait_turn(path: str, relay: str, run: Run) -> None:
    """Take the relay's lines until the game waits for this seat or is over (Ctrl-C ends the
    wait and the session)."""
    import time

    from meeple.cli.remote import remote_view
    from meeple.cli.session import open_game

    told = None
    while True:
        run(["receive", path, "--relay", relay])
        game = open_game(path)
        view = remote_view(game)
        if game.over or view["your_turn"]:
            return
        waiting = ", ".join(view["waiting_for"])
        if waiting != told:
            say(f"-- waiting for {waiting} (Ctrl-C ends the session; the log keeps every "
                "move) --")
            told = waiting
        time.sleep(WAIT_POLL)


#: the longest line ``play`` reads as a command (a command is a few words)
MAX_LINE = 4096


def _pipe_reader(prompt: str) -> str:
    line = sys.stdin.readline(MAX_LINE + 1)  # (a longer line is refused, not read on)
    if not line:
        raise EOFError
    return line


def _terminal_reader(path: str):
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    session: PromptSession[str] = PromptSession(history=InMemoryHistory(),
                                                completer=_Completer(path),
                                                complete_while_typing=False)

    def read(prompt: str) -> str:
        line = session.prompt(prompt)
        # Each prompt leaves an event loop behind, in a reference cycle: collected later, in
        # the middle of a bot's search, its finalizer would swallow a Ctrl-C typed then
        # ("Exception ignored in BaseEventLoop.__del__") and the search would run on.
        gc.collect()
        return line

    return read

