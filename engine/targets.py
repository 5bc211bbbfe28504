"""Meeple targets as written on the command line (DESIGN.md): ``route:E``, ``asteroid:N``,
``planet`` (the placed tile's planet) and ``planet@X,Y`` (a neighbouring planet, SW-4.3).

Edge letters are as the tile lies after rotation. A feature reaching several
edges may be named by any of them; its canonical name uses the first of
N, E, S, W it reaches.
"""

from __future__ import annotations

import re

from meeple.engine.errors import InvalidCommand
from meeple.engine.geometry import SIDE_INDEX

_TARGET = re.compile(
    r"^(?:(?P<kind>route|asteroid):(?P<side>[NESWnesw])|(?P<planet>planet)"
    r"(?:@(?P<x>-?\d+),(?P<y>-?\d+))?)$"
)

SYNTAX = "targets are route:E, asteroid:N (edge N, E, S or W as the tile lies), planet, planet@X,Y"


def parse_target(text: str) -> tuple[str, int | None, tuple[int, int] | None]:
    """Split a target into (kind, side index or None, planet cell or None).

    >>> parse_target("route:e")
    ('route', 1, None)
    >>> parse_target("planet@-1,2")
    ('planet', None, (-1, 2))

    :raises InvalidCommand: for anything else.
    """
    match = _TARGET.match(text.strip())
    if not match:
        raise InvalidCommand(f"cannot read the meeple target {text!r}", rule="SW-4.1",
                             legal=SYNTAX)
    if match.group("planet"):
        if match.group("x") is None:
            return "planet", None, None
        return "planet", None, (int(match.group("x")), int(match.group("y")))
    return match.group("kind"), SIDE_INDEX[match.group("side").upper()], None
