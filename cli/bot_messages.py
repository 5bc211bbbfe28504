"""The messages of the bot protocol (``docs/bot-protocol.md``), as types: each one's JSON
Schema is written from these into ``docs/schemas/bot-*.json`` (``python -m
meeple.cli.bot_messages docs/schemas``; a test checks the files are up to date).

Version 1: ``hello`` and ``move`` from meeple, ``{"move": INDEX}`` from the bot. Version 2 adds
the bot's ``hello`` reply (name, author, version, options it takes), the options given on
the command line, the clock in every move request, ``info`` lines, ``error`` feedback with
one retry, and ``over`` with the result.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Literal

import msgspec

#: the protocol versions this meeple speaks
VERSIONS = (1, 2)
#: what an option's value may be, as a bot declares it
OptionType = Literal["int", "float", "bool", "string"]


class Hello(msgspec.Struct, kw_only=True):
    """meeple's first message to a bot, once a game: no answer in version 1; a version 2 bot
    answers with its ``BotHello`` before its first move."""

    type: Literal["hello"]
    protocol: Literal[1]  # the version every bot understands: 1
    protocols: list[int]  # every version meeple speaks (since version 2)
    edition: str
    colour: str
    players: list[dict[str, str]]
    tileset: dict[str, Any]
    options: dict[str, str] = {}  # the options given on the command line (version 2)


class Clock(msgspec.Struct, kw_only=True):
    """The time the bot has (version 2): ``move_ms`` for this answer; ``left_ms``, its time
    for the rest of the game, or null when only each move is timed."""

    move_ms: int
    left_ms: int | None = None


class MoveRequest(msgspec.Struct, kw_only=True):
    """A decision of the bot: ``moves`` lists every legal move; it answers ``Answer``."""

    type: Literal["move"]
    protocol: int
    state: dict[str, Any]
    remaining: dict[str, int]
    moves: list[dict[str, Any]]
    clock: Clock  # sent to every bot; a version 1 bot may ignore it


class Answer(msgspec.Struct, kw_only=True):
    """The bot's choice: the index of a move in ``moves``."""

    move: int


class Option(msgspec.Struct, kw_only=True):
    """An option a version 2 bot takes; meeple checks the values given against its type."""

    name: str
    type: OptionType
    default: int | float | bool | str | None = None


class BotHello(msgspec.Struct, kw_only=True):
    """A version 2 bot's reply to ``Hello``, its first line."""

    type: Literal["hello"]
    protocol: Literal[2]
    name: str
    author: str = ""
    version: str = ""
    options: list[Option] = []


class Info(msgspec.Struct, kw_only=True):
    """What a version 2 bot is thinking, any number of lines before its answer: shown by
    ``play`` (a dim line), logged by ``arena``; never an answer."""

    type: Literal["info"]
    text: str = ""
    score: float | None = None  # its evaluation, its own points ahead
    depth: int | None = None
    nodes: int | None = None
    line: list[int] = []  # the moves it expects, its own first


def kept(info: Info) -> Info:
    """An ``info`` as meeple keeps and passes it on: its text escaped (one line, no control
    characters) and cut to 300 characters, its line to its first 20 moves."""
    from meeple.events.text import escaped

    return Info(type="info", text=escaped(info.text)[:300], score=info.score, depth=info.depth,
                nodes=info.nodes, line=info.line[:20])


def said(info: Info) -> str:
    """An ``info`` in one line, as ``play`` shows it: ``score 3.5 depth 4 line 0 1 text``."""
    parts = [f"{key} {value}" for key, value in (("score", info.score), ("depth", info.depth),
                                                 ("nodes", info.nodes)) if value is not None]
    if info.line:
        parts.append("line " + " ".join(str(m) for m in info.line))
    if info.text:
        parts.append(info.text)
    return " ".join(parts)[:600]


class Error(msgspec.Struct, kw_only=True):
    """meeple's answer to a version 2 bot's answer it cannot take; the bot answers once more
    (a second bad answer stops it). ``legal``: the indexes it may answer, first and last."""

    type: Literal["error"]
    reason: str
    legal: list[int]


class Over(msgspec.Struct, kw_only=True):
    """The end of a game (version 2), with the result; then meeple closes the bot's input and
    gives it ``EXIT_GRACE`` seconds to exit."""

    type: Literal["over"]
    scores: dict[str, int]
    winners: list[str]


#: each message as its schema file calls it
MESSAGES: dict[str, type] = {"hello": Hello, "move": MoveRequest, "answer": Answer,
                             "bot-hello": BotHello, "info": Info, "error": Error, "over": Over}


def schemas() -> dict[str, str]:
    """{file name: JSON Schema text} of every message."""
    return {f"bot-{name}.json": json.dumps(msgspec.json.schema(kind), indent=2, sort_keys=True)
            + "\n" for name, kind in MESSAGES.items()}


if __name__ == "__main__":
    folder = sys.argv[1]
    for file, text in schemas().items():
        with open(os.path.join(folder, file), "w", encoding="utf-8") as out:
            out.write(text)
