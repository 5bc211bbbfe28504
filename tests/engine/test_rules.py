"""One or more tests per rule id of RULES.md Part 1, on small table-mode games."""

import msgspec
import pytest

from meeple.engine import (
    DrawTile,
    IllegalMove,
    InvalidCommand,
    PlaceMeeple,
    PlaceTile,
    RollDice,
    SkipMeeple,
    TileSetError,
    compile_tileset,
    decide,
    new_game,
    placements,
    settle,
    start,
)
from meeple.events.model import (
    BattleStarted,
    GameEnded,
    PointsScored,
    Spot,
    TileDrawn,
    TileSetAside,
)
from meeple.events.tileset import Edges, FeatureDef, TileDef

from helpers import Table, bundled, mini_set, route_battle, surround_hoth


def scored(t: Table):
    return [(e.side, e.points, e.reason, e.tiles) for e in t.of(PointsScored)]


# SW-1 components -------------------------------------------------------------

def test_bundled_set_has_76_tiles_25_symbols_and_ten_planets():
    """SW-1.1, SW-1.4; shared/tiles/README.md: Rebel 9, Empire 8, Bounty Hunters 8."""
    tileset = compile_tileset(bundled())
    assert tileset.total() == 76
    assert tileset.status == "reconstructed"
    symbols: dict[str, int] = {}
    planets = 0
    for tile in tileset.types.values():
        for f in tile.features:
            if f.symbol:
                symbols[f.symbol] = symbols.get(f.symbol, 0) + tile.count
            planets += tile.count if f.kind == "planet" else 0
    assert symbols == {"rebel": 9, "empire": 8, "bounty_hunter": 8}
    assert planets == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(edges=Edges(N="lava", E="space", S="space", W="space")), "edge N is 'lava'"),
        (dict(features=(FeatureDef(kind="route", edges=("N",)),)), "reaches edge N, which is asteroid"),
        (dict(features=()), "edge N is asteroid but no feature reaches it"),
        (dict(features=(FeatureDef(kind="asteroid", edges=("N",), symbol="jedi"),)), "unknown symbol"),
        (dict(count=0), "count must be at least 1"),
    ],
)
def test_inconsistent_tile_definitions_are_refused(change, message):
    """SW-1.2 to SW-1.4: a tile set must agree with itself."""
    definition = bundled()
    e_tile = next(t for t in definition.tiles if t.id == "E")
    broken = msgspec.structs.replace(e_tile, **change)
    tiles = tuple(broken if t.id == "E" else t for t in definition.tiles)
    with pytest.raises(TileSetError, match=message):
        compile_tileset(msgspec.structs.replace(definition, tiles=tiles))


def test_setup_refuses_wrong_player_counts_colours_and_team_seating():
    """SW-1.5, SW-8.1."""
    with pytest.raises(InvalidCommand, match="2 to 5"):
        new_game(["red"], bundled(), seed="1")
    with pytest.raises(InvalidCommand, match="unknown colour 'blue'"):
        new_game(["red", "blue"], bundled(), seed="1")
    with pytest.raises(InvalidCommand, match="different colour"):
        new_game(["red", "red"], bundled(), seed="1")
    with pytest.raises(InvalidCommand, match="alternates"):
        new_game(["red", "green", "black", "white"], bundled(), seed="1", team=True)
    with pytest.raises(InvalidCommand, match="exactly red, green, black and white"):
        new_game(["red", "black", "orange"], bundled(), seed="1", team=True)


def test_reserve_is_four_small_and_one_large():
    """SW-1.6."""
    t = Table(["red", "black"])
    assert t.state.reserve == {"red": {"small": 4, "large": 1}, "black": {"small": 4, "large": 1}}


# SW-2 / SW-3 placement ---------------------------------------------------------

def test_start_tile_lies_unrotated_at_origin_and_the_pile_holds_75():
    """SW-2.1."""
    state = start(new_game(["red", "black"], bundled(), seed="7"))
    placed = state.board[(0, 0)]
    assert (placed.tile.id, placed.r) == ("D", 0)
    assert len(state.pile) == 75 and state.tiles_left() == 75


def test_turns_follow_the_seating_order():
    """SW-2.2."""
    t = Table(["white", "red", "black"])
    seen = []
    for tile, x in (("U", 1), ("U", 2), ("U", 3), ("U", 4)):
        seen.append(t.state.player)
        t.turn(tile, x, 0, 90)
    assert seen == ["white", "red", "black", "white"]


