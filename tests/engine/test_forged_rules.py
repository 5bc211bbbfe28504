"""A forged log is caught naming the rule it breaks (``meeple.engine.check``): a digital draw
or die that is not the seed's, a tile placed by the player whose turn it is not, a side
rolling fewer dice than the rules give it. Each id named is one of RULES.md."""

import re
from pathlib import Path

import msgspec
import pytest

from meeple.engine import Game, random_move
from meeple.engine.check import verify
from meeple.events.model import DiceRolled, Roll, TileDrawn, TilePlaced

RULES = Path("/work/shared/RULES.md")


def _battle_game() -> Game:
    for seed in range(300):
        game = Game.new(["red", "black"], "star-wars", seed=f"forge-{seed}")
        while not game.over:
            game.push(random_move(game.state))
            if any(isinstance(e, DiceRolled) and len(e.rolls[0].values) > 1
                   for e in game.events):
                return game
    raise AssertionError("no battle with two dice a side in 300 games")


@pytest.fixture(scope="module")
def events():
    return list(_battle_game().events)


def _finding(events, index, **changes):
    forged = [*events[:index], msgspec.structs.replace(events[index], **changes)]
    verdict = verify(forged)
    assert verdict.finding is not None and verdict.finding.seq == index
    return verdict.finding


def _first(events, kind, after=3):
    return next(i for i, e in enumerate(events) if isinstance(e, kind) and i > after)


def test_a_draw_not_from_the_seed_names_the_draw_rule(events):
    i = _first(events, TileDrawn)
    other = next(e.tile for e in events if isinstance(e, TileDrawn) and e.tile != events[i].tile)
    assert _finding(events, i, tile=other).rule == "SW-3.1"


def test_a_die_not_from_the_seed_names_the_rule_that_dice_come_from_the_seed(events):
    i = _first(events, DiceRolled)
    first, *rest = events[i].rolls
    changed = Roll(first.side, tuple(v % 6 + 1 for v in first.values))
    assert _finding(events, i, rolls=(changed, *rest)).rule == "SW-5.6"


def test_a_side_rolling_fewer_dice_names_the_rule_of_its_dice(events):
    i = next(i for i, e in enumerate(events)
             if isinstance(e, DiceRolled) and len(e.rolls[0].values) > 1)
    first, *rest = events[i].rolls
    fewer = Roll(first.side, first.values[:-1])
    assert _finding(events, i, rolls=(fewer, *rest)).rule == "SW-5.2"


@pytest.mark.parametrize("edition, colours, rule", [("star-wars", ["red", "black"], "SW-2.2"),
                                                    ("classic", ["red", "blue"], "CL-3")])
def test_a_tile_placed_by_the_wrong_player_names_the_turn_rule(edition, colours, rule):
    game = Game.new(colours, edition, seed="forge")
    for _ in range(6):
        game.push(random_move(game.state))
    events = list(game.events)
    i = _first(events, TilePlaced)
    wrong = colours[1] if events[i].player == colours[0] else colours[0]
    finding = _finding(events, i, player=wrong)
    assert finding.rule == rule and f"{wrong} moved where it is" in finding.message


def test_every_rule_named_here_is_in_the_rules():
    if not RULES.exists():
        pytest.skip("RULES.md is not on this machine")
    text = RULES.read_text(encoding="utf-8")
    for rule in ("SW-3.1", "SW-5.6", "SW-5.2", "SW-2.2", "CL-3"):
        assert re.search(rf"^- {re.escape(rule)} |^### {re.escape(rule)} |^- {rule} ", text,
                         re.M), rule
