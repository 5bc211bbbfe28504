"""The registry of editions and expansions, by the names logs and the command line use."""

from __future__ import annotations

from meeple.engine.classic import Classic, LaFiesta
from meeple.engine.edition import Edition, Expansion
from meeple.engine.errors import InvalidCommand
from meeple.engine.star_wars import StarWars

EDITIONS: dict[str, Edition] = {e.name: e for e in (StarWars(), Classic())}
EXPANSIONS: dict[str, Expansion] = {x.name: x for x in (LaFiesta(),)}
DEFAULT = "star-wars"


def edition_named(name: str) -> Edition:
    """The edition called ``name``.

    >>> edition_named("classic").contest
    'majority'

    :raises InvalidCommand: an unknown name, listing the known ones.
    """
    found = EDITIONS.get(name)
    if found is None:
        raise InvalidCommand(f"unknown edition {name!r}", legal="editions are "
                             + ", ".join(EDITIONS))
    return found


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
