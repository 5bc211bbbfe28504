"""Bots in any language: ``--bot cmd:PATH`` runs PATH and talks to it in JSON lines, in bot
protocol version 1 or 2 (``docs/bot-protocol.md``, the messages in ``meeple.cli.bot_messages``).

- meeple starts PATH (found as ``meeple.cli.program_spec`` says; a ``.py`` file with this
  Python) once per game and seat in ``arena`` (in ``autoplay`` and ``simulate`` one process
  plays every seat: follow ``state.player``; ``play`` starts it for each of its turns, each an
  ``autoplay --turns 1``), and first sends ``hello``, with the
  versions it speaks and the options given.
- At each of the bot's decisions meeple sends ``move``: the public state, the tiles left, the
  legal moves and the clock. The bot answers ``{"move": INDEX}``. A version 2 bot's first
  line is its own ``hello`` (its version is learnt from it, without waiting); it may write
  ``info`` lines before each answer, gets an ``error`` and one more try for an answer that
  cannot be taken, and ``over`` with the result at the end of a game.
- At the end meeple closes the bot's input; the bot should exit within ``EXIT_GRACE``.

Nothing hidden is sent: not the seed, not the order of the pile. A bot that exits, answers
after the time limit, answers something that is not a move of the list (a version 2 bot:
twice), or writes a line over ``MAX_ANSWER`` bytes is stopped, and the reason is reported
(``BotFailure``).
"""

from __future__ import annotations

import collections
import json
import math
import os
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import msgspec

from meeple.cli.bot_messages import VERSIONS, BotHello, Info, kept
from meeple.cli.bot_processes import environment, stop_group, watch
from meeple.cli.program_spec import ProgramError, program_of
from meeple.engine import (
    Command,
    GameState,
    PlaceMeeple,
    PlaceTile,
    SkipMeeple,
    TakeBack,
    export,
    move_options,
)
from meeple.events.text import escaped

PROTOCOL = 1
#: the longest answer line read from a bot, in bytes
MAX_ANSWER = 1 << 16
#: seconds a bot may take for one move unless told otherwise
DEFAULT_MOVE_TIME = 10.0
#: ``info`` lines of one move passed on; more are read and dropped
MAX_INFO = 1000
#: seconds a bot is given to exit after its input is closed
EXIT_GRACE = 2.0
#: bytes of a bot's standard error kept, to quote its last words
ERROR_TAIL = 4096


class BotFailure(Exception):
    """An external bot that crashed, answered late or answered something illegal."""

    def __init__(self, spec: str, reason: str) -> None:
        super().__init__(f"bot {spec} {reason}")
        self.spec = spec
        self.reason = reason


def command_line(path: str) -> list[str]:
    """How PATH is run: a ``.py`` file with this Python, anything else directly."""
    return [sys.executable, path] if path.endswith(".py") else [path]


def encode_move(command: Command) -> dict:
    """A move as the protocol writes it."""
    match command:
        case PlaceTile():
            return {"place": [command.x, command.y, command.rotation]}
        case PlaceMeeple():
            return {"meeple": command.target, "figure": command.figure}
        case SkipMeeple():
            return {"skip": True}
        case TakeBack():
            return {"take_back": [command.x, command.y, command.target]}
    raise ValueError(f"{command!r} is not a move a bot chooses")


