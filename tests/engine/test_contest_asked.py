"""An edition's contest hook (``Edition.contest``) is asked only of a realm that two figures
or more hold; an edition that notes what it is asked starts the same battles as Star Wars."""

import msgspec

from meeple.engine import EDITIONS, Game, edition_named, random_move
from meeple.events.model import BattleStarted
from meeple.events.tileset import bundled

StarWars = type(edition_named("star-wars"))


class Recording(StarWars):
    """Star Wars, noting how many figures each realm asked about holds."""

    name = "star-wars-recording"

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    def contest(self, state, seq, realm):
        self.asked.append(len(realm.meeples))
        return super().contest(state, seq, realm)


def test_the_contest_is_asked_only_where_two_figures_or_more_stand(monkeypatch):
    edition = Recording()
    monkeypatch.setitem(EDITIONS, edition.name, edition)
    tileset = msgspec.structs.replace(bundled("star-wars"), edition=edition.name)
    battles = []
    for seed in ("c1", "c2", "c3"):
        game = Game.new(["red", "black"], tileset=tileset, seed=seed)
        while not game.over:
            game.push(random_move(game.state))
        battles += [e for e in game.events if isinstance(e, BattleStarted)]
        plain = Game.new(["red", "black"], "star-wars", seed=seed)
        while not plain.over:
            plain.push(random_move(plain.state))
        assert [e for e in plain.events if isinstance(e, BattleStarted)] \
            == [e for e in game.events if isinstance(e, BattleStarted)]
    assert battles and edition.asked
    assert min(edition.asked) >= 2
