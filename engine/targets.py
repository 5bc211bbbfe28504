"""Meeple targets: one type, parsed and printed here only (DESIGN.md).

The kinds are the edition's (``Edition.vocabulary``). For example, in the bundled editions:
``route:E``, ``asteroid:N``, ``planet`` (the placed tile's) and ``planet@X,Y`` (a
neighbouring one, ``Edition.attack``); ``road:E``, ``city:N``, ``cloister``, ``field:Nw``
(a field by an edge half it touches: ``Nw Ne En Es Se Sw Ws Wn``) and ``field:inner`` (a
field touching no edge).

Edges and halves are named as the tile lies after rotation. A feature reaching
several edges may be named by any of them; its canonical name uses the first
(N, E, S, W; for fields ``Nw`` clockwise) it reaches. Case does not matter.
Logs hold the canonical text (``str(target)``); spots (``Spot.feature``) hold the
text without a cell.
"""

from __future__ import annotations

import re

import msgspec

from meeple.engine.edition import Edition
from meeple.engine.errors import InvalidCommand

_TARGET = re.compile(
    r"^(?P<kind>[A-Za-z]+)(?::(?P<where>[A-Za-z]+))?(?:@(?P<x>-?\d+),(?P<y>-?\d+))?$"
)
#: what may follow a kind's colon: an edge, an edge half (clockwise from N's west half) or
#: ``inner`` (a field touching no edge)
_PLACES = frozenset(("N", "E", "S", "W", "Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn", "inner"))


class Target(msgspec.Struct, frozen=True):
    """Where a meeple goes: a feature ``kind``, the edge or edge half it is named by
    (``where``, None for a centre feature), and for an attack the cell of the tile it is on
    (``cell``, ``Edition.attack``).

    >>> from meeple.engine.editions import EDITIONS
    >>> Target.parse("route:e", EDITIONS["star-wars"])
    Target(kind='route', where='E', cell=None)
    >>> str(Target.parse("planet@-1,2", EDITIONS["star-wars"]))
    'planet@-1,2'
    >>> Target.parse("FIELD:nW", EDITIONS["classic"]).feature
    'field:Nw'
    """

    kind: str
    where: str | None = None
    cell: tuple[int, int] | None = None

    @classmethod
    def parse(cls, text: str, edition: Edition) -> Target:
        """Read a target as typed, in any case.

        :raises InvalidCommand: for what cannot be a target (with the edition's syntax).
        """
        match = _TARGET.match(text.strip())
        if not match or match.group("x") is not None and match.group("where"):
            raise InvalidCommand(f"cannot read the meeple target {text!r}",
                                 rule=edition.rule("target"), legal=edition.target_syntax)
        where = match.group("where")
        if where is not None:
            if len(where) == 1:
                where = where.upper()
            elif len(where) == 2:
                where = where[0].upper() + where[1].lower()
            else:
                where = where.lower()
        cell = None if match.group("x") is None else (int(match.group("x")), int(match.group("y")))
        return cls(match.group("kind").lower(), where, cell)

    @classmethod
    def of(cls, text: str) -> Target:
        """A target from a log or a spot, already canonical (``route:E``, ``planet@1,2``);
        text that is no target gives a target of that kind with nothing else."""
        kind, _, rest = text.partition("@")
        cell = None
        if rest:
            x, _, y = rest.partition(",")
            try:
                cell = (int(x), int(y))
            except ValueError:
                cell = None
        kind, _, where = kind.partition(":")
        return cls(kind, where or None, cell)

    @property
    def feature(self) -> str:
        """The feature's name on its tile, without the cell: ``route:E``, ``planet``."""
        return self.kind if self.where is None else f"{self.kind}:{self.where}"

    def __str__(self) -> str:
        if self.cell is None:
            return self.feature
        return f"{self.feature}@{self.cell[0]},{self.cell[1]}"

    def edge_words(self) -> str:
        """How the edge part reads in a sentence: ``on its E edge``, ``at edge half Nw``."""
        if self.where is None:
            return ""
        if self.where in ("N", "E", "S", "W"):
            return f" on its {self.where} edge"
        if self.where == "inner":
            return " touching no edge"
        if self.where not in _PLACES:
            return (f" at {self.where!r}, which is no edge (N E S W), edge half (Nw Ne En Es Se "
                    "Sw Ws Wn) or inner")
        return f" at edge half {self.where}"
