"""``realm_extent``: the cells a scored realm covers and the completed cities a farm counted
(CL-6), as the score table names them and the pictures highlight them."""

import pytest

from meeple.engine import effective_events, fold, realm_extent
from meeple.events import log
from meeple.events.model import PointsScored

from helpers import RECORDED as FIXTURES


def _scorings(path):
    state = fold(log.read(path).events)
    return state, [e for e in effective_events(state) if isinstance(e, PointsScored)]


@pytest.mark.slow  # every recorded game
def test_every_farm_names_as_many_completed_cities_as_it_was_paid_for():
    farms = 0
    for path in FIXTURES:
        state, scorings = _scorings(path)
        for event in scorings:
            if event.reason != "farm":
                continue
            extent = realm_extent(state, event.realm)
            assert len(extent["cities"]) == event.cities, (path.name, event.seq)
            assert event.points == 3 * len(extent["cities"])
            for city in extent["cities"]:
                assert city["tiles"] and all(tuple(c) in state.board for c in city["tiles"])
            farms += 1
    assert farms > 10


@pytest.mark.parametrize("path", FIXTURES[:20], ids=lambda p: p.name)
def test_a_final_scoring_counts_as_many_tiles_as_the_realm_covers(path):
    state, scorings = _scorings(path)
    for event in scorings:
        if event.reason != "final" or event.realm.feature.startswith(("planet", "cloister")):
            continue
        extent = realm_extent(state, event.realm)
        assert len(extent["tiles"]) == event.tiles, event
        assert [event.realm.x, event.realm.y] in extent["tiles"]
