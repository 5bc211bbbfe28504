"""The worked examples at the end of RULES.md Part 1, each set up in table mode: the scenarios
of ``fixtures/scenarios.py`` that the recorded fixtures were built from, checked step by step."""

from meeple.events.model import (
    BattleEnded,
    BattleStarted,
    GameEnded,
    MeepleReturned,
    PointsScored,
)

from helpers import Table


def points(table: Table) -> list[tuple[str, int, str]]:
    return [(e.side, e.points, e.reason) for e in table.of(PointsScored)]


def test_route_completed_by_another_players_tile_scores_3_for_its_owner():
    """SW-6.3: a 3-tile route closed by black's tile scores 3 for red, who holds it."""
    t = Table.scenario("worked_route_completed_by_another_player_scores_3", steps=3)
    assert t.state.reserve["red"] == {"small": 3, "large": 1}
    t.step(3)
    assert points(t) == [("red", 3, "realm")]
    scored = t.of(PointsScored)[0]
    assert (scored.tiles, scored.symbols, scored.rule) == (3, 0, "SW-6.3")
    assert t.state.reserve["red"] == {"small": 4, "large": 1}, "the meeple returns after scoring (SW-6.1)"
    assert t.state.scores == {"red": 3, "black": 0}


def test_completed_asteroid_field_of_3_tiles_with_an_empire_symbol_scores_8():
    """SW-6.3: 2 per tile + 2 per symbol."""
    t = Table.scenario("worked_asteroid_field_3_tiles_empire_symbol_scores_8")
    assert points(t) == [("red", 8, "realm")]
    scored = t.of(PointsScored)[0]
    assert (scored.tiles, scored.symbols) == (3, 1)


def test_completed_planet_with_its_symbol_scores_11():
    """SW-6.2 / SW-6.3: a planet completed by its 8th neighbour scores 9 + 2."""
    t = Table.scenario("worked_planet_completed_with_symbol_scores_11")
    assert points(t) == [("red", 11, "realm")]
    assert t.of(PointsScored)[0].tiles == 9
    assert t.state.reserve["red"] == {"small": 4, "large": 1}


def test_route_battle_red_beats_white_then_scores_the_completed_route():
    """SW-5.2 to SW-5.4: 1 die each, no faction bonus; white scores 1 and goes home; red scores 4."""
    t = Table.scenario("worked_route_battle_red_beats_white_then_scores_4", steps=15)
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("red", 1), ("white", 1)]
    assert t.waiting == "dice"
    t.step()  # red 5, white 2
    assert points(t) == [("white", 1, "defeat"), ("red", 4, "realm")]
    assert t.state.scores == {"red": 4, "white": 1}
    assert t.state.reserve == {"red": {"small": 4, "large": 1}, "white": {"small": 4, "large": 1}}
    assert t.waiting == "draw" and t.state.player == "white"


def test_asteroid_battle_three_sides_tie_then_black_wins_and_scores_12():
    """SW-5.3: white leaves with the lowest die; red and black tie, score 1 each, roll again;
    black's 6 wins, red scores 2 for its two dice; the 5-tile field with 1 symbol gives 12."""
    t = Table.scenario("worked_asteroid_battle_three_sides_tie_then_black_wins", steps=24)
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("black", 2), ("red", 2), ("white", 1)]
    t.step()  # black 4 1, red 4 2, white 3
    assert points(t) == [("white", 1, "defeat"), ("black", 1, "tie"), ("red", 1, "tie")]
    assert t.waiting == "dice", "the tied sides roll again with the same dice"
    t.step()  # black 6 1, red 5 2
    assert points(t)[3:] == [("red", 2, "defeat"), ("black", 12, "realm")]
    assert t.of(BattleEnded)[0].winner == "black"
    field = t.of(PointsScored)[-1]
    assert (field.tiles, field.symbols) == (5, 1)
    assert t.state.scores == {"black": 13, "red": 3, "white": 1}
    assert all(left == {"small": 4, "large": 1} for left in t.state.reserve.values())


def test_planet_attack_tie_at_5_then_red_takes_the_planet():
    """SW-4.3 / SW-5.2: red attacks white's large meeple on a Rebel planet: 2 dice each."""
    t = Table.scenario("worked_planet_attack_tie_at_5_then_red_takes_the_planet", steps=9)
    battle = t.of(BattleStarted)[0]
    assert [(s.side, s.dice) for s in battle.sides] == [("red", 2), ("white", 2)]
    t.step()  # red 5 1, white 5 3
    assert points(t) == [("red", 1, "tie"), ("white", 1, "tie")]
    t.step()  # red 5 2, white 4 4
    assert points(t)[2:] == [("white", 2, "defeat")]
    returned = t.of(MeepleReturned)
    assert [(m.player, m.figure) for m in returned] == [("white", "large")]
    hoth = t.state.board[(0, -1)]
    realm = t.state.realms.realm(hoth.nodes[hoth.tile.centre])
    assert [(c, figure) for c, figure, _ in realm.meeples] == [("red", "small")]
    assert t.state.scores == {"red": 1, "white": 3}


def test_final_scoring_of_every_realm_kind():
    """SW-7.2: fields 3 tiles + 1 symbol = 5, 1 tile = 1, 2 tiles = 2; planet with 3
    neighbours and its symbol = 6; route of 3 tiles = 3. A small tile set ends the game."""
    t = Table.scenario("worked_final_scoring_of_every_realm_kind", steps=21)
    assert not t.of(GameEnded)
    t.step(3)
    finals = sorted((e.realm.feature, e.side, e.points, e.tiles, e.symbols)
                    for e in t.of(PointsScored) if e.reason == "final")
    assert finals == [
        ("asteroid:E", "black", 5, 3, 1),
        ("asteroid:N", "black", 2, 2, 0),
        ("asteroid:N", "red", 1, 1, 0),
        ("planet", "red", 6, 4, 1),
        ("route:E", "red", 3, 3, 0),
    ]
    ended = t.of(GameEnded)[0]
    assert t.state.scores == {"red": 10, "black": 7}
    assert ended.winners == ("red",)
    assert t.waiting == "over"