def test_placement_must_touch_edge_to_edge_and_match_every_edge():
    """SW-3.1: the errors name the rule and what would be legal."""
    t = Table(["red", "black"])
    t.do(DrawTile("U"))
    with pytest.raises(IllegalMove, match=r"does not touch .*diagonal.*SW-3.1") as exc:
        decide(t.state, PlaceTile(1, 1, 0))
    assert "U fits at" in str(exc.value)
    with pytest.raises(IllegalMove, match=r"already holds tile D"):
        decide(t.state, PlaceTile(0, 0, 0))
    with pytest.raises(IllegalMove, match=r"legal rotations of U at \(1, 0\): 90, 270"):
        decide(t.state, PlaceTile(1, 0, 0))
    with pytest.raises(IllegalMove, match=r"no rotation of U fits at \(0, 1\)"):
        decide(t.state, PlaceTile(0, 1, 0))
    with pytest.raises(InvalidCommand, match="rotation 45"):
        decide(t.state, PlaceTile(1, 0, 45))


def test_legal_placement_count_on_the_opening_board():
    """SW-3.1, perft-like: tile U (straight route) next to the start tile alone."""
    t = Table(["red", "black"])
    t.do(DrawTile("U"))
    tile = t.state.tileset.types["U"]
    assert sorted(placements(t.state, tile)) == [
        (-1, 0, 90), (-1, 0, 270), (0, -1, 90), (0, -1, 270), (1, 0, 90), (1, 0, 270),
    ]


def _unplaceable_set(**counts):
    """A start tile with space all round, and an intersection tile that can never touch it."""
    x_tile = TileDef(
        id="X4", count=counts.get("X4", 1),
        edges=Edges(N="route", E="route", S="route", W="route"),
        features=tuple(FeatureDef(kind="route", edges=(s,)) for s in "NESW"),
    )
    return mini_set({"hoth": 1, "endor": counts.get("endor", 2)}, start="hoth", extra=(x_tile,))


def test_unplaceable_tile_is_discarded_and_the_player_draws_again():
    """SW-3.2, default option: removed from the game."""
    t = Table(["red", "black"], _unplaceable_set())
    new = t.do(DrawTile("X4"))
    aside = [e for e in new if isinstance(e, TileSetAside)]
    assert [(e.tile, e.disposition) for e in aside] == [("X4", "discarded")]
    assert t.waiting == "draw" and t.state.player == "red"
    assert t.state.set_aside == ["X4"] and t.state.remaining["X4"] == 0
    assert t.state.tiles_left() == sum(t.state.remaining.values())


def test_unplaceable_tile_goes_back_into_the_pile_with_reshuffle():
    """SW-3.2, option unplaceable=reshuffle."""
    t = Table(["red", "black"], _unplaceable_set(), unplaceable="reshuffle")
    new = t.do(DrawTile("X4"))
    assert [(e.tile, e.disposition) for e in new if isinstance(e, TileSetAside)] == [
        ("X4", "reshuffled")
    ]
    assert t.state.remaining["X4"] == 1 and t.state.set_aside == []
    assert t.state.tiles_left() == sum(t.state.remaining.values())


def test_reshuffle_in_digital_mode_reinserts_below_the_top_and_ends_when_nothing_fits():
    """SW-3.2: the position comes from the seed; a pile of unplaceable tiles is discarded."""
    first = new_game(["red", "black"], _unplaceable_set(X4=1, endor=1), seed="3",
                     unplaceable="reshuffle")
    state, events = settle(start(first))
    log = list(events)
    while not any(isinstance(e, GameEnded) for e in log):
        from meeple.engine import play

        state, new = play(state, PlaceTile(*placements(state, state.tileset.types[state.drawn])[0]))
        log += new
        state, new = play(state, SkipMeeple())
        log += new
    asides = [e for e in log if isinstance(e, TileSetAside)]
    assert asides, "X4 never fits, so it must be set aside"
    assert asides[-1].disposition == "discarded"
    assert all(e.position is not None and e.position >= 1 for e in asides
               if e.disposition == "reshuffled")
    assert sum(isinstance(e, TileDrawn) and e.tile == "endor" for e in log) == 1


# SW-4 meeples -------------------------------------------------------------------

def test_meeple_only_on_an_unoccupied_realm_of_the_placed_tile():
    """SW-4.2: the whole realm, after merging, must hold no meeple, the player's own included."""
    t = Table(["red", "black"])
    t.turn("U", 1, 0, 90, meeple="route:E")
    t.do(DrawTile("U"))
    t.do(PlaceTile(2, 0, 90))
    with pytest.raises(IllegalMove, match=r"already held by red.*SW-4.2") as exc:
        decide(t.state, PlaceMeeple("route:W"))
    assert "legal targets: none" in str(exc.value)
    with pytest.raises(IllegalMove, match=r"no asteroid on its N edge"):
        decide(t.state, PlaceMeeple("asteroid:N"))
    with pytest.raises(InvalidCommand, match="cannot read the meeple target"):
        decide(t.state, PlaceMeeple("road:E"))


