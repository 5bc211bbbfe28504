"""Remote games played in memory (RM-2): random keys, a game id and secrets from a seeded
``random.Random``, and a table at which every seat writes its lines by the protocol
(``meeple.engine.protocol``: its commitment, the elements it owes, its moves), one message
at a time, as players who send each other their turns would."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator

import msgspec

from meeple.engine import Command, Game, GameState, Move, PlaceMeeple, SkipMeeple
from meeple.engine.protocol import Chains, duty, waiting_for
from meeple.engine.takeover import stand_in
from meeple.events.model import Event, Remote

COLOURS = {"classic": ("red", "green", "blue", "yellow", "black"),
           "star-wars": ("red", "black", "green", "white", "orange")}


def random_remote(seats: int, rng: random.Random, *, host: int = 0, chain: int = 200) -> Remote:
    """A remote set-up: a random game id and ``seats`` distinct keys (random bytes in the
    shape of an OpenSSH Ed25519 key: the engine only compares and hashes them)."""
    keys = tuple("ssh-ed25519 " + base64.b64encode(rng.randbytes(51)).decode()
                 for _ in range(seats))
    return Remote(game=rng.randbytes(16).hex(), keys=keys, host=host, chain=chain)


class Table:
    """A remote game of ``seats`` seats and every seat's chains; ``signers`` holds the seat
    that wrote each line (as ``verify(..., signers=...)`` takes them)."""

    def __init__(self, edition: str, seats: int, seed: int, *, host: int = 0,
                 meeple_odds: float = 0.6, attacks: bool = False,
                 time_per_move: int | None = None, takeover: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.colours = COLOURS[edition][:seats]
        self.remote = msgspec.structs.replace(random_remote(seats, self.rng, host=host),
                                              time_per_move=time_per_move)
        if takeover is not None:  # (RM-5: a seat given up is played on by this bot)
            self.remote = msgspec.structs.replace(self.remote, timeout="bot",
                                                  takeover=takeover)
        self.secrets = [self.rng.randbytes(32) for _ in range(seats)]
        self.chains = [Chains(self.remote, s, self.secrets[s]) for s in range(seats)]
        self.game = Game.new(list(self.colours), edition, remote=self.remote)
        self.signers = [host] * len(self.game.events)
        #: the tiles left to draw after the set-up
        self.start_remaining = dict(self.game.state.remaining)
        self.meeple_odds = meeple_odds
        #: whether a seat attacks a planet (SW-4.3) whenever it can
        self.attacks = attacks

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def events(self) -> tuple[Event, ...]:
        return self.game.events

    def push(self, seat: int, command: Move | Command) -> list[Event]:
        """``seat`` writes ``command`` and every consequence of it (refused: nothing)."""
        events = self.game.push(command)
        self.signers += [seat] * len(events)
        return events

    def lines(self) -> Iterator[tuple[int, list[Event]]]:
        """Play the game to its end, yielding each seat's push as it is written: the seat the
        game waits for writes a message (what it owes, then its move, until the game waits for
        another seat)."""
        while not self.game.over:
            seat = waiting_for(self.state, self.signers[-1])[0]
            wrote = False
            while not self.game.over:
                command = duty(self.state, self.chains[seat]) or stand_in(self.state, seat)
                if command is None:
                    waiting = waiting_for(self.state, self.signers[-1])
                    if not waiting or waiting[0] != seat:
                        break
                    command = self.move(seat)
                wrote = True
                yield seat, self.push(seat, command)
            assert wrote, f"seat {seat} is waited for and has nothing to write"

    def play(self) -> Table:
        for _ in self.lines():
            pass
        return self

    def move(self, seat: int) -> Move | Command:
        """A random move of ``seat``'s turn: a legal placement, then a figure on a random target
        (at the odds given; an attack, if the table attacks and one is legal) or none."""
        game = self.game
        assert game.player == self.colours[seat], f"seat {seat} moves out of turn"
        if game.phase == "place":
            return self.rng.choice(game.legal_moves())
        assert game.phase == "meeple", f"seat {seat} is waited for in phase {game.phase}"
        moves = game.legal_moves()
        targets = moves[0].targets if moves else ()
        attacks = [t for t in targets if "@" in t] if self.attacks else []
        if attacks or (targets and self.rng.random() < self.meeple_odds):
            target = self.rng.choice(attacks or targets)
            return PlaceMeeple(target, self.rng.choice(moves[0].figures))
        return SkipMeeple()
