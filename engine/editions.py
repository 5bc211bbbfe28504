"""The registry of editions and expansions, by the names logs and the command line use.

The bundled editions are known from the start. Another edition is one ``Edition`` subclass,
registered with one call (``register_edition``) or by an installed package's entry point in
the group ``meeple.editions`` (``NAME = package.module:EditionClass``), which is loaded only
when a name is asked for that is not known yet, so that start-up reads no package metadata.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.engine.classic import Classic, LaFiesta
from meeple.engine.edition import Edition, Expansion
from meeple.engine.errors import InvalidCommand
from meeple.engine.star_wars import StarWars

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

#: the entry point group an installed package registers its editions in
ENTRY_POINTS = "meeple.editions"

EDITIONS: dict[str, Edition] = {e.name: e for e in (StarWars(), Classic())}
EXPANSIONS: dict[str, Expansion] = {x.name: x for x in (LaFiesta(),)}
DEFAULT = "star-wars"


class EditionNotInstalled(InvalidCommand):
    """A name no registered edition and no installed package's entry point gives."""


def register_edition(edition: Edition | type[Edition]) -> Edition:
    """Make ``edition`` (an instance, or its class) known by its name, for new games, logs,
    tile sets and every command; a name registered again is replaced. Returns the instance.

    :raises TypeError: not an ``Edition``.
    """
    if isinstance(edition, type):
        edition = edition()
    if not isinstance(edition, Edition):
        raise TypeError(f"not an edition: {edition!r}")
    EDITIONS[edition.name] = edition
    return edition


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
    loaded = point.load()
    register_edition(loaded)


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
        found = EDITIONS.get(name)
        if found is not None:
            return found
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
