"""Meeple targets as written on the command line (DESIGN.md).

Star Wars: ``route:E``, ``asteroid:N``, ``planet`` (the placed tile's planet) and
``planet@X,Y`` (a neighbouring planet, SW-4.3). Classic: ``road:E``, ``city:N``,
``cloister``, ``field:Nw`` (a field by an edge half it touches: ``Nw Ne En Es Se Sw
Ws Wn``) and ``field:inner`` (a field touching no edge, CL-4).

Edges and halves are named as the tile lies after rotation. A feature reaching
several edges may be named by any of them; its canonical name uses the first
(N, E, S, W; for fields ``Nw`` clockwise) it reaches. Case does not matter.
"""

from __future__ import annotations

import re

from meeple.engine.edition import Edition
from meeple.engine.errors import InvalidCommand

_TARGET = re.compile(
    r"^(?P<kind>[A-Za-z]+)(?::(?P<where>[A-Za-z]+))?(?:@(?P<x>-?\d+),(?P<y>-?\d+))?$"
)

def parse_target(text: str, edition: Edition) -> tuple[str, tuple[int, int] | None]:
    """A target's canonical spelling and, for ``planet@X,Y``, the planet's cell.

    >>> from meeple.engine.editions import EDITIONS
    >>> parse_target("route:e", EDITIONS["star-wars"])
    ('route:E', None)
    >>> parse_target("planet@-1,2", EDITIONS["star-wars"])
    ('planet', (-1, 2))
    >>> parse_target("FIELD:nW", EDITIONS["classic"])
    ('field:Nw', None)

    :raises InvalidCommand: for what cannot be a target.
    """
    match = _TARGET.match(text.strip())
    if not match or match.group("x") is not None and match.group("where"):
        raise InvalidCommand(f"cannot read the meeple target {text!r}",
                             rule=edition.rule("target"), legal=edition.target_syntax)
    kind = match.group("kind").lower()
    where = match.group("where")
    cell = None if match.group("x") is None else (int(match.group("x")), int(match.group("y")))
    if where is None:
        return kind, cell
    if len(where) == 1:
        where = where.upper()
    elif len(where) == 2:
        where = where[0].upper() + where[1].lower()
    else:
        where = where.lower()
    return f"{kind}:{where}", cell
