"""Carcassonne: Star Wars Edition (RULES.md Part 1): its data, battles and scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.engine import chance
from meeple.engine.edition import Edition, Figure, Term, Vocabulary, sides_present
from meeple.events.model import (
    BattleEnded,
    BattleSide,
    BattleStarted,
    DiceRolled,
    Event,
    MeepleReturned,
    PointsScored,
    Roll,
)

if TYPE_CHECKING:
    from meeple.engine.realms import Realm
    from meeple.engine.state import Battle, GameState

#: SW-5.2: the most dice a side rolls in one battle
MAX_DICE = 3
#: SW-6.3: a completed planet scores 9 (itself and its 8 neighbours) + 2 per symbol
PLANET_POINTS = 9


class StarWars(Edition):
    """SW-1 to SW-8: factions, small and large meeples, battles with dice, the team variant."""

    name = "star-wars"
    title = "Carcassonne: Star Wars Edition"
    colours = ("red", "green", "black", "white", "orange")
    factions = {"red": "rebel", "green": "rebel", "black": "empire", "white": "empire",
                "orange": "bounty_hunter"}  # SW-1.5
    figures = (Figure("small", 4), Figure("large", 1, strength=2))  # SW-1.6, SW-5.2
    figure = "meeple"
    vocabulary = Vocabulary(("space", "route", "asteroid"), "route", "asteroid", "planet", None,
                            "SW-1.3")
    tileset = "star-wars"
    score_columns = {"defeat": "battles", "tie": "battles"}
    team_rule = "SW-8.1"
    unplaceable = ("discard", "reshuffle")
    attack = "planet"  # SW-4.3
    rules = {
        "players": "SW-1.5", "place": "SW-3.1", "draw": "SW-3.1", "unplaceable": "SW-3.2",
        "meeple": "SW-4.2", "target": "SW-4.1", "reserve": "SW-4.4", "tiles": "SW-1.1",
        "start": "SW-2.1", "chance": "SW-5.6", "attack": "SW-4.3", "dice": "SW-5.3", "resolve": "SW-5.1",
        "complete": "SW-6.3", "final": "SW-7.2", "end": "SW-7.1", "winners": "SW-7.3",
    }
    target_syntax = ("targets are route:E, asteroid:N (edge N, E, S or W as the tile lies), "
                     "planet, planet@X,Y")

    def completed_points(self, realm: Realm) -> tuple[int, int, int]:
        """SW-6.3: route 1 per tile, asteroid field 2 per tile, planet 9; + 2 per symbol.

        >>> from meeple.engine.realms import Realm
        >>> StarWars().completed_points(Realm.new("asteroid", (0, 0), "empire", 0, 0))
        (4, 1, 1)
        """
        symbols = realm.symbol_count()
        if realm.kind == "planet":
            return PLANET_POINTS + 2 * symbols, PLANET_POINTS, symbols
        tiles = len(realm.tiles)
        per_tile = 2 if realm.kind == "asteroid" else 1
        return per_tile * tiles + 2 * symbols, tiles, symbols

    def final_points(self, realm: Realm, neighbours: int) -> tuple[int, int, int]:
        """SW-7.2: 1 per tile (a planet: itself and its neighbours) + 2 per symbol."""
        symbols = realm.symbol_count()
        tiles = 1 + neighbours if realm.kind == "planet" else len(realm.tiles)
        return tiles + 2 * symbols, tiles, symbols

    def contest(self, state: GameState, seq: int, realm: Realm) -> Event | None:
        """SW-5.1: a realm the turn touched that several sides hold starts a battle, each side
        with its dice (SW-5.2)."""
        if len(realm.meeples) < 2:
            return None
        sides = sides_present(realm, state.side_of, state.sides)
        if len(sides) < 2:
            return None
        return BattleStarted(
            seq=seq, realm=state.realms.spot(realm.anchor),
            sides=tuple(BattleSide(side=s, dice=self.dice_for(state, realm, s)) for s in sides),
        )

    def contest_step(self, state: GameState, seq: int) -> Event | None:
        """SW-5.3 / SW-5.4: losers score per die and go home, ties score 1 and roll again."""
        battle = state.battle
        assert battle is not None
        if battle.roll is None:
            return roll_dice(state, battle, seq) if state.digital and state.chance_known else None
        roll = battle.roll
        top = max(max(values) for values in roll.values())
        for side in battle.active:
            if max(roll[side]) < top:
                return PointsScored(seq=seq, side=side, points=battle.dice[side], reason="defeat",
                                    rule="SW-5.4", realm=battle.spot, dice=battle.dice[side])
        realm = state.realms.data[battle.root]
        assert realm is not None
        for colour, figure, node in realm.meeples:
            if state.side_of[colour] not in battle.active:
                return MeepleReturned(seq=seq, player=colour, figure=figure,
                                      spot=state.realms.spot(node))
        if len(battle.active) == 1:
            return BattleEnded(seq=seq, realm=battle.spot, winner=battle.active[0])
        for side in battle.active:
            if side not in battle.tie_paid:
                return PointsScored(seq=seq, side=side, points=1, reason="tie", rule="SW-5.3",
                                    realm=battle.spot, dice=battle.dice[side])
        return roll_dice(state, battle, seq) if state.digital and state.chance_known else None

    def dice_for(self, state: GameState, realm: Realm, side: str) -> int:
        """SW-5.2 / SW-8.3: 1 per small meeple, 2 per large (its figure's strength), +1 for a
        symbol of the side's faction, at most ``MAX_DICE``."""
        strength = self.strengths
        side_of = state.side_of
        dice = sum(strength[figure] for colour, figure, _ in realm.meeples if side_of[colour] == side)
        if realm.symbols.get(state.faction[side]):
            dice += 1
        return min(dice, MAX_DICE)

    def scorers(self, realm: Realm, side_of: dict[str, str], sides: tuple[str, ...]) -> list[str]:
        """The one side left holding the realm: battles come first (SW-5, SW-6.1)."""
        return sides_present(realm, side_of, sides)

    def terms(self, reason: str, kind: str, tiles: int, symbols: int, dice: int,
              cities: int) -> tuple[Term, ...]:
        """SW-6.3 (completed), SW-7.2 (the end), SW-5.3 (a tied round: 1), SW-5.4 (a defeat:
        1 per die, no symbols).

        >>> from meeple.engine.edition import formula
        >>> formula(StarWars().terms("realm", "asteroid", 3, 1, 0, 0))
        '3 tiles x 2 + 1 symbol x 2 = 8'
        """
        if reason == "tie":
            return (Term(1, 1, "tied round", "tied rounds"),)
        if reason == "defeat":
            return (Term(dice, 1, "die", "dice"),)
        if kind == "planet" and reason == "realm":
            base = Term(1, PLANET_POINTS, "planet", "planets")
        elif kind == "planet":
            base = Term(tiles, 1, "tile (the planet and its neighbours)",
                        "tiles (the planet and its neighbours)")
        else:
            base = Term(tiles, 2 if kind == "asteroid" and reason == "realm" else 1, "tile",
                        "tiles")
        return (base, Term(symbols, 2, "symbol", "symbols")) if symbols else (base,)


def roll_dice(state: GameState, battle: Battle, seq: int) -> DiceRolled:
    """SW-5.6: every side still in the battle rolls its dice from the seeded stream."""
    rolls = []
    index = state.dice_used
    for side in battle.active:
        values = []
        for _ in range(battle.dice[side]):
            values.append(chance.die(state.seed, index))
            index += 1
        rolls.append(Roll(side=side, values=tuple(values)))
    return DiceRolled(seq=seq, rolls=tuple(rolls))
