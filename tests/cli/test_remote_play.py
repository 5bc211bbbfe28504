"""Whole remote games played by files only (docs/guide/remote.md): each player has a
folder, a HOME and an OpenSSH key of their own; lines travel as parcels (`meeple send`,
`meeple receive`); at the end every copy checks, `check --keys` holds the seats to the keys
expected, and OpenSSH's own `ssh-keygen -Y verify` accepts every signature."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from meeple.engine import Game

from helpers import main, short_set_file

needs_ssh = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                               reason="OpenSSH's ssh-keygen is not installed (Debian: openssh-client)")


def keygen(path: Path, comment: str) -> Path:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f",
                    str(path)], check=True)
    return path


class Player:
    def __init__(self, root: Path, name: str, colour: str) -> None:
        self.home = root / name
        self.home.mkdir()
        self.colour = colour
        self.key = keygen(self.home / "key", name)
        self.game = self.home / "game.jsonl"

    def meeple(self, *args: object, code: int = 0) -> subprocess.CompletedProcess:
        done = main(*args, env={"HOME": str(self.home)})
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def send(self, out: Path) -> Path:
        self.meeple("send", self.game, "--out", out)
        return out

    def status(self) -> dict:
        """What `status --json` says of this copy's remote game, read through the library
        (the commands under test are the moves, `send` and `receive`)."""
        from meeple.cli.remote import remote_view

        game = Game.load(self.game)
        return {"phase": "over" if game.over else game.phase, "head": game.head,
                "remote": remote_view(game), "game": game}

    def status_command(self) -> dict:
        return json.loads(self.meeple("status", self.game, "--json").stdout)


def play_whole_game(root: Path, edition: str, colours: list[str], seed: int) -> list[Player]:
    """Set up, join and play to the end; every message a file sent to every other player."""
    players = [Player(root, f"p{i}", c) for i, c in enumerate(colours)]
    host = players[0]
    seat_keys = [a for p in players for a in ("--seat-key", f"{p.colour}={p.key}.pub")]
    # one tile of each type: a whole game, a command at a time, at a third of the length
    host.meeple("new", host.game, "--edition", edition, "--players", ",".join(colours),
                "--remote", "--key", host.key, *seat_keys,
                "--tileset", short_set_file(root, edition))
    parcels = 0

    def broadcast(sender: Player) -> None:
        nonlocal parcels
        parcels += 1
        parcel = sender.send(root / f"parcel{parcels}.txt")
        for other in players:
            if other is not sender and other.game.exists():
                other.meeple("receive", other.game, parcel)

    last = host
    for at, joiner in enumerate(players[1:]):
        setup = root / f"setup{at}.txt"
        last.meeple("send", last.game, "--from", "-1", "--out", setup)
        joiner.meeple("join", joiner.game, setup, "--key", joiner.key)
        broadcast(joiner)
        last = joiner
    rng = random.Random(seed)
    moves = 0
    for _ in range(2000):
        views = [p.status() for p in players]
        if all(v["phase"] == "over" for v in views):
            break
        movers = [p for p, v in zip(players, views, strict=True) if v["remote"]["your_turn"]]
        senders = [p for p, v in zip(players, views, strict=True) if v["remote"]["must_send"]]
        if movers:
            mover = movers[0]
            view = views[players.index(mover)]
            game = view["game"]
            moves += 1
            if moves % 8 == 1:  # `status` itself says the same
                assert mover.status_command()["remote"] == view["remote"]
            move = rng.choice(game.legal_moves())
            args = ["place", mover.game, move.x, move.y, move.rotation]
            if move.targets and rng.random() < 0.5:
                args += ["--meeple", rng.choice(move.targets),
                         "--figure", rng.choice(move.figures)]
            else:
                args.append("--no-meeple")
            mover.meeple(*args)
            broadcast(mover)
        elif senders:
            broadcast(senders[0])
        else:
            raise AssertionError(f"nobody can act: {views}")
    else:
        raise AssertionError("the game did not end")
    return players


def check_every_copy(root: Path, players: list[Player]) -> None:
    heads = {p.status()["head"] for p in players}
    assert len(heads) == 1, "every copy ends at the same head"
    allowed = root / "allowed_signers"
    allowed.write_text("".join(f"{p.colour} {(p.key.parent / 'key.pub').read_text()}"
                               for p in players))
    for p in players:
        p.meeple("check", p.game, "--keys", allowed)
    out = root / "sigs"
    lines = players[0].meeple("signatures", players[0].game, "--out", out).stdout.splitlines()
    assert len(lines) == len(players[0].game.read_bytes().splitlines())
    for line in lines:
        done = subprocess.run(line, shell=True, capture_output=True, text=True)
        assert done.returncode == 0, (line, done.stdout, done.stderr)


@pytest.mark.slow
@needs_ssh
# (the relay's tests play classic with 2 players and Star Wars with 3 through a relay)
@pytest.mark.parametrize(("edition", "colours"), [
    ("star-wars", ["red", "black"]),
    ("classic", ["red", "green", "blue"]),
])
def test_whole_remote_games_by_files_only(tmp_path, edition, colours):
    players = play_whole_game(tmp_path, edition, colours, seed=len(colours))
    check_every_copy(tmp_path, players)
