"""The registry of editions and expansions, by the names logs and the command line use.

The bundled editions are known from the start. Another edition is one ``Edition`` subclass,
registered with one call (``register_edition``) or by an installed package's entry point in
the group ``meeple.editions`` (``NAME = package.module:EditionClass``), which is loaded only
when a name is asked for that is not known yet, so that start-up reads no package metadata.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, get_args

from meeple.engine.classic import Classic, LaFiesta
from meeple.engine.edition import (
    ROLES,
    Edition,
    EditionError,
    Expansion,
    Figure,
    Look,
    Vocabulary,
)
from meeple.engine.errors import InvalidCommand
from meeple.engine.star_wars import StarWars
from meeple.events.model import MAX_FIGURE, Colour
from meeple.events.text import escaped

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

#: the entry point group an installed package registers its editions in
ENTRY_POINTS = "meeple.editions"

EDITIONS: dict[str, Edition] = {e.name: e for e in (StarWars(), Classic())}
EXPANSIONS: dict[str, Expansion] = {x.name: x for x in (LaFiesta(),)}
DEFAULT = "star-wars"
#: the scoring an edition must give itself (the base class has no scoring of its own)
SCORING_HOOKS = ("completed_points", "final_points", "scorers", "terms")
#: the editions meeple ships, which no other may replace
BUILT_IN = {name: type(edition) for name, edition in EDITIONS.items()}

#: what a game log can hold (``meeple.events.model``): an edition's names must fit it
_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
_FIGURE = re.compile(rf"[a-z][a-z-]{{0,{MAX_FIGURE - 1}}}")
_COLOURS = get_args(Colour)


class EditionNotInstalled(InvalidCommand):
    """A name no registered edition and no installed package's entry point gives, or whose
    package fails to give a sound edition (the message says which)."""


def register_edition(edition: Edition | type[Edition]) -> Edition:
    """Make ``edition`` (an instance, or its class) known by its name, for new games, logs,
    tile sets and every command; a name registered again is replaced, except the bundled
    editions'. Returns the instance.

    :raises TypeError: not an ``Edition``.
    :raises EditionError: one that lacks a required attribute or rule id, or whose name,
        colours or figures a game log could not hold (see ``check_edition``).
    """
    if isinstance(edition, type):
        edition = edition()
    if not isinstance(edition, Edition):
        raise TypeError(f"not an edition: {escaped(repr(edition))[:200]}")
    check_edition(edition)
    built_in = BUILT_IN.get(edition.name)
    if built_in is not None and type(edition) is not built_in:
        raise EditionError(f"{edition.name!r} is a bundled edition's name: another edition "
                           "cannot replace it; give yours a name of its own")
    EDITIONS[edition.name] = edition
    return edition


def check_edition(edition: Edition) -> None:
    """Refuse an edition a game could not be played or logged with: its required attributes
    (``name``, ``title``, ``colours``, ``figures``, ``figure``, ``vocabulary``, ``tileset``,
    ``rules``, ``target_syntax``), its scoring hooks (``SCORING_HOOKS``), a rule id for every
    role (``meeple.engine.edition.ROLES``), and names a log can hold: the name
    (``^[a-z][a-z0-9-]*$``, at most 40 characters), each figure's (``^[a-z][a-z-]*$``),
    colours among those of the log format.

    :raises EditionError: the first fault, naming the attribute.
    """
    cls = type(edition).__name__
    required = ("name", "title", "colours", "figures", "figure", "vocabulary", "tileset",
                "rules", "target_syntax")
    missing = [a for a in required if not hasattr(edition, a)]
    if missing:
        raise EditionError(f"edition class {cls} lacks " + ", ".join(missing))
    name = edition.name
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise EditionError(f"edition class {cls}: its name {escaped(repr(name))[:60]} is not "
                           "one a log can hold (a-z, 0-9 and -, starting with a letter, at "
                           "most 40 characters)")
    where = f"edition {name!r}"
    for attribute, kind in (("title", str), ("tileset", str), ("target_syntax", str),
                            ("figure", str), ("vocabulary", Vocabulary), ("look", Look)):
        if not isinstance(getattr(edition, attribute), kind):
            raise EditionError(f"{where}: {attribute} is not a {kind.__name__}")
    colours = edition.colours
    if not isinstance(colours, tuple) or not colours or \
            any(c not in _COLOURS for c in colours) or len(set(colours)) != len(colours):
        raise EditionError(f"{where}: colours must be a tuple of distinct colours a game log "
                           "can hold: " + ", ".join(_COLOURS))
    low, high = edition.players
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= len(colours)):
        raise EditionError(f"{where}: players must be (fewest, most), 1 <= fewest <= most <= "
                           f"{len(colours)} (its colours)")
    figures = edition.figures
    if not isinstance(figures, tuple) or not figures or \
            not all(isinstance(f, Figure) for f in figures):
        raise EditionError(f"{where}: figures must be a tuple of Figure, the everyday one first")
    for figure in figures:
        if not _FIGURE.fullmatch(figure.name):
            raise EditionError(f"{where}: figure {escaped(repr(figure.name))[:60]} is not a "
                               f"name a log can hold (a-z and -, starting with a letter, at "
                               f"most {MAX_FIGURE} characters)")
        if not (isinstance(figure.count, int) and figure.count >= 1 and
                isinstance(figure.strength, int) and figure.strength >= 0):
            raise EditionError(f"{where}: figure {figure.name!r} needs a count of at least 1 "
                               "and a strength of at least 0, as whole numbers")
    if len({f.name for f in figures}) != len(figures):
        raise EditionError(f"{where}: two figures have the same name")
    rules = edition.rules
    if not isinstance(rules, dict) or not all(isinstance(v, str) for v in rules.values()):
        raise EditionError(f"{where}: rules must map each role to a rule id")
    unscored = [hook for hook in SCORING_HOOKS
                if getattr(getattr(edition, hook, None), "__func__", None) is getattr(Edition, hook)]
    if unscored:
        raise EditionError(f"{where}: it does not give its scoring hooks: " +
                           ", ".join(unscored) + " (see Edition's docstrings)")
    lacking = [role for role in ROLES if role not in rules]
    if lacking:
        raise EditionError(f"{where}: rules has no rule id for " + ", ".join(lacking) +
                           " (every role needs one: give the nearest rule where a role does "
                           "not apply)")


def register_expansion(expansion: Expansion | type[Expansion]) -> Expansion:
    """Make ``expansion`` known by its name (for ``--expansion NAME``). Returns the instance."""
    if isinstance(expansion, type):
        expansion = expansion()
    EXPANSIONS[expansion.name] = expansion
    return expansion


def _entry_points(name: str | None = None) -> list[EntryPoint]:
    """The entry points of the group, of that name (package metadata is read only now: it
    costs a start-up that asks only for known editions nothing)."""
    from importlib import metadata

    found = metadata.entry_points(group=ENTRY_POINTS)
    return [point for point in found if name is None or point.name == name]


def _load(point: EntryPoint) -> None:
    """Register the edition ``point`` gives, which must bear the entry point's name.

    :raises EditionNotInstalled: the package fails to give a sound edition of that name, with
        what went wrong (its own error, escaped and cut short).
    """
    def broken(reason: str) -> EditionNotInstalled:
        return EditionNotInstalled(f"edition {point.name!r} is installed but cannot be used "
                                   f"(entry point {escaped(point.value)[:120]} of the group "
                                   f"{ENTRY_POINTS}): {reason}")

    if point.name in BUILT_IN:
        raise broken("a bundled edition's name, which a package cannot replace")
    try:
        loaded = point.load()
        edition = loaded() if isinstance(loaded, type) else loaded
    except Exception as exc:  # a package's own fault, told as it is, not meeple's
        raise broken(f"{type(exc).__name__}: {escaped(str(exc))[:300]}") from None
    name = getattr(edition, "name", None)
    if isinstance(edition, Edition) and name != point.name:
        raise broken(f"the edition it gives is called {escaped(repr(name))[:60]}, not "
                     f"{point.name!r}")
    try:
        register_edition(edition)
    except (TypeError, EditionError) as exc:
        raise broken(str(exc)) from None


def installed() -> list[str]:
    """The names of every edition: registered ones and those installed packages declare."""
    names = dict.fromkeys(EDITIONS)
    for point in _entry_points():
        names.setdefault(point.name)
    return list(names)


def edition_named(name: str) -> Edition:
    """The edition called ``name``: a registered one, else the one an installed package's
    entry point of that name gives (loaded and registered now).

    >>> edition_named("classic").title
    'Carcassonne (2011 base game)'

    :raises EditionNotInstalled: a name nothing gives, listing the known ones.
    """
    found = EDITIONS.get(name)
    if found is not None:
        return found
    for point in _entry_points(name):
        _load(point)
        return EDITIONS[name]
    raise EditionNotInstalled(f"edition {name!r} is not installed",
                              legal="editions are " + ", ".join(installed()))


def expansion_named(name: str, edition: Edition) -> Expansion:
    """The expansion called ``name``, for a game of ``edition``.

    :raises InvalidCommand: an unknown name, or one that belongs to another edition.
    """
    found = EXPANSIONS.get(name)
    if found is None:
        known = [x.name for x in EXPANSIONS.values() if x.edition == edition.name]
        raise InvalidCommand(f"unknown expansion {name!r}", legal="expansions of the "
                             f"{edition.name} edition: " + (", ".join(known) or "none"))
    if found.edition != edition.name:
        raise InvalidCommand(f"{found.title} belongs to the {found.edition} edition, not "
                             f"{edition.name}", rule=found.rule)
    return found
