"""Each scoring's formula (``Edition.terms``) adds up to the points the rules paid, for every
scoring in every recorded game of both editions (SW-5.3, SW-5.4, SW-6.3, SW-7.2; CL-5, CL-6)."""

import pytest

from meeple.engine import effective_events, fold, formula
from meeple.events import log
from meeple.events.model import PointsScored

from helpers import RECORDED as FIXTURES


@pytest.mark.slow  # every recorded game
def test_every_recorded_scoring_is_the_sum_of_its_terms():
    seen = set()
    for path in FIXTURES:
        state = fold(log.read(path).events)
        for event in effective_events(state):
            if not isinstance(event, PointsScored):
                continue
            kind = event.realm.feature.split(":")[0].split("@")[0]
            terms = state.edition.terms(event.reason, kind, event.tiles, event.symbols,
                                        event.dice, event.cities)
            assert sum(t.count * t.per for t in terms) == event.points, (path.name, event)
            assert formula(terms).endswith(f" = {event.points}")
            seen.add((state.edition.name, event.reason, kind))
    assert {("star-wars", "realm", "planet"), ("star-wars", "final", "planet"),
            ("star-wars", "defeat", "asteroid"), ("star-wars", "tie", "route"),
            ("classic", "realm", "city"), ("classic", "farm", "field"),
            ("classic", "final", "cloister")} <= seen, sorted(seen)


def test_a_city_of_two_tiles_is_one_point_a_tile_and_pennant():
    from meeple.engine import EDITIONS

    terms = EDITIONS["classic"].terms("realm", "city", 2, 1, 0, 0)
    assert formula(terms) == "2 tiles x 1 + 1 pennant x 1 = 3"
