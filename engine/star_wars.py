"""Carcassonne: Star Wars Edition (RULES.md Part 1): its data, battles and scoring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.engine.edition import Edition, Figure, Look, Term, Vocabulary, sides_present
from meeple.engine.joint import dice_values
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

#: how Star Wars games are drawn and told (``meeple.cli.pictures`` renders it)
LOOK = Look(
    realm_words={"route": "route", "asteroid": "asteroid field", "planet": "planet"},
    legend_words={"route": "trade route", "asteroid": "asteroid field", "planet": "planet"},
    reasons={"tie": "tied the top roll in the battle for {realm}",
             "defeat": "lost the battle for {realm}, 1 per die rolled: {formula}"},
    reason_words={"defeat": "battle lost", "tie": "battle tied"},
    glyphs={"planet": "@", "rebel": "^", "empire": "%", "bounty_hunter": "$"},
    styles={"rebel": "bold red", "empire": "bold cyan", "bounty_hunter": "bold yellow",
            "route": "bright_white", "asteroid": "grey50", "planet": "bold blue"},
    svg_defs=(
        (10, '<pattern id="stars" width="100" height="100" patternUnits="userSpaceOnUse">'
             '<circle cx="13" cy="21" r="0.9" fill="#c9d6ff"/><circle cx="71" cy="9" r="0.6" '
             'fill="#fff"/><circle cx="88" cy="64" r="0.8" fill="#c9d6ff"/><circle cx="37" '
             'cy="83" r="0.6" fill="#fff"/><circle cx="58" cy="42" r="0.5" fill="#fff"/>'
             '</pattern>'),
        (11, '<pattern id="rocks" width="24" height="24" patternUnits="userSpaceOnUse">'
             '<rect width="24" height="24" fill="#6f655b"/><circle cx="6" cy="7" r="3.2" '
             'fill="#857a6e"/><circle cx="17" cy="15" r="4" fill="#5a5249"/><circle cx="9" '
             'cy="19" r="2" fill="#948878"/></pattern>'),
        (12, '<radialGradient id="planet" cx="0.35" cy="0.35" r="0.7"><stop offset="0" '
             'stop-color="#8ec5ff"/><stop offset="1" stop-color="#1d4e9e"/></radialGradient>'),
        (30, '<g id="sym-rebel"><circle r="7" fill="#c1121f" stroke="#fff" stroke-width="1.2"/>'
             '<path d="M0,-4.5 L3.2,3 L0,1.2 L-3.2,3 Z" fill="#fff"/></g>'),
        (31, '<g id="sym-empire"><path d="M7,0 L3.5,6.1 L-3.5,6.1 L-7,0 L-3.5,-6.1 L3.5,-6.1 Z" '
             'fill="#adb5bd" stroke="#212529" stroke-width="1.2"/><circle r="2.6" '
             'fill="#212529"/></g>'),
        (32, '<g id="sym-bounty_hunter"><rect x="-6.5" y="-6.5" width="13" height="13" rx="3" '
             'fill="#e9c46a" stroke="#3d2c00" stroke-width="1.2"/>'
             '<path d="M-4.5,-2.5 H4.5 V-0.5 H1 V4.5 H-1 V-0.5 H-4.5 Z" fill="#3d2c00"/></g>'),
    ),
    svg_style=(
        (10, ".route{fill:none;stroke:#efe6c4;stroke-width:7;stroke-linecap:round}"),
        (11, ".route-dash{fill:none;stroke:#9c7c1c;stroke-width:1.6;stroke-dasharray:5 5}"),
        (12, ".asteroid{fill:url(#rocks);stroke:#3f3830;stroke-width:1.5}"),
        (30, ".planet-name{font:bold 11px sans-serif;fill:#fff;text-anchor:middle;"
             "paint-order:stroke;stroke:#0b1030;stroke-width:3}"),
    ),
    svg_ground=('<rect width="100" height="100" fill="#111a45"/>'
                '<rect width="100" height="100" fill="url(#stars)" stroke="#28336e" '
                'stroke-width="0.8"/>'),
    svg_kinds={"route": '<path class="route" d="{d}"/><path class="route-dash" d="{d}"/>',
               "asteroid": '<path class="asteroid" d="{d}"/>',
               "planet": '<circle cx="50" cy="50" r="19" fill="url(#planet)" stroke="#bfe0ff" '
                         'stroke-width="1.5"/>'},
    svg_name='<text class="planet-name" x="50" y="86">{name}</text>',
    svg_hub=("#2a2f4a", "#efe6c4"),
    symbol_names={"rebel": "Rebel Alliance symbol", "empire": "Galactic Empire symbol",
                  "bounty_hunter": "bounty hunter symbol"},
    svg_legend={
        "asteroid": ('<rect class="asteroid" x="-11" y="-9" width="22" height="18"/>',
                     "asteroid field"),
        "planet": ('<circle r="10" fill="url(#planet)" stroke="#bfe0ff" stroke-width="1.2"/>',
                   "planet (named below)"),
    },
)


class StarWars(Edition):
    """SW-1 to SW-8: factions, small and large meeples, battles with dice, the team variant."""

    name = "star-wars"
    title = "Carcassonne: Star Wars Edition"
    colours = ("red", "green", "black", "white", "orange")
    factions = {"red": "rebel", "green": "rebel", "black": "empire", "white": "empire",
                "orange": "bounty_hunter"}  # SW-1.5
    figures = (Figure("small", 4), Figure("large", 1, strength=2))  # SW-1.6, SW-5.2
    figure = "meeple"
    tile_symbols = ("rebel", "empire", "bounty_hunter")  # SW-1.4
    vocabulary = Vocabulary(("space", "route", "asteroid"), "route", "asteroid", "planet", None,
                            "SW-1.3")
    tileset = "star-wars"
    tileset_sha256 = {"star-wars": "41ccdbfc9df8195c9d77cc070e4bb381a2668ec00069471501c6865f033500ec"}
    tileset_note = ("the bundled Star Wars tile set is a reconstruction (no tile-by-tile list of "
                    "the box was available); owners can enter their box in a tile set file and "
                    "play with that")
    score_columns = {"defeat": "battles", "tie": "battles"}
    team_rule = "SW-8.1"
    unplaceable = ("discard", "reshuffle")
    attack = "planet"  # SW-4.3
    look = LOOK
    #: four small meeples and a large one a player (SW-1.6): scarcer than classic followers
    reserve_worth = 3.0
    rules = {
        "players": "SW-1.5", "place": "SW-3.1", "draw": "SW-3.1", "unplaceable": "SW-3.2",
        "meeple": "SW-4.2", "target": "SW-4.1", "reserve": "SW-4.4", "tiles": "SW-1.1",
        "start": "SW-2.1", "chance": "SW-5.6", "attack": "SW-4.3", "dice": "SW-5.3", "resolve": "SW-5.1",
        "contest": "SW-5.2", "symbols": "SW-1.4", "take-back": "SW-4.1", "turn": "SW-2.2",
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
            return roll_dice(state, battle, seq)
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
        return roll_dice(state, battle, seq)

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


def roll_dice(state: GameState, battle: Battle, seq: int) -> DiceRolled | None:
    """SW-5.6: every side still in the battle rolls its dice, from the game's chance
    (``meeple.engine.joint.dice_values``); ``None`` while they are to be entered or revealed."""
    values = dice_values(state, sum(battle.dice[side] for side in battle.active))
    if values is None:
        return None
    rolls = []
    at = 0
    for side in battle.active:
        count = battle.dice[side]
        rolls.append(Roll(side=side, values=tuple(values[at:at + count])))
        at += count
    return DiceRolled(seq=seq, rolls=tuple(rolls))
