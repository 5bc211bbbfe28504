"""``meeple simulate``: complete bot-played games written as logs, with recorded seeds."""

from __future__ import annotations

import os
import sys

from meeple.cli.output import emit_json, say
from meeple.cli.store import load_tileset
from meeple.engine.bots import run_turns
from meeple.engine.play import settle
from meeple.engine.setup import new_game
from meeple.engine.state import start
from meeple.events import log as logfile


def simulate_one(path: str, players: list[str], seed: str, bot: str, team: bool,
                 unplaceable: str, tileset=None) -> dict:
    """Play one seeded game to the end with a bot and write its log; returns a summary."""
    first = new_game(players, tileset or load_tileset(None), seed=seed, team=team,
                     unplaceable=unplaceable)
    state, opening = settle(start(first))
    state, events = run_turns(state, bot, None)
    head = logfile.create(path, [first, *opening, *events])
    return {"file": path, "seed": seed, "scores": dict(state.scores),
            "winners": list(state.winners or ()), "head": head}


def run_simulate(out: str, players: list[str], games: int, seed: str, bot: str, team: bool,
                 unplaceable: str, as_json: bool) -> None:
    os.makedirs(out, exist_ok=True)
    tileset = load_tileset(None)
    results = []
    progress = None
    if sys.stderr.isatty() and not as_json:
        from rich.progress import Progress

        progress = Progress(transient=True)
        progress.start()
        task = progress.add_task("simulating", total=games)
    try:
        for i in range(games):
            game_seed = f"{seed}-{i}"
            path = os.path.join(out, f"game-{game_seed}.jsonl")
            results.append(simulate_one(path, players, game_seed, bot, team, unplaceable,
                                        tileset))
            if progress is not None:
                progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    if as_json:
        emit_json(results)
        return
    for result in results:
        scores = " ".join(f"{s} {p}" for s, p in result["scores"].items())
        say(f"{result['file']}: {scores}; winner(s) {', '.join(result['winners'])}")
