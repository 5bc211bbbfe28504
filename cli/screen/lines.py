"""What a line typed at ``play``'s screen means: the line-by-line session's reading of a
line (``meeple.cli.interactive``), handed to the screen as a value."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from prompt_toolkit.completion import Completer

#: runs one command line in this process and gives its exit code (``meeple.cli.app``)
Run = Callable[[list[str]], int]


class Typing(NamedTuple):
    """What a typed line means, as the line-by-line session reads it
    (``meeple.cli.interactive``): the screen reads lines the same way."""

    #: the command line a typed line stands for (None: an empty line); ValueError if unread
    argv: Callable[[str], list[str] | None]
    #: Tab completion of a line
    completer: Completer
    #: the verbs a line may start with, and those that only show something
    verbs: tuple[str, ...]
    showing: tuple[str, ...]
    #: the commands, in one paragraph
    help: str
    #: a message in the words typed at the prompt (`moves`, not `meeple moves GAME`)
    words: Callable[[str], str]
    #: the longest line read as a command
    max_line: int
