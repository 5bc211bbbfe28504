"""``hint`` in ``play``: what a bot would play now, said in what to type, and why: the
change it makes to the side's projected score (its points plus what the end of the game
would pay for the realms its figures hold, ``meeple.engine.projected``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from meeple.engine import (
    Command,
    GameState,
    PlaceMeeple,
    PlaceTile,
    SkipMeeple,
    TakeBack,
    awaiting,
    bot_named,
    play,
    projected,
)


def typed(state: GameState, command: Command) -> str:
    """A command as it is typed at ``play``'s prompt: a placement by its label (``b2``)."""
    if isinstance(command, PlaceTile):
        from meeple.cli.labels import rotation_number, spots

        named = {(x, y): name for name, (x, y, _) in spots(state).items()}
        if (command.x, command.y) in named:
            return f"{named[(command.x, command.y)]}{rotation_number(command.rotation)}"
        return f"place {command.x} {command.y} {command.rotation}"
    if isinstance(command, PlaceMeeple):
        figure = command.figure
        which = ("" if figure in ("", state.edition.figures[0].name) else
                 " --large" if figure == "large" else f" --figure {figure}")
        return f"deploy {command.target}{which}"
    if isinstance(command, TakeBack):
        return f"take-back {command.x} {command.y} {command.target}"
    if isinstance(command, SkipMeeple):
        return "skip"
    return type(command).__name__


def hint(state: GameState, bot: str) -> str:
    """What ``bot`` would play for the player to act in ``state`` (a placement with the
    figure it would then place), and the projected score of the player's side before and
    after."""
    if awaiting(state) not in ("place", "meeple"):
        raise ValueError("the game does not wait for a placement or a figure")
    choose = bot_named(bot, time.process_time)
    side = state.side_of[state.player]
    before = projected(state)[side]
    first = choose(state)
    words = [typed(state, first)]
    after, _ = play(state.copy(), first)
    if isinstance(first, PlaceTile) and awaiting(after) == "meeple" \
            and after.player == state.player:
        then = choose(after)
        words.append(f"then {typed(after, then)}")
        after, _ = play(after, then)
    gain = projected(after)[side] - before
    why = f"projected score {before} → {before + gain} ({gain:+d})"
    return f"hint ({bot}): {' '.join(words)} · {why}"


def hint_beside(state: GameState, bot: str, done: Callable[[str, bool], None]) -> None:
    """Look for ``hint`` in a thread of its own (a search of a few seconds), then call
    ``done`` with its text, and whether it is an error, in this thread's event loop."""
    loop = asyncio.get_running_loop()

    def search() -> None:
        try:
            text, error = hint(state, bot), False
        except Exception as exc:  # a hint that cannot be given is said, not raised
            text, error = f"no hint: {exc}", True
        loop.call_soon_threadsafe(done, text, error)

    threading.Thread(target=search, daemon=True).start()
