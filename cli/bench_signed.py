"""``meeple bench``'s figure for remote games (docs/guide/remote.md): checking a signed
2-player game, every signature and every rule, against checking a local game of the same
edition, seats and moves policy, per line."""

from __future__ import annotations

import os
import random
import secrets
import tempfile
from collections.abc import Callable

import msgspec

from meeple.engine import Game, PlaceMeeple, SkipMeeple
from meeple.engine.protocol import Chains, duty, waiting_for
from meeple.events import log as logfile
from meeple.events.model import Remote


def signed_game(folder: str, seed: str, *, lines: int | None = None,
                public: bool = False) -> str:
    """A whole remote 2-player classic game played by the protocol with random moves, each
    seat's lines signed with its own new key (``FOLDER/keyS``); returns the log's path. With
    ``lines``, only its opening: the first message that reaches that many lines ends it;
    ``public``: a game a relay lists."""
    from meeple.events.signing import load_signer, new_key

    rng = random.Random(seed)
    colours = ["red", "blue"]
    keys = [new_key(os.path.join(folder, f"key{s}")).openssh for s in range(2)]
    signers = [load_signer(os.path.join(folder, f"key{s}")) for s in range(2)]
    remote = Remote(game=secrets.token_hex(16), keys=tuple(keys), host=0, chain=100,
                    public=True if public else msgspec.UNSET)
    game = Game.new(colours, "classic", remote=remote)
    chains = [Chains(remote, s, rng.randbytes(32)) for s in range(2)]
    path = os.path.join(folder, "signed.jsonl")
    seat, last = 0, 0
    while not game.over and (lines is None or len(game.events) < lines):
        write_message(game, chains[seat], last, rng)
        game.save(path if game.path is None else None, sign=signers[seat].sign, seat=seat)
        last = seat
        waiting = waiting_for(game.state, last)
        seat = waiting[0] if waiting else seat
    return path


def write_message(game: Game, chains: Chains, last: int, rng: random.Random) -> None:
    """The seat of ``chains`` writes its message: what it owes and random moves, until the
    game waits for another seat (``last``: the seat that wrote the line before)."""
    seat = chains.seat
    while not game.over:
        command = duty(game.state, chains)
        if command is None:
            waiting = waiting_for(game.state, last)
            if not waiting or waiting[0] != seat:
                return
            command = _random_move(game, rng)
        game.push(command)


def local_game(folder: str, seed: str) -> str:
    """A local seeded 2-player classic game by the same random moves; returns its path."""
    rng = random.Random(seed)
    game = Game.new(["red", "blue"], "classic", seed=seed)
    while not game.over:
        game.push(_random_move(game, rng))
    path = os.path.join(folder, "local.jsonl")
    game.save(path)
    return path


def _random_move(game: Game, rng: random.Random):
    moves = game.legal_moves()
    if game.phase == "place":
        return rng.choice(moves)
    targets = moves[0].targets if moves else ()
    if targets and rng.random() < 0.5:
        return PlaceMeeple(rng.choice(targets), rng.choice(moves[0].figures))
    return SkipMeeple()


def check_signed(timed: Callable[[Callable[[], object]], float]) -> tuple[float, int, int]:
    """The CPU time of checking a signed game per line over that of a local one, and both
    games' line counts. ``timed`` gives a callable's CPU time (the bench's median)."""
    with tempfile.TemporaryDirectory(prefix="meeple-bench-") as folder:
        signed, local = signed_game(folder, "bench"), local_game(folder, "bench")

        def check(path: str) -> None:
            Game.from_log(logfile.read(path, every_signature=True))

        lines = [len(logfile.read(p).events) for p in (signed, local)]
        per_line = [timed(_bound(check, p)) / n for p, n in zip((signed, local), lines,
                                                                strict=True)]
    return per_line[0] / per_line[1], lines[0], lines[1]


def _bound(check: Callable[[str], None], path: str) -> Callable[[], object]:
    return lambda: check(path)
