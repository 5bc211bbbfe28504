"""``hint`` in ``play``: what a bot would play now, said in what to type, and why: the
change it makes to the side's projected score (its points plus what the end of the game
would pay for the realms its figures hold, ``meeple.engine.projected``)."""

from __future__ import annotations

import time

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
        large = " --large" if command.figure == "large" else ""
        return f"deploy {command.target}{large}"
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
