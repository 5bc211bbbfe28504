"""Editions and expansions as objects: what differs between the games lives here, once.

An ``Edition`` holds the data of one game (colours, factions, figures and reserve,
the feature vocabulary of its tiles, player counts, rule ids, target syntax, its
bundled tile set) and the few rules that differ: how a contested realm is settled
(a dice battle or a majority) and how realms score. Shared code asks the edition;
it never asks which edition it is. A new edition is one module with a subclass,
registered in ``meeple.engine.editions``, plus a tile set file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import msgspec

if TYPE_CHECKING:
    from meeple.engine.realms import Realm
    from meeple.engine.state import GameState
    from meeple.events.model import Event


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
    how much it weighs in a contested realm (its ``strength``)."""

    name: str
    count: int
    strength: int = 1


class Look(msgspec.Struct, frozen=True, kw_only=True):
    """How an edition's games are drawn and told: data the pictures (``meeple.cli.pictures``)
    render, keyed by the edition's feature kinds, symbols and scoring reasons."""

    #: what a realm of each kind is called in sentences (``the road at ...``)
    realm_words: dict[str, str] = {}
    #: what realms of each kind are called, where not their ``realm_words`` with an s
    plurals: dict[str, str] = {}
    #: what each kind is called in a legend
    legend_words: dict[str, str] = {}
    #: why a scoring paid, by reason: a sentence with ``{realm}`` (``the road at ...``),
    #: ``{where}`` (without ``the``) and ``{formula}``; the pictures say ``realm`` and ``final``
    reasons: dict[str, str] = {}
    #: the score table's word for each reason (``completed``, ``battle lost``)
    reason_words: dict[str, str] = {}
    #: the score table's word for what a reason paid for, where not the realm's kind
    reason_nouns: dict[str, str] = {}
    #: text board: the character of each centre kind and of each symbol
    glyphs: dict[str, str] = {}
    #: text board: the terminal style of each kind and symbol
    styles: dict[str, str] = {}
    #: SVG: pieces of the document's definitions and of its style sheet, each with an order
    #: key (the pieces of every edition a document may show are sorted by key)
    svg_defs: tuple[tuple[int, str], ...] = ()
    svg_style: tuple[tuple[int, str], ...] = ()
    #: SVG: the ground of a tile, drawn first
    svg_ground: str = ('<rect width="100" height="100" fill="#6a9a3c" stroke="#4c7429" '
                       'stroke-width="0.8"/>')
    #: SVG: each kind's drawing on a tile: a path's and an area's with ``{d}`` for its
    #: outline, a centre's as a whole
    svg_kinds: dict[str, str] = {}
    #: SVG: the centre feature's name under it, with ``{name}``
    svg_name: str = ""
    #: SVG: a crossing of paths: its fill and ring colours
    svg_hub: tuple[str, str] = ("#8a7a5a", "#f4efe1")
    #: SVG: each symbol's name (its picture is the definition ``sym-NAME``)
    symbol_names: dict[str, str] = {}
    #: SVG: each kind's legend entry: an icon drawn about its origin, and its label
    svg_legend: dict[str, tuple[str, str]] = {}


