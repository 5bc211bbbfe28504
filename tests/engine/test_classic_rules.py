"""The classic edition's rules, CL-1 to CL-7 (RULES.md Part 2), played out in table mode.

Each scenario lays chosen tiles of the bundled classic set (a mini set holds exactly the
tiles used, so the game ends after them and final scoring runs).
"""

import msgspec
import pytest

from meeple.engine import (
    DrawTile,
    IllegalMove,
    InvalidCommand,
    PlaceMeeple,
    PlaceTile,
    SkipMeeple,
    TakeBack,
    compile_tileset,
    legal_targets,
    new_game,
    verify,
)
from meeple.events.model import MeepleReturned, MeepleTakenBack, Options, PointsScored

from helpers import Table, bundled, classic, mini_set


def game(counts: dict[str, int], players=("red", "blue"), fiesta=False, extra=()) -> Table:
    return Table(list(players), mini_set(counts, base=classic(fiesta), extra=extra))


def points(t: Table) -> list[tuple]:
    return [(e.side, e.points, e.reason, e.rule, e.tiles, e.symbols, e.cities)
            for e in t.of(PointsScored)]


def test_cl1_the_base_set_has_72_tiles_of_24_types_and_la_fiesta_10_more():
    base = compile_tileset(classic())
    assert base.total() == 72 and len(base.types) == 24 and base.start == "D"
    assert {t.id: t.count for t in base.types.values()} == dict(
        A=2, B=4, C=1, D=4, E=5, F=2, G=1, H=3, I=2, J=3, K=3, L=3, M=2, N=3, O=2, P=3, Q=1, R=3,
        S=2, T=1, U=8, V=9, W=4, X=1)
    assert sum(1 for t in base.types.values() for f in t.features if f.symbol == "pennant"
               for _ in range(t.count)) == 10
    both = compile_tileset(classic(fiesta=True))
    festival = [t for t in both.types.values() if t.festival]
    assert both.total() == 82 and len(festival) == 10 and all(t.count == 1 for t in festival)
    assert both.status == "partly verified"


def test_cl1_field_ports_turn_with_the_tile():
    d = compile_tileset(classic()).types["D"]
    assert d.orientations[0].targets == ("city:N", "road:E", "field:En", "field:Es")
    assert d.orientations[1].targets == ("city:E", "road:N", "field:Ne", "field:Nw")
    assert d.orientations[1].aliases["field:Se"] == 2


def test_cl2_seven_followers_all_alike_and_the_classic_colours():
    t = game({"D": 1, "U": 2})
    assert t.state.reserve == {"red": {"small": 7}, "blue": {"small": 7}}
    t.do(DrawTile("U"))
    t.do(PlaceTile(1, 0, 0))
    with pytest.raises(IllegalMove, match=r"all alike.*\(CL-2\)"):
        t.do(PlaceMeeple("road:E", "large"))
    with pytest.raises(InvalidCommand, match=r"unknown colour 'orange' \(CL-2\); colours of the "
                                             r"classic edition are red, green, blue"):
        new_game(["red", "orange"], classic(), table=True)
    with pytest.raises(InvalidCommand, match=r"the classic edition has no team variant \(CL-2\)"):
        new_game(["red", "green", "black", "blue"], classic(), table=True, team=True)


def test_cl3_edges_must_match_road_city_and_field():
    t = game({"D": 1, "E": 1})
    t.do(DrawTile("E"))
    with pytest.raises(IllegalMove, match=r"does not match the edges.*\(CL-3\).*legal rotations"
                                          r" of E at \(0, 1\): 180"):
        t.do(PlaceTile(0, 1, 0))  # its field side would meet D's city
    t.do(PlaceTile(0, 1, 180))


def test_cl3_an_unplaceable_tile_is_removed_the_classic_game_has_no_reshuffle_option():
    """CL-3 removes an unplaceable tile; putting it back into the pile is a Star Wars option
    (SW-3.2), so a classic game that asks for it is refused, made new or read from a log."""
    with pytest.raises(InvalidCommand, match=r"the classic edition has no reshuffle option for "
                                             r"an unplaceable tile \(CL-3\); unplaceable discard"):
        new_game(["red", "blue"], classic(), seed="1", unplaceable="reshuffle")
    forged = msgspec.structs.replace(new_game(["red", "blue"], classic(), seed="1"),
                                     options=Options(unplaceable="reshuffle"))
    verdict = verify([forged])
    assert verdict.finding is not None
    assert (verdict.finding.seq, verdict.finding.rule) == (0, "CL-3")
    assert "no reshuffle option" in verdict.finding.message
    assert new_game(["red", "black"], bundled(), seed="1", unplaceable="reshuffle")