class ExternalBot:
    """A ``cmd:PATH`` bot: callable on a state like the engine's bots. Start it per game
    (``with``); it raises ``BotFailure`` when the program fails. ``on_info`` is given each
    ``info`` of a version 2 bot, as ``bot_messages.kept`` bounds it."""

    def __init__(self, spec: str, move_time: float = DEFAULT_MOVE_TIME,
                 on_info: Callable[[Info], None] | None = None) -> None:
        self.spec = spec
        self.move_time = move_time
        if not math.isfinite(move_time) or move_time <= 0:
            raise ValueError(f"a move time must be a positive number of seconds, not {move_time}")
        self.process: subprocess.Popen[bytes] | None = None
        #: the last ``ERROR_TAIL`` bytes the bot wrote to its standard error
        self.errors: collections.deque[bytes] = collections.deque()
        self.seconds = 0.0  # wall-clock seconds spent waiting for answers
        self.on_info = on_info
        #: the protocol version the bot answered in (None before its first line), its hello
        self.version: int | None = None
        self.hello: BotHello | None = None
        self.options: dict[str, str] = {}
        self._buffer = b""
        #: a reason to refuse the bot's next answer, however legal, to test its retry
        self.refuse_next: str | None = None
        #: whether the bot exited by itself within ``EXIT_GRACE`` when closed
        self.exited_in_grace: bool | None = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, state: GameState) -> subprocess.Popen[bytes]:
        try:
            path, self.options = program_of(self.spec)
        except ProgramError as exc:
            raise BotFailure(self.spec, f"could not be started: {exc}") from None
        # a session of its own and a mark, so that closing stops whatever the bot started too
        token, env = environment()
        try:
            self.process = subprocess.Popen(
                command_line(path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, close_fds=True, start_new_session=True, env=env)
        except OSError as exc:
            raise BotFailure(self.spec, f"could not be started: {exc.strerror or exc}") from None
        watch(self.process.pid, token)
        assert self.process.stdin is not None and self.process.stderr is not None
        os.set_blocking(self.process.stdin.fileno(), False)
        threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True).start()
        setup = state.setup
        self._send({"type": "hello", "protocol": PROTOCOL, "protocols": list(VERSIONS),
                    "edition": setup.edition, "colour": state.player,
                    "players": [{"colour": p.colour, "name": p.name} for p in setup.players],
                    "tileset": msgspec.to_builtins(setup.tileset.definition),
                    "options": self.options})
        return self.process

    def __call__(self, state: GameState) -> Command:
        if self.process is None:
            self._start(state)
        moves = move_options(state)
        self._send({"type": "move", "protocol": self.version or PROTOCOL,
                    "state": export(state),
                    "remaining": {t: n for t, n in state.remaining.items() if n},
                    "moves": [encode_move(m) for m in moves],
                    "clock": {"move_ms": int(self.move_time * 1000), "left_ms": None}})
        begin = time.monotonic()
        deadline, retried, infos = begin + self.move_time, False, 0
        try:
            while True:
                line = self._line(deadline)
                message = _json(line)
                if self.version is None:
                    self._first_line(message, line)
                    if self.version == 2:
                        continue
                if self.version == 2 and isinstance(message, dict) \
                        and message.get("type") == "info":
                    infos += 1
                    if infos <= MAX_INFO:
                        self._info(line)
                    continue
                index, reason = _chosen(message, line, len(moves))
                if reason is None and self.refuse_next is not None:
                    reason, self.refuse_next = self.refuse_next, None
                if reason is None:
                    if self._buffer.strip():
                        raise BotFailure(self.spec, "answered more than one line to one move")
                    return moves[index]
                if self.version == 1 or retried:
                    raise BotFailure(self.spec, reason)
                # version 2: say why, and take one more answer
                retried, deadline = True, time.monotonic() + self.move_time
                self._send({"type": "error", "reason": reason, "legal": [0, len(moves) - 1]})
        finally:
            self.seconds += time.monotonic() - begin

    def _first_line(self, message: object, line: bytes) -> None:
        """Learn the bot's version from its first line: a ``hello`` (version 2), or an answer
        (version 1, which takes no options)."""
        if not (isinstance(message, dict) and message.get("type") == "hello"):
            self.version = 1
            if self.options:
                raise BotFailure(self.spec, "takes no options: it answered as a version 1 bot "
                                 "(no hello)")
            return
        try:
            hello = msgspec.json.decode(line, type=BotHello)
        except msgspec.DecodeError as exc:
            raise BotFailure(self.spec, "answered a hello that is not protocol 2's: "
                             + escaped(str(exc))[:200]) from None
        self.version, self.hello = 2, hello
        declared = {option.name: option for option in hello.options}
        for name, value in self.options.items():
            if name not in declared:
                raise BotFailure(self.spec, f"takes no option {escaped(name)!r} (it takes: "
                                 + (", ".join(escaped(n) for n in declared) or "none") + ")")
            if not _fits(value, declared[name].type):
                raise BotFailure(self.spec, f"option {name}={escaped(value)!r} is not of its "
                                 f"type, {declared[name].type}")

    def _info(self, line: bytes) -> None:
        """Pass an ``info`` line on; a malformed one is passed over."""
        if self.on_info is None:
            return
        try:
            info = msgspec.json.decode(line, type=Info)
        except msgspec.DecodeError:
            return
        self.on_info(kept(info))

    def finish(self, state: GameState) -> None:
        """Tell a version 2 bot the result of a game that has ended (``over``)."""
        if self.process is None or self.version != 2 or state.phase != "over":
            return
        try:  # as the game recorded them: by side (a colour, or a team)
            self._send({"type": "over", "scores": dict(state.scores),
                        "winners": list(state.winners or ())})
        except BotFailure:
            pass  # gone already: closing stops it

    def _drain(self, stream) -> None:
        """Keep the tail of the bot's standard error, however much it writes."""
        kept = 0
        while chunk := stream.read1(4096):
            self.errors.append(chunk)
            kept += len(chunk)
            while kept > ERROR_TAIL and len(self.errors) > 1:
                kept -= len(self.errors.popleft())

    def _send(self, message: dict) -> None:
        """Write one line to the bot within the move time: a bot that does not read its
        input fills the pipe, and is then stopped rather than waited for."""
        assert self.process is not None and self.process.stdin is not None
        fd = self.process.stdin.fileno()
        data = memoryview(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        deadline = time.monotonic() + self.move_time
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure(self.spec, f"did not read its input within {self.move_time:g} s")
            _, ready, _ = select.select([], [fd], [], min(left, 0.5))
            if not ready:
                if self.process.poll() is not None:
                    raise BotFailure(self.spec, self._exit_words())
                continue
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except OSError:
                raise BotFailure(self.spec, self._exit_words()) from None

    def _line(self, deadline: float) -> bytes:
        """The bot's next line, by ``deadline``, or ``BotFailure``."""
        assert self.process is not None and self.process.stdout is not None
        out = self.process.stdout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure(self.spec, f"gave no answer within {self.move_time:g} s")
            ready, _, _ = select.select([out], [], [], min(left, 0.5))
            if not ready:
                if self.process.poll() is not None:  # gone, though a child holds the pipe
                    raise BotFailure(self.spec, self._exit_words())
                continue
            chunk = os.read(out.fileno(), 4096)
            if not chunk:
                raise BotFailure(self.spec, self._exit_words())
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER and b"\n" not in self._buffer:
                raise BotFailure(self.spec, f"wrote a line over {MAX_ANSWER} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _exit_words(self) -> str:
        assert self.process is not None
        try:
            code = self.process.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output without answering"
        said = ""
        time.sleep(0.05)  # the last words, still in the pipe
        tail = b"".join(self.errors)[-400:].decode("utf-8", "replace").strip().splitlines()
        if tail:
            said = f" (its last words: {escaped(tail[-1])[:200]})"
        return f"exited with code {code} without answering{said}"

    def close(self) -> None:
        """Close the bot's input, give it a moment to exit, then stop it and whatever it
        started (its process group)."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            try:
                process.wait(EXIT_GRACE)
                self.exited_in_grace = True
            except subprocess.TimeoutExpired:
                self.exited_in_grace = False
        finally:  # (Ctrl-C during the grace stops the bot all the same)
            stop_group(process.pid, exited=process.returncode is not None)
            process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()


def _json(line: bytes) -> object:
    """A line as JSON, or None: whatever the text (nesting too), it is then no message."""
    try:
        return json.loads(line)
    except Exception:  # noqa: BLE001
        return None


def _chosen(message: object, line: bytes, count: int) -> tuple[int, str | None]:
    """(the index answered, None), or (-1, why the line is no answer to ``count`` moves)."""
    if not isinstance(message, dict) or "move" not in message:
        return -1, ("answered a line that is not {\"move\": INDEX}: "
                    + escaped(line[:80].decode("utf-8", "replace")))
    index = message["move"]
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
        shown = escaped(json.dumps(index) if not isinstance(index, int) else str(index))
        return -1, (f"answered move {shown[:40]}, which is not one of the {count} moves "
                    f"offered (0 to {count - 1})")
    return index, None


def _fits(value: str, kind: str) -> bool:
    """Whether an option's value as written reads as its declared type."""
    if kind == "int":
        return re.fullmatch(r"-?[0-9]{1,18}", value, re.ASCII) is not None
    if kind == "float":
        return re.fullmatch(r"-?[0-9]{1,18}(\.[0-9]{1,18})?", value, re.ASCII) is not None
    if kind == "bool":
        return value in ("true", "false")
    return True
