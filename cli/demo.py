"""``meeple demo``: a seeded 3-player game between search bots, shown with what made it
worth watching (a battle with dice, a planet attacked, a planet completed, the final
scoring), the board, the score table and the log's verification; then what to try next.

The bots are the game's recorded seats (``new --bot``), so the log itself says who played,
and the seed is pinned by a test that the game still shows every one of those moments.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from meeple.cli.output import say
from meeple.cli.pictures.narrate import tell
from meeple.engine import GameState
from meeple.events.model import BattleStarted, DiceRolled, Event, MeeplePlaced, PointsScored

#: the demo's bot: a short search, so the whole game takes a second or two of CPU
DEMO_BOT = "mcts:50"
DEMO_SEED = "2013"
DEMO_PLAYERS = "red,black,orange"


def highlights(events: Sequence[Event], state: GameState) -> list[tuple[str, list[Event]]]:
    """The first battle (its start and first dice), the first planet attack, the first
    completed planet and the first final scoring, as (what it was, its events), in log
    order; those the game lacks are left out."""
    edition = state.edition
    attack = edition.attack
    found: dict[str, list[Event]] = {}
    for event in events:
        if isinstance(event, BattleStarted):
            found.setdefault("a battle", [event])
        elif isinstance(event, DiceRolled) and len(found.get("a battle", ())) == 1:
            found["a battle"].append(event)
        elif isinstance(event, MeeplePlaced) and attack and event.target.startswith(f"{attack}@"):
            found.setdefault(f"a {attack} attacked", [event])
        elif isinstance(event, PointsScored) and event.reason == "realm" \
                and event.realm.feature == edition.vocabulary.centre:
            found.setdefault(f"a {edition.vocabulary.centre} completed", [event])
        elif isinstance(event, PointsScored) and event.reason == "final":
            found.setdefault("the final scoring", [event])
    return sorted(found.items(), key=lambda moment: moment[1][0].seq)


def run_demo(path: str, players: list[str], seed: str, kept: bool = True) -> int:
    """Play, show and check the demo game at ``path`` (``kept``: left there after); the
    check's exit code."""
    from meeple.cli.checking import run_check
    from meeple.cli.report import print_board, print_score
    from meeple.cli.session import start_game
    from meeple.cli.store import game_tileset, load

    start_game(path, players, game_tileset(None, None, []), seed=seed,
               bots={colour: DEMO_BOT for colour in players})
    game = load(path)
    where = f"into {path}" if kept else ("not kept (`meeple demo --out demo.jsonl` keeps it in "
                                         "that file)")
    say(f"Played a {len(players)}-player demo game between search bots ({DEMO_BOT}, seed "
        f"{seed}), {where}\n")
    moments = highlights(game.events, game.state)
    if moments:
        say("Moments worth replaying (log line: what happened):")
        for what, shown in moments:
            say(f"  {what}:")
            for event in shown:
                say(f"    {event.seq + 1:>4}  {tell(event, game.state.edition)}")
        say()
    print_board(game, game.state, plain=False, compact=False, as_json=False)
    say()
    print_score(game.state, False)
    say()
    return run_check([path], None, False)


def next_steps(kept: str | None) -> str:
    """What to try after the demo."""
    game = shlex.quote(kept or "demo.jsonl")
    steps = [] if kept else [(f"meeple demo --out {game}", "keep the game, to look again")]
    steps += [(f"meeple replay {game}", "the whole story, line by line"),
              (f"meeple export {game} --html demo.html", "replay it in a browser"),
              ("meeple new my.jsonl --players red,black --bot black", "a game against the "
                                                                       "default bot..."),
              ("meeple play my.jsonl", "...played at the terminal")]
    width = max(len(command) for command, _ in steps)
    return "\nTry next:\n" + "\n".join(f"  {command:<{width}}  {why}" for command, why in steps)
