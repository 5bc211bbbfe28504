"""``meeple simulate``: complete bot-played games written as logs, with recorded seeds."""

from __future__ import annotations

import os

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


def _one(job: tuple) -> dict:
    path, players, seed, bot, team, unplaceable, tileset = job
    return simulate_one(path, players, seed, bot, team, unplaceable, tileset)


def run_simulate(out: str, players: list[str], games: int, seed: str, bot: str, team: bool,
                 unplaceable: str, as_json: bool, jobs: int = 0, tileset=None) -> None:
    """Write ``games`` games (seeds SEED-0, SEED-1, ...) in ``jobs`` processes."""
    from meeple.cli.checking import _progress
    from meeple.cli.parallel import ordered_map

    tileset = tileset or load_tileset(None)
    new_game(players, tileset, seed=seed, team=team, unplaceable=unplaceable)
    os.makedirs(out, exist_ok=True)
    work = [(os.path.join(out, f"game-{seed}-{i}.jsonl"), players, f"{seed}-{i}", bot, team,
             unplaceable, tileset) for i in range(games)]
    results = []
    with _progress(games, as_json) as advance:
        for result in ordered_map(_one, work, jobs):
            results.append(result)
            advance()
    if as_json:
        emit_json(results)
        return
    for result in results:
        scores = " ".join(f"{s} {p}" for s, p in result["scores"].items())
        say(f"{result['file']}: {scores}; winner(s) {', '.join(result['winners'])}")