def test_two_separate_asteroid_fields_on_one_tile():
    """SW-1.3: tile H's north and south fields are separate realms; one closes, one stays open."""
    t = Table(["red", "black"])
    t.turn("H", 0, 1, 0, meeple="asteroid:N")
    placed = t.state.board[(0, 1)]
    north, south = (t.state.realms.find(n) for n in placed.nodes)
    assert north != south
    assert t.state.realms.data[south].open == 0 and t.state.realms.data[north].open == 1
    assert scored(t) == [], "the completed south field holds no meeple"


def test_canonical_target_names_the_first_edge_of_a_feature():
    """DESIGN.md targets: any edge of a field names it; the log records the first of N, E, S, W."""
    t = Table(["red", "black"])
    new = t.turn("R", 0, 1, 180, meeple="asteroid:W")
    from meeple.events.model import MeeplePlaced

    assert [e.target for e in new if isinstance(e, MeeplePlaced)] == ["asteroid:E"]


def test_small_reserve_empty_refuses_small_but_allows_large():
    """SW-4.4, checked by decide on a state whose reserve was used up."""
    t = Table(["red", "black"])
    t.do(DrawTile("U"))
    t.do(PlaceTile(1, 0, 90))
    t.state.reserve["red"] = {"small": 0, "large": 1}
    with pytest.raises(IllegalMove, match=r"no small meeple.*SW-4.4.*1 large left") as refused:
        decide(t.state, PlaceMeeple("route:E"))
    assert "--" not in str(refused.value)  # the library's words, not the command line's
    assert decide(t.state, PlaceMeeple("route:E", "large"))
    t.state.reserve["red"] = {"small": 0, "large": 0}
    with pytest.raises(IllegalMove, match="no large meeple"):
        decide(t.state, PlaceMeeple("route:E", "large"))


def test_planet_attack_needs_a_planet_among_the_8_neighbours():
    """SW-4.3."""
    t = Table(["red", "black"])
    t.turn("hoth", 0, -1, 0, meeple="planet")
    t.do(DrawTile("U"))
    t.do(PlaceTile(1, 0, 90))
    assert "planet@0,-1" in decide(t.state, PlaceMeeple("planet@0,-1"))[0].target
    with pytest.raises(IllegalMove, match=r"no planet at \(5, 5\).*SW-4.3"):
        decide(t.state, PlaceMeeple("planet@5,5"))


def test_attack_on_a_planet_that_the_placement_itself_completes():
    """SW-4.3 decision: allowed; the battle comes first (SW-5), then the winner scores (SW-6)."""
    t = Table(["white", "red"])
    t.turn("hoth", 0, -1, 0, meeple="planet")
    surround_hoth(t, last_meeple="planet@0,-1")
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("white", 1), ("red", 2)]
    t.roll(white=(6,), red=(3, 2))
    assert scored(t) == [("red", 2, "defeat", 0), ("white", 11, "realm", 9)]


def test_attacking_your_own_planet_is_allowed_and_fights_no_battle():
    """SW-4.3 decision: a planet occupied by the player's own meeples may be attacked."""
    t = Table(["red", "black"])
    t.turn("hoth", 0, -1, 0, meeple="planet")
    t.turn("E", 0, 1, 180)
    t.turn("endor", 1, -1, 0, meeple="planet@0,-1")
    assert not t.of(BattleStarted)
    hoth = t.state.board[(0, -1)]
    assert len(t.state.realms.realm(hoth.nodes[0]).meeples) == 2


# SW-5 battles ---------------------------------------------------------------------

def test_dice_are_capped_at_three_and_validated_in_table_mode():
    """SW-5.2 cap; SW-5.3 dice entry: every side once, the right count, 1 to 6."""
    t = Table(["red", "black", "green", "white"], team=True)
    t.turn("hoth", 0, -1, 0, meeple="planet")
    t.turn("E", 0, 1, 180)
    t.turn("endor", 1, -1, 0, meeple="planet@0,-1")
    assert not t.of(BattleStarted), "teammates never battle each other (SW-8.2)"
    t.turn("coruscant", -1, -1, 0)
    t.turn("dagobah", 0, -2, 0)
    t.turn("tatooine", 1, -2, 0, meeple="planet@0,-1")
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("rebel", 3), ("empire", 1)]
    for bad, message in [
        ({"red": (6, 1, 1)}, "no dice given for empire"),
        ({"red": (6, 1), "black": (3,)}, r"rebel rolls 3 dice in this battle, got 2.*SW-5.2"),
        ({"red": (6, 1, 7), "black": (3,)}, "must be 1 to 6"),
        ({"orange": (1,), "red": (1, 1, 1)}, "'orange' is not in this battle"),
    ]:
        with pytest.raises((IllegalMove, InvalidCommand), match=message):
            decide(t.state, RollDice(bad))
    t.roll(red=(6, 1, 1), black=(3,))
    assert scored(t) == [("empire", 1, "defeat", 0)]
    assert t.state.scores == {"rebel": 0, "empire": 1}
    assert t.state.reserve["black"] == {"small": 4, "large": 1}
    assert t.state.reserve["green"] == {"small": 3, "large": 1}