def test_cl4_a_follower_goes_only_where_the_joined_feature_holds_none():
    t = game({"D": 1, "U": 2, "E": 1})
    t.turn("U", 1, 0, 0, meeple="field:Nw")  # red farmer north of the road, beside D's city
    t.do(DrawTile("U"))
    t.do(PlaceTile(-1, 0, 0))
    assert legal_targets(t.state) == ["road:E", "field:Es"]  # the north field joins red's farm
    with pytest.raises(IllegalMove, match=r"already held by red.*\(CL-4\)"):
        t.do(PlaceMeeple("field:Wn"))
    with pytest.raises(IllegalMove, match=r"no city on its N edge.*\(CL-4\)"):
        t.do(PlaceMeeple("city:N"))
    placed = t.do(PlaceMeeple("FIELD:se"))  # any half of the field, in any case
    assert placed[0].target == "field:Es"


def test_cl5_a_completed_city_of_exactly_two_tiles_scores_2():
    t = game({"D": 1, "E": 1})
    t.turn("E", 0, 1, 180, meeple="city:S")
    assert points(t)[0] == ("red", 2, "realm", "CL-5", 2, 0, 0)
    assert t.of(MeepleReturned)[0].player == "red"
    assert t.state.reserve["red"] == {"small": 7}


def test_cl5_a_two_tile_city_scores_1_more_per_pennant():
    base = classic()
    e = next(tile for tile in base.tiles if tile.id == "E")
    with_pennant = msgspec.structs.replace(
        e, id="Ep", count=1,
        features=(msgspec.structs.replace(e.features[0], pennant=True), *e.features[1:]))
    t = game({"D": 1}, extra=(with_pennant,))
    t.turn("Ep", 0, 1, 180, meeple="city:S")
    assert points(t)[0] == ("red", 3, "realm", "CL-5", 2, 1, 0)


def test_cl5_a_bigger_city_scores_2_per_tile_and_2_per_pennant():
    t = game({"D": 1, "M": 1, "E": 1})
    t.turn("M", 0, 1, 180, meeple="city:E")  # M turned: its city meets D's and opens east
    assert points(t) == []
    t.turn("E", 1, 1, 270)  # a cap facing M's east side closes the city: 3 tiles, 1 pennant
    assert points(t) == [("red", 8, "realm", "CL-5", 3, 1, 0)]


def test_cl5_majority_tie_both_sides_score_the_road_in_full():
    t = game({"D": 1, "U": 1, "V": 3, "W": 1, "A": 1})
    t.turn("U", -1, 0, 0, meeple="road:E")  # red: the road through D
    t.turn("V", 0, -1, 270, meeple="road:E")  # blue: a separate road south of D
    t.turn("V", 1, 0, 0)  # red extends its road east and turns south
    t.turn("W", -2, 0, 0)  # blue closes the west end at a crossing
    t.turn("V", 1, -1, 90)  # red joins the two roads: red 1 follower, blue 1
    t.turn("A", 0, -2, 180)  # blue ends the road at a cloister: complete, 7 tiles
    assert points(t) == [("red", 7, "realm", "CL-5", 7, 0, 0), ("blue", 7, "realm", "CL-5", 7, 0, 0)]
    assert sorted(e.player for e in t.of(MeepleReturned)) == ["blue", "red"]


def test_cl5_cl6_the_majority_takes_it_all():
    t = game({"D": 1, "U": 1, "V": 6})
    t.turn("U", -1, 0, 0, meeple="road:E")  # red: road A through D
    t.turn("V", 0, -1, 270, meeple="road:E")  # blue: road B
    t.turn("V", -1, -1, 0, meeple="road:S")  # red: road C
    t.turn("V", -1, -2, 180)
    t.turn("V", 0, -2, 90)  # B and C joined
    t.turn("V", 1, 0, 0)
    t.turn("V", 1, -1, 90)  # A joins them: red 2 followers, blue 1; the road stays open
    assert t.waiting == "over"
    assert points(t) == [("red", 8, "final", "CL-6", 8, 0, 0)]


def test_cl5_a_cloister_surrounded_by_eight_tiles_scores_9():
    t = game({"D": 1, "B": 6, "U": 2})
    t.turn("B", 0, -1, 0, meeple="cloister")  # red's monk, below the start tile
    for tile, x, y in [("U", 1, 0), ("U", -1, 0), ("B", -1, -1), ("B", 1, -1), ("B", -1, -2),
                       ("B", 0, -2)]:
        t.turn(tile, x, y, 0)
    assert points(t) == []
    t.turn("B", 1, -2, 0)  # the eighth neighbour
    assert points(t) == [("red", 9, "realm", "CL-5", 9, 0, 0)]
    assert [e.player for e in t.of(MeepleReturned)] == ["red"]


