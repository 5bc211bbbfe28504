"""``meeple play`` at a terminal: one screen, redrawn after every move and on every resize
(prompt_toolkit's full-screen application).

Top to bottom: the score line (scores, tiles left, turn, figures in reserve); the board
around the last placement, beside it the tile in hand in its rotations; the last moves;
what was said (an error, a hint) and what happens next, or the bot's thinking line; the
prompt; the keys. Commands are typed as in the line-by-line session
(``meeple.cli.interactive``), a bare label (``b2``) being a placement. The person's move is
drawn as soon as it is written; then each bot seat plays in a process of its own
(``meeple autoplay`` or ``meeple continue``) while the screen stays live, so Ctrl-C stops it
the way Ctrl-C stops those commands: every move before is kept in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (
    BufferControl,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput

from meeple.cli.screen import panels
from meeple.cli.screen.lines import Run, Typing

#: the keys, as the last line shows them
KEYS = "? help · arrows pan · F2 zoom · F3 centre · Tab completes · Ctrl-D quits"
#: the tile set's status, kept in view beside the board (the help gives the whole note)
RECONSTRUCTED = "tile set reconstructed (?)"
#: the spinner of the thinking line
SPINNER = "|/-\\"


class _Lines(UIControl):
    """A window's lines, made for its size when it is drawn (so a resize redraws them)."""

    def __init__(self, make: Callable[[int, int], list[panels.Line]]) -> None:
        self.make = make

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.make(width, height)
        return UIContent(get_line=lambda i: lines[i] if i < len(lines) else [],
                         line_count=max(1, len(lines)))


