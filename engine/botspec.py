"""Bot specs, read strictly: ``random``, ``greedy``, ``greedy-v1``, ``lookahead``, ``mcts`` and
``mcts-learned`` (``MCTS_ITERATIONS`` iterations a move), ``mcts-v1`` (1,000), ``mcts:N`` (N
iterations, 1 to 200,000) and ``mcts:Xs`` (X CPU seconds a move, above 0 and at most 3,600;
digits and at most one decimal point), and so ``mcts-v1:N``, ``mcts-learned:Xs`` and the
like. One grammar for the command line and for the bot seats a log records, so a spec one
accepts the other reads. Pure, no bot imported.
"""

from __future__ import annotations

import re

from meeple.engine.errors import InvalidCommand

#: every bot a spec may name
BOT_NAMES = ("random", "greedy", "greedy-v1", "lookahead", "mcts", "mcts-v1", "mcts-learned")
#: the bots that take a budget, with their iterations a move without one
SEARCHES = {"mcts": 1200, "mcts-v1": 1000, "mcts-learned": 1200}
#: iterations a move of ``mcts`` without a budget, and the most a spec may ask for
MCTS_ITERATIONS = SEARCHES["mcts"]
MAX_ITERATIONS = 200_000
#: the most CPU seconds a move a spec may ask for
MAX_SECONDS = 3600.0
BOT_SYNTAX = ("bots: random, greedy, greedy-v1, lookahead, mcts, mcts:N (iterations a move), mcts:Xs "
              "(CPU seconds a move), mcts-v1 and mcts-learned (and NAME:N, NAME:Xs)")
#: the budget part: N, or X with at most one decimal point, then ``s``
_BUDGET = re.compile(r"(?P<n>[0-9]{1,12})|(?P<x>[0-9]{0,12}(?:\.[0-9]{1,12})?)s", re.ASCII)


def read_spec(spec: str) -> tuple[str, int | None, float | None]:
    """(bot name, iterations, seconds) of a spec; a budget the bot has no use for, or one out
    of range or not written in plain digits, is refused.

    >>> read_spec("mcts:0.5s"), read_spec("greedy"), read_spec("mcts:500")
    (('mcts', None, 0.5), ('greedy', None, None), ('mcts', 500, None))

    :raises InvalidCommand: with the specs there are.
    """
    name, colon, budget = spec.partition(":")
    if name not in BOT_NAMES:
        raise InvalidCommand(f"unknown bot {spec!r}", legal=BOT_SYNTAX)
    if not colon:
        return name, SEARCHES.get(name), None
    if name not in SEARCHES:
        raise InvalidCommand(f"the {name} bot takes no budget ({spec!r})", legal=BOT_SYNTAX)
    found = _BUDGET.fullmatch(budget)
    if found is None or found.group("x") in ("", "."):
        raise InvalidCommand(f"cannot read the budget of {spec!r}: write N (iterations) or X "
                             "(seconds, e.g. 0.5) then s, in digits", legal=BOT_SYNTAX)
    if found.group("n") is not None:
        iterations = int(found.group("n"))
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise InvalidCommand(f"a bot's iterations a move must be 1 to {MAX_ITERATIONS:,} "
                                 f"({spec!r})", legal=BOT_SYNTAX)
        return name, iterations, None
    seconds = float(found.group("x"))
    if not 0 < seconds <= MAX_SECONDS:
        raise InvalidCommand(f"a bot's seconds a move must be above 0 and at most "
                             f"{MAX_SECONDS:g} ({spec!r})", legal=BOT_SYNTAX)
    return name, None, seconds


def sees_only_the_table(spec: str) -> bool:
    """Whether a bot chooses from what a player sees (``mcts``, ``lookahead``, a program),
    and so may play in table mode and in sealed games; ``random`` and ``greedy`` take their
    choices from the game's seed."""
    return spec.startswith(("mcts", "lookahead", "cmd:"))
