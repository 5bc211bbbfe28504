"""What a ``cmd:`` bot spec names: the program to run, found as a shell finds it, and the
options to give it (bot protocol version 2, ``docs/bot-protocol.md``).

``cmd:PATH`` or ``cmd:PATH:NAME=VALUE:NAME=VALUE...``. A PATH with a slash is a file (relative
to the current folder, or absolute); a bare NAME is looked up on ``PATH``, as a shell does, so
a program in the current folder is ``cmd:./NAME``. Trailing ``:NAME=VALUE`` parts are options
(NAME: a letter, then letters, digits, ``_`` or ``-``; VALUE: no ``:`` or ``,``); any other
colon belongs to the path. A program spec is never recorded in a log.
"""

from __future__ import annotations

import os
import re
import shutil

from meeple.events.text import control_char, escaped

#: an option given on the command line
_OPTION = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9_-]{0,39})=(?P<value>[^:,]{0,200})", re.ASCII)
#: the most options one spec may give
MAX_OPTIONS = 32


class ProgramError(ValueError):
    """A ``cmd:`` spec that names no program this machine can run, with the reason."""


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """(the program as written, {option: value}) of a ``cmd:`` spec.

    >>> split_spec("cmd:./bot.js:depth=3:style=calm")
    ('./bot.js', {'depth': '3', 'style': 'calm'})
    >>> split_spec("cmd:/opt/a:b/bot")
    ('/opt/a:b/bot', {})
    """
    parts = spec.removeprefix("cmd:").split(":")
    options: dict[str, str] = {}
    while len(parts) > 1 and (found := _OPTION.fullmatch(parts[-1])) is not None:
        options.setdefault(found.group("name"), found.group("value"))
        parts.pop()
    if len(options) > MAX_OPTIONS:
        raise ProgramError(f"more than {MAX_OPTIONS} options")
    return ":".join(parts), dict(reversed(options.items()))


def find_program(written: str) -> str:
    """The file a program named ``written`` is, as a shell finds it: with a slash, that path;
    a bare name, on ``PATH`` (a ``.py`` file is run with this Python, so it need only be
    readable).

    :raises ProgramError: no such program, with what may have been meant.
    """
    if not written:
        raise ProgramError("names no program (cmd:PATH)")
    if control_char(written) is not None:
        raise ProgramError("the path holds a control character")
    if "/" not in written:
        found = shutil.which(written)
        if found is not None:
            return found
        if os.path.isfile(written):
            raise ProgramError(f"{escaped(written)!r} is not on PATH; did you mean "
                               f"cmd:./{escaped(written)}?")
        raise ProgramError(f"no program {escaped(written)!r} on PATH (a file in this folder is "
                           "cmd:./NAME)")
    if not os.path.isfile(written):
        raise ProgramError(f"no program file {escaped(written)!r}")
    runnable = os.R_OK if written.endswith(".py") else os.X_OK
    if not os.access(written, runnable):
        raise ProgramError("the file cannot be "
                           + ("read" if runnable == os.R_OK else "run (it is not executable)"))
    return written


def program_of(spec: str) -> tuple[str, dict[str, str]]:
    """(the file to run, {option: value}) of a ``cmd:`` spec.

    :raises ProgramError: with the reason.
    """
    written, options = split_spec(spec)
    return find_program(written), options