def a_figure(edition: Edition) -> str:
    """The edition's word for a figure after its indefinite article: ``a meeple``,
    ``an agent``."""
    noun = edition.figure
    return ("an " if noun[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + noun


class EditionError(ValueError):
    """An edition that cannot be registered (``meeple.engine.register_edition``): it lacks
    what the rules ask of every edition, or names something a game log cannot hold (a colour,
    a figure, its own name)."""


#: the shared rules every edition gives a rule id (``Edition.rules``, ``Edition.rule``)
ROLES = ("players", "place", "draw", "unplaceable", "meeple", "target", "reserve", "tiles",
         "start", "chance", "attack", "dice", "resolve", "contest", "take-back", "complete",
         "final", "end", "winners")


class Edition:
    """One game's rules data and the hooks where its rules differ (python-chess variants)."""

    #: the name in logs and on the command line
    name: ClassVar[str]
    title: ClassVar[str]
    #: the colours of the box, in the order the rulebook lists them
    colours: ClassVar[tuple[str, ...]]
    #: faction of each colour (empty where the game has none)
    factions: ClassVar[dict[str, str]] = {}
    #: the kinds of figure each player has, the everyday one first
    figures: ClassVar[tuple[Figure, ...]]
    #: what a figure is called
    figure: ClassVar[str]
    #: what the symbols on its tiles that add points are called
    symbols: ClassVar[str] = "symbols"
    #: the symbols its tile set files may give a feature (``symbol``)
    tile_symbols: ClassVar[tuple[str, ...]] = ()
    players: ClassVar[tuple[int, int]] = (2, 5)
    vocabulary: ClassVar[Vocabulary]
    #: the bundled tile set's name
    tileset: ClassVar[str]
    #: the content hash of its bundled set, and of each bundled combination with an expansion,
    #: by the set's name: a set of that name with another hash shows as a modified copy
    tileset_sha256: ClassVar[dict[str, str]] = {}
    #: what to say under a picture of the bundled set, when it is a reconstruction
    tileset_note: ClassVar[str | None] = None
    #: the column of the score table each scoring reason other than ``realm`` and ``final``
    #: adds its points to (a contest's, a final scoring step's), by reason
    score_columns: ClassVar[dict[str, str]] = {}
    #: the rule id of each shared rule, by role (see ``rule``)
    rules: ClassVar[dict[str, str]]
    #: how meeple targets are written, for error messages
    target_syntax: ClassVar[str]
    #: the team variant's rule id, or None where the game has none
    team_rule: ClassVar[str | None] = None
    #: what may become of a tile with no legal placement, the default first: ``discard``, and
    #: ``reshuffle`` where the rules give it as an option
    unplaceable: ClassVar[tuple[str, ...]] = ("discard",)
    #: the centre feature a figure may attack from a tile around it (``KIND@X,Y``), if any
    attack: ClassVar[str | None] = None
    #: what the mark on a tile that lets a figure be taken back is called (``festival`` in a
    #: tile set file), for messages
    take_back_mark: ClassVar[str] = "take-back mark"
    #: what a figure is called on each kind of feature (e.g. a thief on a road)
    roles: ClassVar[dict[str, str]] = {}
    #: how its games are drawn and told
    look: ClassVar[Look] = Look()
    #: what a figure in reserve is worth to the bots' evaluation (``meeple.engine.evaluation``),
    #: in points a unit of strength at the start of the game; it falls with the tiles left
    reserve_worth: ClassVar[float] = 2.0
    #: whether the edition has a contest of its own (``contest`` overridden), set for each
    #: edition class: the rules ask the base's, which settles nothing, no questions
    has_contest: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.has_contest = cls.contest is not Edition.contest

    def __repr__(self) -> str:
        return f"<edition {self.name}>"

    def tileset_file(self) -> bytes:
        """The bytes of the edition's own tile set file (``tileset``): by default the one
        shipped in ``meeple.engine``'s data; an edition from another package reads its own."""
        from meeple.events.tileset import bundled_bytes

        return bundled_bytes(self.tileset)

    def rulebook(self) -> str | None:
        """The text of the edition's rules for ``meeple rules``, by the ids its messages cite:
        TOML with ``group`` (a heading), ``order``, ``intro`` and ``[[rule]]`` tables of
        ``id``, ``title`` and ``text``, as meeple's own rulebook files; None for none (the
        bundled editions' texts ship with meeple)."""
        return None

    def rule(self, role: str) -> str:
        """The rule id of a shared rule in this edition: one of ``ROLES`` (and ``symbols``,
        where its tiles carry any)."""
        return self.rules[role]

    def figure_named(self, name: str) -> Figure | None:
        """The figure called ``name`` in this edition, or None."""
        for figure in self.figures:
            if figure.name == name:
                return figure
        return None

    def reserve(self) -> dict[str, int]:
        """A player's figures at the start, by name."""
        return {figure.name: figure.count for figure in self.figures}

    def completed_points(self, realm: Realm) -> tuple[int, int, int]:
        """(points, tiles, symbols) for a completed realm."""
        raise NotImplementedError

    def final_points(self, realm: Realm, neighbours: int) -> tuple[int, int, int]:
        """(points, tiles, symbols) for an incomplete realm at the end; ``neighbours`` is the
        number of tiles around a centre feature."""
        raise NotImplementedError

    def scorers(self, realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
        """Who scores a realm, in seating order."""
        raise NotImplementedError

    def terms(self, reason: str, kind: str, tiles: int, symbols: int, dice: int,
              cities: int) -> tuple[Term, ...]:
        """What a scoring's points are made of, from what its event counted: the terms whose
        products add up to its points, as the edition's scoring rules make them."""
        raise NotImplementedError

    @functools.cached_property
    def strengths(self) -> dict[str, int]:
        """Each figure's weight in a contested realm, by name."""
        return {figure.name: figure.strength for figure in self.figures}

    def contest(self, state: GameState, seq: int, realm: Realm) -> Event | None:
        """Before the realms a turn touched are scored: the event that starts settling who
        holds ``realm`` (``seq`` its number), or None where there is nothing to settle. Asked
        only of a realm that two figures or more hold. The base settles nothing: ``scorers``
        says who scores a realm several sides hold."""
        return None

    def contest_step(self, state: GameState, seq: int) -> Event | None:
        """The next event of the contest in progress (``state.battle``), or None while the
        players must act (enter dice)."""
        raise NotImplementedError(f"the {self.name} edition starts no contest")

    def would_score(self, holders: Mapping[str, int], side: str) -> bool:
        """Whether ``side`` would score a realm whose figures are ``holders`` (figures by
        side), chance aside: the base, when it holds the realm alone."""
        return len(holders) == 1 and side in holders

    def final_payment(self, state: GameState, realm: Realm, neighbours: int) -> Payment | None:
        """What the end of the game pays for an incomplete ``realm`` holding figures, or None
        for nothing; ``neighbours`` as in ``final_points``. The base: its ``final_points``,
        in the first stage."""
        points, tiles, symbols = self.final_points(realm, neighbours)
        return Payment(0, points, "final", tiles, symbols)

    def bot_figure(self, available: Sequence[str], pick: Callable[[int], int]) -> str:
        """The figure a random bot puts down, of ``available`` (the player's kinds left, in
        the order of ``figures``): ``pick(n)`` is a seeded number below n. The base takes
        the everyday one three times in four, else one of the others."""
        if len(available) == 1:
            return available[0]
        chosen = pick(4 * (len(available) - 1))
        return available[1 + chosen] if chosen < len(available) - 1 else available[0]


class Payment(msgspec.Struct, frozen=True):
    """What the end of the game pays for one realm: ``points`` and what they count. Stages
    are paid in order (within one, the first placed realm first)."""

    stage: int
    points: int
    reason: str
    tiles: int
    symbols: int = 0
    cities: int = 0


class Term(msgspec.Struct, frozen=True):
    """One term of a scoring: ``count`` things worth ``per`` points each."""

    count: int
    per: int
    noun: str
    nouns: str

    def __str__(self) -> str:
        return f"{self.count} {self.noun if self.count == 1 else self.nouns} x {self.per}"


def formula(terms: tuple[Term, ...]) -> str:
    """A scoring's terms as arithmetic a person can check: ``5 tiles x 2 + 1 symbol x 2 = 12``."""
    return " + ".join(map(str, terms)) + f" = {sum(t.count * t.per for t in terms)}"


class Expansion:
    """Tiles (and a rule) added to an edition's game, e.g. La Fiesta."""

    name: ClassVar[str]
    title: ClassVar[str]
    edition: ClassVar[str]
    #: the name of the file of its tiles (``tileset_file`` reads it)
    tileset: ClassVar[str]
    rule: ClassVar[str]

    def __repr__(self) -> str:
        return f"<expansion {self.name}>"

    def tileset_file(self) -> bytes:
        """The bytes of the expansion's tile set file (``tileset``): by default the one shipped
        in ``meeple.engine``'s data; an expansion from another package reads its own."""
        from meeple.events.tileset import bundled_bytes

        return bundled_bytes(self.tileset)


def sides_present(realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
    """The sides holding meeples in a realm, in seating order."""
    present = set()
    for colour, _, _ in realm.meeples:  # (a loop: a comprehension is a call of its own)
        present.add(side_of[colour])
    if len(present) < 2:
        return list(present)
    return [side for side in sides if side in present]
