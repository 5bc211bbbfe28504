"""``meeple bot-check cmd:PATH``: a conformance test of a bot program against the bot protocol
(``docs/bot-protocol.md``), each check passed or failed with its reason.

A whole Star Wars game and a whole classic game, the program in every seat (a process a
game, as ``autoplay`` runs it): it must start, say hello in version 2 or answer as a version
1 bot, answer every position with a legal move in the time allowed, and exit within the
grace once its input is closed (after ``over``, in version 2). A version 2 bot is also
told once that a legal answer is refused (``error``), and must answer again with a legal
move.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.cli.external import EXIT_GRACE, BotFailure, ExternalBot
from meeple.engine import Game, edition_named, new_game
from meeple.events.text import escaped

#: the editions a bot is checked in, each a whole game
EDITIONS = ("star-wars", "classic")
#: the decision at which a version 2 bot's answer is refused, to test its retry
REFUSED_AT = 3
#: what the refused answer is told
REFUSAL = ("bot-check refuses this answer on purpose, to test error feedback: answer again "
           "with any legal move")


@dataclass
class Check:
    """One check of a bot: its name, whether it passed, and what was seen."""

    name: str
    passed: bool
    detail: str


def check_program(spec: str, move_time: float, tilesets: dict) -> list[Check]:
    """Every check of the program ``spec`` names, in order; ``tilesets``: {edition: tile set}.
    A game the bot fails is not played on, the checks after it in that game fail with it."""
    checks: list[Check] = []
    for edition in EDITIONS:
        checks.extend(_one_game(spec, move_time, edition, tilesets[edition],
                                handshake=not checks))
    return checks


def _one_game(spec: str, move_time: float, edition: str, tileset, *,
              handshake: bool) -> list[Check]:
    colours = list(edition_named(edition).colours[:2])
    game = Game.begin(new_game(colours, tileset, names=["first", "second"],
                               seed=f"bot-check-{edition}"))
    checks: list[Check] = []
    bot = ExternalBot(spec, move_time)
    decisions = 0
    with bot:
        try:
            game.resolve()
            while game.phase in ("place", "meeple"):
                if decisions == REFUSED_AT and bot.version == 2:
                    bot.refuse_next = REFUSAL
                game.push(bot(game.state))
                decisions += 1
                if decisions == 1 and handshake:
                    checks.append(_handshake(bot))
                if decisions == REFUSED_AT + 1 and bot.version == 2:
                    checks.append(Check(f"{edition} error feedback", True,
                                        "answered again, legally, after an error"))
            bot.finish(game.state)
        except BotFailure as exc:
            if decisions == 0 and handshake:
                checks.append(Check("handshake", False, exc.reason))
            if decisions == REFUSED_AT and bot.version == 2:
                checks.append(Check(f"{edition} error feedback", False, exc.reason))
            checks.append(Check(f"{edition} game", False, f"after {decisions} legal moves, "
                                f"at turn {game.turn}: {exc.reason}"))
            return checks
    checks.append(Check(f"{edition} game", True, f"{decisions} legal moves, a whole game "
                        f"({_scores(game)})"))
    if bot.exited_in_grace:
        checks.append(Check(f"{edition} exit", True, "exited at the end of the game"
                            + (" (told it was over)" if bot.version == 2 else "")))
    else:
        checks.append(Check(f"{edition} exit", False, f"still running {EXIT_GRACE:g} s after "
                            "its input was closed: stopped"))
    return checks


def _handshake(bot: ExternalBot) -> Check:
    if bot.hello is None:
        return Check("handshake", True, "version 1: no hello, answered its first move")
    hello = bot.hello
    options = ", ".join(f"{o.name} ({o.type}, default {o.default!r})" for o in hello.options)
    return Check("handshake", True, escaped(
        f"version 2: {' '.join(filter(None, (hello.name, hello.version)))}"
        + (f" by {hello.author}" if hello.author else "") + f"; options: {options or 'none'}"
    )[:300])


def _scores(game: Game) -> str:
    state = game.state
    return ", ".join(f"{c} {state.scores[state.side_of[c]]}" for c in state.side_of)
