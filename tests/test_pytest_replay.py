"""The pytest plug-in's help for tests of bots and rules: the ``meeple_game`` fixture (the
plug-in is installed with meeple, so meeple's own tests have it) and ``assert_replays_same``,
which names the first line where a recorded game plays differently."""

import msgspec
import pytest
from battery import FIXTURES

from meeple.cli.pytest_plugin.replay import GameDiverged, assert_replays_same
from meeple.engine.playing import play
from meeple.events.model import PointsScored

from helpers import RECORDED

GREEDY = FIXTURES / "greedy_bots_3p_seed_0.jsonl"


def test_meeple_game_loads_a_recorded_game(meeple_game):
    game = meeple_game(FIXTURES / "classic_random_2p_seed_0.jsonl")
    assert game.over and game.edition.name == "classic" and len(game.events) == 300


def test_meeple_game_starts_a_new_game_from_a_seed(meeple_game):
    one = meeple_game(players=["red", "black"], seed="7")
    two = meeple_game(players=["red", "black"], edition="star-wars", seed="7")
    assert one.events == two.events and one.drawn is not None
    classic = meeple_game(players=["red", "blue"], edition="classic")
    assert classic.edition.name == "classic" and classic.setup.seed == "0"


def test_meeple_game_takes_a_path_or_a_set_up_not_both(meeple_game):
    with pytest.raises(TypeError, match="not both"):
        meeple_game(GREEDY, seed="1")
    with pytest.raises(TypeError, match="players"):
        meeple_game()


@pytest.mark.parametrize("path", RECORDED[::7], ids=lambda p: p.stem)
def test_recorded_games_replay_the_same(path):
    assert_replays_same(path)


def test_a_bot_game_replays_the_same_under_its_own_bot():
    assert_replays_same(GREEDY, "greedy-v1")  # (the fixture's bot: the first greedy)


def test_another_bot_departs_at_its_first_decision_with_the_line_and_both_events():
    with pytest.raises(GameDiverged) as caught:
        assert_replays_same(GREEDY, "random")
    lines = str(caught.value).splitlines()
    assert lines[0] == f"{GREEDY}:3: the replay departs from the recording"
    assert lines[1].startswith('    recorded: {"type":"tile_placed","seq":2,')
    assert lines[2].startswith('    replayed: {"type":"tile_placed","seq":2,')
    assert "    x: recorded 1, replayed 0" in lines


def test_a_rule_change_departs_at_the_first_score_it_changes():
    def generous(state, command):
        state, events = play(state, command)
        return state, [msgspec.structs.replace(e, points=e.points + 1)
                       if isinstance(e, PointsScored) else e for e in events]

    first = next(number for number, line in enumerate(GREEDY.read_text().splitlines(), 1)
                 if '"type":"points_scored"' in line)
    with pytest.raises(GameDiverged) as caught:
        assert_replays_same(GREEDY, play=generous)
    lines = str(caught.value).splitlines()
    assert lines[0] == f"{GREEDY}:{first}: the replay departs from the recording"
    assert any(line.startswith("    points: recorded ") for line in lines)


def test_an_unreadable_recording_is_named(tmp_path):
    game = tmp_path / "g.jsonl"
    game.symlink_to("/dev/zero")
    with pytest.raises(GameDiverged, match="g.jsonl: cannot be read: .*character device"):
        assert_replays_same(game)