def test_team_battle_counts_teammates_together_and_points_go_to_the_team():
    """SW-8.2 / SW-8.3: red and green are one side with one score."""
    t = Table(["red", "black", "green", "white"], team=True)
    t.turn("hoth", 0, -1, 0, meeple="planet")
    t.turn("E", 0, 1, 180)
    t.turn("endor", 1, -1, 0, meeple="planet@0,-1")
    t.turn("coruscant", -1, -1, 0, meeple="planet@0,-1")
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("rebel", 3), ("empire", 1)]
    t.roll(rebel=(2, 2, 1), empire=(4,))
    assert scored(t) == [("rebel", 3, "defeat", 0)]
    assert t.state.reserve["red"] == t.state.reserve["green"] == {"small": 4, "large": 1}
    assert t.state.scores == {"rebel": 3, "empire": 0}


def test_battles_happen_even_without_the_current_player():
    """SW-5.1: black's tile joins red's and white's routes; black takes no part."""
    t = Table(["red", "white", "black"])
    t.turn("L", -1, 0, 180, meeple="route:E")
    t.turn("E", 0, 1, 180)
    t.turn("endor", 0, -1, 0)
    t.turn("dagobah", 1, -1, 0)
    t.turn("tatooine", 1, 1, 0, meeple="route:S")
    assert t.state.player == "black"
    t.turn("V", 1, 0, 90)
    assert [s.side for s in t.of(BattleStarted)[0].sides] == ["red", "white"]
    t.roll(red=(1,), white=(2,))
    assert scored(t) == [("red", 1, "defeat", 0), ("white", 4, "realm", 4)]


def test_route_closed_into_a_loop_is_complete():
    """SW-6.2: four curves closing on themselves."""
    t = Table(["red", "black"])
    t.turn("V", 0, -1, 270, meeple="route:E")
    t.turn("V", 1, -1, 0)
    t.turn("V", 0, -2, 180)
    assert scored(t) == []
    t.turn("V", 1, -2, 90)
    assert scored(t) == [("red", 4, "realm", 4)]


def test_a_tile_crossed_twice_by_one_route_counts_once():
    """SW-6.3: both ends of the route stop at the same intersection: 4 tiles, not 5."""
    t = Table(["red", "black"])
    t.turn("W", 0, -1, 0, meeple="route:E")
    t.turn("V", 1, -1, 0)
    t.turn("V", 1, -2, 90)
    assert scored(t) == []
    t.turn("V", 0, -2, 180)
    assert scored(t) == [("red", 4, "realm", 4)]


def test_symbols_score_for_whoever_holds_the_realm():
    """SW-6.4: a Bounty Hunters symbol on a route scores 2 for red (Rebel) too."""
    t = Table(["red", "black"])
    t.turn("L", -1, 0, 180, meeple="route:E")
    t.turn("U-b", 1, 0, 90)
    t.turn("L", 2, 0, 0)
    assert scored(t) == [("red", 6, "realm", 4)]


def test_the_battle_realm_is_named_by_its_first_placed_feature():
    """SW-5.5: one battle for the joined route, named by the realm's first-placed feature."""
    t = route_battle()
    assert len(t.of(BattleStarted)) == 1
    assert t.of(BattleStarted)[0].realm == Spot(x=0, y=0, feature="route:E")


def test_game_end_winners_share_the_victory_on_a_tie():
    """SW-7.1 / SW-7.3: no points scored by anyone: both win."""
    tiles = mini_set({"D": 1, "U": 2})
    t = Table(["red", "black"], tiles)
    t.turn("U", 1, 0, 90)
    assert not t.of(GameEnded)
    t.turn("U", -1, 0, 90)
    assert t.of(GameEnded)[0].winners == ("red", "black")


def test_wrong_phase_commands_say_what_the_game_waits_for():
    t = Table(["red", "black"])
    with pytest.raises(IllegalMove, match=r"waits for red to enter the drawn tile"):
        decide(t.state, PlaceTile(1, 0, 90))
    digital = start(new_game(["red", "black"], bundled(), seed="1"))
    digital, _ = settle(digital)
    with pytest.raises(IllegalMove, match="come from the seed"):
        decide(digital, DrawTile("U"))
    with pytest.raises(InvalidCommand, match="there is no tile 'ZZ'"):
        decide(t.state, DrawTile("ZZ"))