def test_cl6_farm_borders_three_completed_cities_and_one_incomplete():
    t = game({"D": 1, "U": 3, "E": 6})
    t.turn("U", 1, 0, 0, meeple="field:Nw")  # red: farmer in the farm north of the road
    t.turn("U", -1, 0, 0)
    t.turn("E", 1, 1, 0)  # city C2 at (1, 1), open to the north
    t.turn("E", 1, 2, 180, meeple="field:Nw")  # blue closes C2; farmer in the farm beyond it
    t.turn("E", -1, 1, 0)
    t.turn("E", -1, 2, 180)  # C3 complete
    t.turn("E", 0, 1, 180)  # C1, with D's city, complete (2 tiles)
    t.turn("U", 2, 0, 0)
    t.turn("E", 2, 1, 0)  # C4, left open
    assert t.waiting == "over"
    farms = [p for p in points(t) if p[2] == "farm"]
    assert farms == [("red", 9, "farm", "CL-6", 8, 0, 3), ("blue", 3, "farm", "CL-6", 1, 0, 1)]
    assert t.state.scores == {"red": 9, "blue": 3}


def test_cl6_one_city_pays_every_farm_it_borders_even_one_owner_twice():
    t = game({"D": 1, "U": 1, "E": 3})
    t.turn("U", 1, 0, 0, meeple="field:Nw")  # red: farm north of the road (borders D's city)
    t.turn("E", 1, 1, 0)  # blue: city at (1, 1), its field joins red's farm
    t.turn("E", 1, 2, 180, meeple="field:Nw")  # red: closes that city, farmer beyond it
    t.turn("E", 0, 1, 180)  # blue: D's city closed too
    assert t.waiting == "over"
    farms = [p for p in points(t) if p[2] == "farm"]
    assert farms == [("red", 6, "farm", "CL-6", 4, 0, 2), ("red", 3, "farm", "CL-6", 1, 0, 1)]


def test_cl6_incomplete_features_at_the_end():
    t = game({"D": 1, "B": 1, "M": 1})
    t.turn("B", 0, -1, 0, meeple="cloister")  # monk: 1 + 1 neighbour at the end
    t.turn("M", 0, 1, 180, meeple="city:E")  # knight on a 2-tile city with a pennant, left open
    assert t.waiting == "over"
    assert points(t) == [("blue", 3, "final", "CL-6", 2, 1, 0), ("red", 2, "final", "CL-6", 2, 0, 0)]


def test_cl6_a_farmer_on_an_inner_field():
    t = game({"D": 1, "FE-CcCc": 1, "E": 2}, fiesta=True)
    t.turn("FE-CcCc", 0, 1, 0, meeple="field:inner")  # its S-W city joins D's; inner field
    t.turn("E", 0, 2, 180)  # cap on the N-E city's north
    t.turn("E", 1, 1, 270)  # and on its east: the N-E city is complete
    assert t.waiting == "over"
    assert [p for p in points(t) if p[2] == "farm"] == [("red", 3, "farm", "CL-6", 1, 0, 1)]


def test_cl7_la_fiesta_taking_a_follower_back():
    t = game({"D": 1, "U": 2, "FE-RrRr": 1}, fiesta=True)
    t.turn("U", 1, 0, 0, meeple="road:E")  # red's thief on the road
    t.do(DrawTile("U"))
    t.do(PlaceTile(-1, 0, 0))
    with pytest.raises(IllegalMove, match=r"no festival symbol.*\(CL-7\)"):
        t.do(TakeBack(1, 0, "road:E"))
    t.do(SkipMeeple())
    t.do(DrawTile("FE-RrRr"))
    t.do(PlaceTile(2, 0, 0))
    assert t.state.reserve["red"] == {"small": 6}
    with pytest.raises(IllegalMove, match=r"red has no follower on road:N at \(1, 0\).*red's "
                                          r"followers: 1 0 road:E"):
        t.do(TakeBack(1, 0, "road:N"))
    t.do(TakeBack(1, 0, "road:w"))  # any edge the road reaches names it, as for a deploy
    taken = t.of(MeepleTakenBack)
    assert [(e.player, e.spot.x, e.spot.y, e.spot.feature) for e in taken] == [("red", 1, 0, "road:E")]
    assert t.state.reserve["red"] == {"small": 7}
    assert not any(realm and realm.meeples for realm in t.state.realms.data)


def test_cl6_a_tie_at_the_end_pays_every_side_in_seating_order():
    # the road of the CL-5 tie above, joined but left open when the tiles run out
    t = game({"D": 1, "U": 1, "V": 3, "W": 1}, players=("blue", "red"))
    t.turn("U", -1, 0, 0, meeple="road:E")  # blue: the road through D
    t.turn("V", 0, -1, 270, meeple="road:E")  # red: a separate road south of D
    t.turn("V", 1, 0, 0)
    t.turn("W", -2, 0, 0)  # the west end closes at a crossing
    t.turn("V", 1, -1, 90)  # the two roads join, one follower each; one end stays open
    assert t.waiting == "over"
    assert points(t) == [("blue", 6, "final", "CL-6", 6, 0, 0), ("red", 6, "final", "CL-6", 6, 0, 0)]
    assert t.state.scores == {"blue": 6, "red": 6}
    assert verify(t.events).finding is None  # the log checks: every payment recomputed