class Screen:
    """One session at a terminal on the game at ``path``; ``bots`` the seats bots play in
    this session, ``run`` runs one command line in this process (its exit code)."""

    def __init__(self, path: str, bots: dict[str, str], move_time: float,
                 run: Run, typing: Typing) -> None:
        from meeple.cli.session import open_game

        self.path, self.bots, self.move_time, self.run = path, bots, move_time, run
        self.typing = typing
        self.state = open_game(path).state
        self.centre: tuple[int, int] = self.state.placed_at or (0, 0)
        self.size: panels.Size | None = None  # (None: the screen's default)
        self.page: list[str] | None = None  # text shown over the board (help, a table)
        self.page_top = 0
        self.drawn: dict[panels.Size, panels.Grid] = {}  # the whole board, by tile size
        self.said: tuple[str, str] = ("", "")  # (style, text): an error, a hint
        self.busy: str | None = None  # who is thinking
        self.busy_since = 0.0
        self.child: asyncio.subprocess.Process | None = None
        self.thinking = False  # (a bot seat's process runs, or is being started)
        self.interrupted = False
        self.ending = False
        self.buffer = Buffer(completer=typing.completer, multiline=False,
                             complete_while_typing=False, accept_handler=self._accept)
        self.app: Application[None] = Application(layout=self._layout(),
                                                  key_bindings=self._keys(),
                                                  full_screen=True, mouse_support=False)

    # -- what is shown --------------------------------------------------------------------

    def _layout(self) -> Layout:
        wide = self.app_size
        self.prompt = Window(BufferControl(self.buffer,
                                           input_processors=[BeforeInput("meeple> ")]),
                             height=1)
        body = VSplit([
            Window(_Lines(self._board)),
            Window(width=1, char="│", style="fg:#5f5f5f"),
            Window(_Lines(self._side), width=lambda: 27 if wide()[0] < 120 else 49),
        ])
        root = HSplit([
            Window(FormattedTextControl(self._top), height=1, style="reverse"),
            body,
            Window(_Lines(self._moves), height=lambda: 3 if wide()[1] < 30 else 6),
            Window(_Lines(self._status), height=3),
            self.prompt,
            Window(FormattedTextControl(lambda: [("", panels.fitted(KEYS, wide()[0]))]),
                   height=1, style="fg:#8a8a8a"),
        ])
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))
        return Layout(FloatContainer(root, floats=[menu]), focused_element=self.buffer)

    def app_size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _top(self):
        return [("bold", panels.fitted(panels.score_line(self.state), self.app_size()[0]))]

    def _board(self, width: int, height: int) -> list[panels.Line]:
        if self.page is not None:
            wrapped = [part for line in self.page for part in panels.wrapped(line, width)]
            return [[("", line)] for line in wrapped[self.page_top:self.page_top + height]]
        if not self.state.board:
            return []
        size = self.size or panels.default_size(*self.app_size())
        view = panels.View(*self.centre, size)
        if size not in self.drawn:  # (drawn once a state: the spinner redraws the screen)
            self.drawn = {size: panels.whole_board(self.state, size)}
        return panels.board_window(self.state, view, width, height, self.drawn[size])

    def _side(self, width: int, height: int) -> list[panels.Line]:
        lines = panels.hand(self.state, width)
        if not lines:
            waiting = "the game is over" if self.state.phase == "over" else "no tile in hand"
            lines = [[("bold", waiting)]]
        if self.state.tileset.status == "reconstructed" and height > len(lines) + 1:
            # the set's status stays in view at any size that leaves it a line (? says more)
            lines += [[("", "")] for _ in range(height - len(lines) - 1)]
            lines.append([("fg:ansiyellow", panels.fitted(RECONSTRUCTED, width))])
        return lines[:height]

    def _moves(self, width: int, height: int) -> list[panels.Line]:
        bots = set(self.bots) | set(_recorded(self.state))
        lines: list[panels.Line] = []
        for move in panels.last_moves(self.state, height):
            style = "fg:ansimagenta bold" if move.player in bots else ""
            lines.append([(style, panels.fitted(panels.move_line(move), width))])
        return lines

    def _status(self, width: int, height: int) -> list[panels.Line]:
        style, said = self.said
        if self.busy is not None:
            turn = SPINNER[int(time.monotonic() * 8) % len(SPINNER)]
            seconds = time.monotonic() - self.busy_since
            nextline = (f"{turn} {self.busy} is thinking · {seconds:.0f} s · Ctrl-C ends the "
                        "session, every move kept")
        elif self.ending:
            nextline = "The game is over: press any key to leave"
        else:
            nextline = self.typing.words(_next_line(self.state))
        lines = textwrap.wrap(said, width) if said else []
        if len(lines) > height - 1:  # (what is cut is said again by `help` or the command)
            lines = [*lines[:height - 2], panels.fitted(" ".join(lines[height - 2:]), width)]
        shown: list[panels.Line] = [[(style, line)] for line in lines]
        shown.append([("bold", panels.fitted(nextline, width))])
        blank: list[panels.Line] = [[] for _ in range(height - len(shown))]
        return blank + shown  # (what happens next just above the prompt)

    # -- keys -----------------------------------------------------------------------------

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()
        ending = Condition(lambda: self.ending)

        @keys.add("<any>", filter=ending, eager=True)
        @keys.add("enter", filter=ending, eager=True)
        def _leave(event) -> None:
            event.app.exit()

        @keys.add("?", filter=~ending, eager=True)
        def _help(event) -> None:
            if self.page is not None:
                self.page = None
            else:
                self._show_page(self._help_text())

        @keys.add("escape", filter=~ending, eager=True)
        def _close(event) -> None:
            self.page = None

        for key, dx, dy in (("left", -1, 0), ("right", 1, 0), ("up", 0, 1), ("down", 0, -1)):
            keys.add(key)(self._pan(dx, dy))  # (at the end too: they scroll the table)

        @keys.add("f2", filter=~ending)
        def _zoom(event) -> None:
            self._zoom()

        @keys.add("f3", filter=~ending)
        def _centre(event) -> None:
            self._recentre()

        @keys.add("c-c")
        def _interrupt(event) -> None:
            self._interrupt()

        @keys.add("c-d", filter=~ending)
        def _quit(event) -> None:
            if not self.buffer.text:
                self._leave()
            else:
                self.buffer.delete()

        return keys

    def _pan(self, dx: int, dy: int):
        def pan(event) -> None:
            if self.page is not None:
                most = max(0, len(self.page) - 3)
                self.page_top = min(most, max(0, self.page_top - dy))
                return
            x, y = self.centre
            cells = [*self.state.board, *panels.cell_labels(self.state).values()] or [(0, 0)]
            x = min(max(x + dx, min(c[0] for c in cells)), max(c[0] for c in cells))
            y = min(max(y + dy, min(c[1] for c in cells)), max(c[1] for c in cells))
            self.centre = (x, y)

        return pan

    def _zoom(self) -> None:
        size = self.size or panels.default_size(*self.app_size())
        self.size = panels.ZOOMS[(panels.ZOOMS.index(size) + 1) % len(panels.ZOOMS)]

    def _recentre(self) -> None:
        self.page = None
        self.centre = self.state.placed_at or (0, 0)

    def _show_page(self, text: str) -> None:
        self.page = text.rstrip("\n").splitlines()
        self.page_top = 0

    def _help_text(self) -> str:
        compact = (self.size or panels.default_size(*self.app_size())) == panels.COMPACT
        return panels.help_page(self.state, self.typing.help, compact)

    # -- what is typed --------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        self._submit(buffer.text)  # (the buffer keeps the line in its history)
        self.prompt.horizontal_scroll = 0  # a line wider than the pane scrolled "meeple> " away
        return False

    def _submit(self, line: str) -> None:
        if self.busy is not None:
            self._say(f"{self.busy} is thinking: wait for it, or Ctrl-C ends the session", True)
            return
        if len(line) > self.typing.max_line:
            self._say(f"a line of over {self.typing.max_line:,} characters; a command is a "
                      "few words", True)
            return
        try:
            argv = self.typing.argv(line)
        except ValueError as exc:
            self._say(f"cannot read that line: {exc}", True)
            return
        if argv is None:
            return
        verb = argv[0]
        self.said = ("", "")
        if verb in ("quit", "exit"):
            self._leave()
        elif verb == "help":
            self._show_page(self._help_text())
        elif verb == "hint":
            self._hint()
        elif verb == "zoom":
            self._zoom()
        elif verb in ("centre", "center", "show"):
            self._recentre()
        elif verb == "continue" and self._bot_to_play(recorded=True):
            self._start_bots(recorded=True)
        elif verb not in self.typing.verbs:
            shown = verb if len(verb) <= 40 else verb[:40] + "…"
            self._say(f"unknown command {shown!r} (`help` or ? lists the commands)", True)
        else:
            self._command(argv)

    def _command(self, argv: list[str]) -> None:
        from meeple.cli import session

        out, err = io.StringIO(), io.StringIO()
        session.seats_later = True  # (the seats play after the move is drawn)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = self.run(argv)
        finally:
            session.seats_later = False
        errors = [line for line in err.getvalue().splitlines() if line.strip()]
        if errors:
            self._say(errors[0].removeprefix("meeple: error: "), code != 0)
        if argv[0] in self.typing.showing:
            if out.getvalue().strip():
                self._show_page(out.getvalue())
            return
        self.page = None
        self._reload()
        if code == 0:
            self._start_bots(recorded=argv[0] not in ("undo", "redo"))

    def _say(self, text: str, error: bool = False) -> None:
        self.said = ("fg:ansired bold" if error else "fg:ansicyan", text)

    def _reload(self) -> None:
        from meeple.cli.session import open_game

        placed = self.state.placed_at
        self.state = open_game(self.path).state
        self.drawn = {}
        if self.state.placed_at != placed or self.state.placed_at is None:
            self.centre = self.state.placed_at or (0, 0)
        if self.state.phase == "over" and not self.ending:
            self._end()

    def _end(self) -> None:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.run(["score", self.path])
        self._show_page(panels.final_page(out.getvalue()))
        self.ending = True

    # -- the bots -------------------------------------------------------------------------

    def _start_bots(self, *, recorded: bool) -> None:
        self.app.create_background_task(self._bots_play(recorded))

    async def _bots_play(self, recorded: bool) -> None:
        """The bot seats play, each move in a process of its own, until a person is to act
        (the recorded seats only when ``recorded``: after an undo or a redo they wait)."""

        while not self.interrupted:
            bot = self._bot_to_play(recorded)
            if bot is None:
                break
            spec, argv = bot
            code, err = await self._child(argv, f"{self.state.player} ({spec})")
            if self.interrupted:
                return
            self._reload()
            if code != 0:
                why = err.strip().splitlines()[-1:] or [f"exit {code}"]
                self._say(f"the bot could not play on; the game waits for you: "
                          f"{why[0].removeprefix('meeple: error: ')}", True)
                break
        self.app.invalidate()

    def _bot_to_play(self, recorded: bool) -> tuple[str, list[str]] | None:
        """The bot to play now, if one is (a recorded seat only when ``recorded``), and the
        command that lets it play one turn."""
        from meeple.engine import awaiting

        state = self.state
        seats = _recorded(state)
        who = state.player
        if awaiting(state) not in ("place", "meeple"):
            return None
        if who in self.bots:
            return self.bots[who], ["autoplay", self.path, "--bot", self.bots[who], "--turns",
                                    "1", "--move-time", str(self.move_time)]
        if recorded and who in seats and not set(seats) >= set(state.players):
            return seats[who], ["continue", self.path]
        return None

    async def _child(self, argv: list[str], who: str) -> tuple[int, str]:
        """Run ``meeple ARGV`` in a process of its own while the screen says ``who`` is
        thinking; its exit code and what it said on stderr. Ctrl-C meanwhile is passed on
        to it, and the screen closes once it has ended."""
        self.busy, self.busy_since, self.thinking = who, time.monotonic(), True
        ticking = self.app.create_background_task(self._tick())
        try:
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "meeple.cli.app", *argv, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            self.child = child
            if self.interrupted:
                child.send_signal(signal.SIGINT)
            _, err = await child.communicate()
        finally:
            self.child, self.busy, self.thinking = None, None, False
            ticking.cancel()
        if self.interrupted:
            self.app.exit()
        return child.returncode or 0, err.decode(errors="replace")

    async def _tick(self) -> None:
        while True:
            self.app.invalidate()
            await asyncio.sleep(0.25)

    def _hint(self) -> None:
        """What the default bot would play now, and the points it scores at once, said when
        found (the search runs beside the screen, which stays live)."""
        from meeple.engine import awaiting

        if awaiting(self.state) not in ("place", "meeple"):
            self._say("no hint now: the game does not wait for a placement or a figure", True)
            return
        from meeple.cli.screen.hints import hint_beside
        from meeple.cli.session import DEFAULT_OPPONENT

        state = self.state
        self.busy, self.busy_since = f"the hint ({DEFAULT_OPPONENT})", time.monotonic()
        ticking = self.app.create_background_task(self._tick())

        def done(text: str, error: bool) -> None:
            ticking.cancel()
            self.busy = None
            if state is self.state:
                self._say(text, error)
            self.app.invalidate()

        hint_beside(state, DEFAULT_OPPONENT, done)

    # -- the end --------------------------------------------------------------------------

    def _interrupt(self) -> None:
        """Ctrl-C: the session ends; a bot seat's process is stopped first (the moves before
        it are kept), and the screen closes when it has ended (``_child``)."""
        self.interrupted = True
        if not self.thinking:
            self.app.exit()
            return
        self.busy = f"{self.busy or 'the bot'}, stopped:"
        child = self.child
        if child is not None and child.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGINT)

    def _leave(self) -> None:
        if self.thinking:
            self._interrupt()
        else:
            self.app.exit()

    def _begin(self, first) -> None:
        self.app.create_background_task(first)

    def play(self) -> bool:
        """Run the screen until the person leaves; whether Ctrl-C ended it."""

        async def first() -> None:
            self._start_bots(recorded=False)
            if self.state.phase == "over":
                self._end()

        self.app.pre_run_callables.append(lambda: self._begin(first()))
        self.app.run()
        return self.interrupted


def _recorded(state) -> dict[str, str]:
    from meeple.cli.views import seated_bots

    return seated_bots(state)


def _next_line(state) -> str:
    from meeple.cli.report import next_line

    return next_line(state)


def play_screen(path: str, bots: dict[str, str], move_time: float,
                run: Run, typing: Typing) -> bool:
    """``meeple play`` at a terminal (see the module); whether Ctrl-C ended it."""
    return Screen(path, bots, move_time, run, typing).play()
