"""Editions and expansions as objects: what differs between the games lives here, once.

An ``Edition`` holds the data of one game (colours, factions, figures and reserve,
the feature vocabulary of its tiles, player counts, rule ids, target syntax, its
bundled tile set) and the few rules that differ: how a contested realm is settled
(a dice battle or a majority) and how realms score. Shared code asks the edition;
it never asks which edition it is. A new edition is one module with a subclass,
registered in ``meeple.engine.editions``, plus a tile set file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

import msgspec

if TYPE_CHECKING:
    from meeple.engine.realms import Realm


class Vocabulary(msgspec.Struct, frozen=True):
    """The words of one edition's tiles: edge kinds and the kind that plays each role."""

    edges: tuple[str, ...]
    path: str
    area: str
    centre: str
    field: str | None
    rule: str  # the rule id that defines the tile set

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(k for k in (self.path, self.area, self.centre, self.field) if k)


class Figure(msgspec.Struct, frozen=True):
    """A kind of playing piece: its name in commands and logs, how many each player has, and
    how much it weighs in a contested realm (SW-5.2: a large meeple rolls two dice)."""

    name: str
    count: int
    strength: int = 1


class Edition:
    """One game's rules data and the hooks where its rules differ (python-chess variants)."""

    #: the name in logs and on the command line
    name: ClassVar[str]
    title: ClassVar[str]
    #: the colours of the box, in the order the rulebook lists them
    colours: ClassVar[tuple[str, ...]]
    #: faction of each colour (empty where the game has none)
    factions: ClassVar[dict[str, str]] = {}
    #: the kinds of figure each player has, the everyday one first (SW-1.6, CL-2)
    figures: ClassVar[tuple[Figure, ...]]
    #: what a figure is called
    figure: ClassVar[str]
    #: what the symbols on its tiles that add points are called (faction symbols, pennants)
    symbols: ClassVar[str] = "symbols"
    players: ClassVar[tuple[int, int]] = (2, 5)
    vocabulary: ClassVar[Vocabulary]
    #: the bundled tile set's name
    tileset: ClassVar[str]
    #: how a realm held by several sides is settled
    contest: ClassVar[Literal["battle", "majority"]]
    #: the rule id of each shared rule, by role (see ``rule``)
    rules: ClassVar[dict[str, str]]
    #: how meeple targets are written, for error messages
    target_syntax: ClassVar[str]
    #: the team variant's rule id, or None where the game has none
    team_rule: ClassVar[str | None] = None
    #: what may become of a tile with no legal placement, the default first: ``discard``, and
    #: ``reshuffle`` where the rules give it as an option (SW-3.2; CL-3 only removes it)
    unplaceable: ClassVar[tuple[str, ...]] = ("discard",)
    #: the centre feature a meeple may attack from a tile around it (``planet@X,Y``), if any
    attack: ClassVar[str | None] = None
    #: what a figure is called on each kind of feature (the classic thief, knight, ...)
    roles: ClassVar[dict[str, str]] = {}

    def rule(self, role: str) -> str:
        """The rule id of a shared rule in this edition: ``players``, ``place``, ``unplaceable``,
        ``meeple``, ``target``, ``reserve``, ``tiles``, ``start``, ``chance``, ``complete``,
        ``final``, ``end``, ``winners``."""
        return self.rules[role]

    def figure_named(self, name: str) -> Figure | None:
        """The figure called ``name`` in this edition, or None."""
        for figure in self.figures:
            if figure.name == name:
                return figure
        return None

    def reserve(self) -> dict[str, int]:
        """A player's figures at the start, by name (SW-1.6, CL-2)."""
        return {figure.name: figure.count for figure in self.figures}

    def completed_points(self, realm: Realm) -> tuple[int, int, int]:
        """(points, tiles, symbols) for a completed realm."""
        raise NotImplementedError

    def final_points(self, realm: Realm, neighbours: int) -> tuple[int, int, int]:
        """(points, tiles, symbols) for an incomplete realm at the end; ``neighbours`` is the
        number of tiles around a centre feature (planet, cloister)."""
        raise NotImplementedError

    def scorers(self, realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
        """Who scores a realm, in seating order."""
        raise NotImplementedError

    def terms(self, reason: str, kind: str, tiles: int, symbols: int, dice: int,
              cities: int) -> tuple[Term, ...]:
        """What a scoring's points are made of, from what its event counted: the terms whose
        products add up to its points, as the edition's scoring rules make them."""
        raise NotImplementedError


class Term(msgspec.Struct, frozen=True):
    """One term of a scoring: ``count`` things worth ``per`` points each."""

    count: int
    per: int
    noun: str
    nouns: str

    def __str__(self) -> str:
        return f"{self.count} {self.noun if self.count == 1 else self.nouns} x {self.per}"


def formula(terms: tuple[Term, ...]) -> str:
    """A scoring's terms as arithmetic a person can check: ``5 tiles x 2 + 1 pennant x 2 = 12``."""
    return " + ".join(map(str, terms)) + f" = {sum(t.count * t.per for t in terms)}"

    def __repr__(self) -> str:
        return f"<edition {self.name}>"


class Expansion:
    """Tiles (and a rule) added to an edition's game, e.g. La Fiesta."""

    name: ClassVar[str]
    title: ClassVar[str]
    edition: ClassVar[str]
    #: the bundled file of its tiles
    tileset: ClassVar[str]
    rule: ClassVar[str]

    def __repr__(self) -> str:
        return f"<expansion {self.name}>"


def sides_present(realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
    """The sides holding meeples in a realm, in seating order (SW-5.1, SW-8.2, CL-5)."""
    present = set()
    for colour, _, _ in realm.meeples:  # (a loop: a comprehension is a call of its own)
        present.add(side_of[colour])
    if len(present) < 2:
        return list(present)
    return [side for side in sides if side in present]
