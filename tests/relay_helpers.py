"""A relay for tests: a real `meeple serve` process on a free 127.0.0.1 port, and players
in folders and HOMEs of their own who play a remote game through it (docs/guide/relay.md)."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from meeple.engine import Game

from helpers import main, short_set_file

MEEPLE = str(Path(sys.executable).with_name("meeple"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Relay:
    def __init__(self, root: Path, rate: float = 1000.0) -> None:
        self.rate = rate
        self.data = root / "relay-data"
        self.key = root / "relay-key"
        if not self.key.exists():
            subprocess.run([MEEPLE, "key", "new", str(self.key)], check=True,
                           capture_output=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> Relay:
        self.process = subprocess.Popen(
            [MEEPLE, "serve", "--data", str(self.data), "--key", str(self.key), "--host",
             "127.0.0.1", "--port", str(self.port), "--rate", str(self.rate)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                self.get("/key")
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the relay did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def get(self, where: str) -> dict:
        with urllib.request.urlopen(self.url + where, timeout=10) as answer:
            return json.loads(answer.read())

    def post(self, where: str, body: bytes) -> tuple[int, dict]:
        request = urllib.request.Request(self.url + where, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


class Player:
    def __init__(self, root: Path, name: str, colour: str) -> None:
        self.home = root / name
        self.home.mkdir()
        self.colour = colour
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        str(self.home / "key")], check=True)
        self.key = self.home / "key"
        self.game = self.home / "game.jsonl"

    def meeple(self, *args: object, code: int | None = 0) -> subprocess.CompletedProcess:
        """``meeple ARGS`` as this player; ``code``: the exit code it must end with (None:
        any)."""
        done = main(*args, env={"HOME": str(self.home)})
        assert code is None or done.returncode == code, (args, done.stdout, done.stderr)
        return done


def set_up(root: Path, relay: Relay, edition: str, colours: list[str],
           *options: str) -> list[Player]:
    players = [Player(root, f"p{i}", c) for i, c in enumerate(colours)]
    keys = [a for p in players for a in ("--seat-key", f"{p.colour}={p.key}.pub")]
    host = players[0]
    # one tile of each type: the relay's tests play whole games, a command at a time
    host.meeple("new", host.game, "--edition", edition, "--players", ",".join(colours),
                "--remote", "--key", host.key, *keys,
                "--tileset", short_set_file(root, edition), *options)
    host.meeple("send", host.game, "--relay", relay.url)
    game_id = Game.load(host.game).remote.game
    for player in players[1:]:
        player.meeple("join", player.game, game_id, "--key", player.key, "--relay", relay.url)
    return players


def play_turns(players: list[Player], relay: Relay, rng: random.Random,
               turns: int | None = None) -> None:
    """Each player in turn takes the relay's lines, moves if it is their turn, sends."""
    from meeple.cli.remote import remote_view

    moved = 0
    over: set[int] = set()
    for _ in range(4000):
        progressed = False
        phases = []
        for at, player in enumerate(players):
            if at in over:
                continue
            player.meeple("receive", player.game, "--relay", relay.url)
            game = Game.load(player.game)
            phases.append(game.phase)
            if game.over:
                over.add(at)
                continue
            if remote_view(game)["your_turn"] and game.phase == "place":
                move = rng.choice(game.legal_moves())
                args = ["place", player.game, move.x, move.y, move.rotation]
                if move.targets and rng.random() < 0.5:
                    args += ["--meeple", rng.choice(move.targets), "--figure",
                             rng.choice(move.figures)]
                else:
                    args.append("--no-meeple")
                player.meeple(*args)
                player.meeple("send", player.game, "--relay", relay.url)
                moved += 1
                progressed = True
        if len(over) == len(players):
            return
        if turns is not None and moved >= turns:
            return
        assert progressed or any(phase != "place" for phase in phases)
    raise AssertionError("the game did not end")
