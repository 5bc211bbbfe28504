"""What the pictures read from the editions: a feature kind's role, and the looks
(``Edition.look``) of the editions a picture may show.

Where a picture knows its game, it asks that game's edition. Where it knows only a feature
kind or a symbol (a target in a sentence, a style name in a grid of characters), it asks
every registered edition, first registered first.
"""

from __future__ import annotations

from meeple.engine import EDITIONS, Edition, TileType

#: what every edition's scorings of a completed realm and at the end are told as, where its
#: look says nothing else (``Look.reasons``, ``Look.reason_words``)
BASE_REASONS = {"realm": "completed {where}: {formula}",
                "final": "incomplete, final scoring: {where}: {formula}"}
BASE_REASON_WORDS = {"realm": "completed", "final": "at the end"}

#: the editions registered when meeple starts: every SVG document holds their pictures, so
#: that a picture's bytes do not depend on what else a process has registered
BUNDLED = tuple(EDITIONS.values())


def roles(edition: Edition) -> dict[str, str]:
    """The role each feature kind of an edition plays: ``path``, ``area``, ``centre``, ``field``."""
    vocabulary = edition.vocabulary
    found = {vocabulary.path: "path", vocabulary.area: "area", vocabulary.centre: "centre"}
    if vocabulary.field:
        found[vocabulary.field] = "field"
    return found


def role_of(kind: str, edition: Edition | None = None) -> str | None:
    """The role of a feature kind in ``edition``, or in the first registered edition that has it."""
    for each in (edition,) if edition is not None else tuple(EDITIONS.values()):
        found = roles(each).get(kind)
        if found is not None:
            return found
    return None


def edition_of(tile: TileType) -> Edition:
    """The edition a tile is drawn in, where the caller does not know its game: the first
    registered edition whose edges and kinds it uses."""
    for edition in EDITIONS.values():
        words = edition.vocabulary
        if all(edge in words.edges for edge in tile.orientations[0].edges) and all(
                f.kind in words.kinds for f in tile.features):
            return edition
    return next(iter(EDITIONS.values()))


def looked_up(table: str, key: str, edition: Edition | None = None) -> str | None:
    """``key`` in the look's ``table`` (``glyphs``, ``styles``, ``realm_words`` ...) of
    ``edition``, or of the first registered edition that has it."""
    for each in (edition,) if edition is not None else tuple(EDITIONS.values()):
        found = getattr(each.look, table).get(key)
        if found is not None:
            return found
    return None


def shown(edition: Edition | None) -> tuple[Edition, ...]:
    """The editions whose pictures an SVG document holds: the bundled ones and ``edition``."""
    if edition is None or edition in BUNDLED:
        return BUNDLED
    return (*BUNDLED, edition)


def is_large(edition: Edition, figure: str) -> bool:
    """Whether a figure is drawn large: one that weighs more than one in a contest."""
    return edition.strengths.get(figure, 1) > 1
