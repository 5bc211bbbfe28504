"""The examples of remote play that need two players and their keys run as written
(docs/guide/remote.md): the page's `sh` block is played line by line, Alice's lines in her
folder and Bob's in his, each with an OpenSSH Ed25519 key of their own made by ssh-keygen at
`~/.ssh/id_ed25519`; the files they mail each other are carried between the folders."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import main

ROOT = Path(__file__).parents[1]
REMOTE = ROOT / "docs/guide/remote.md"

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="OpenSSH's ssh-keygen is not installed")

#: fresh games (fresh keys) tried until the tile drawn allows the page's move: which tile
#: is drawn depends on both players' keys and secrets, so no one game can be fixed in advance
GAMES = 40


def sh_lines(page: Path) -> list[str]:
    """The lines of a page's first `sh` block, a line ending in a backslash joined to the next."""
    block = re.findall(r"^```sh\n(.*?)^```", page.read_text(), re.S | re.M)[0]
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def by_person(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each command line with whose it is, as the block's comments say: a comment line naming
    Alice or Bob hands the lines after it to them; one naming neither, to the other person
    (who has just been sent a file)."""
    person, owned = "alice", []
    for line in lines:
        if line.startswith("#"):
            named = [n for n in ("alice", "bob") if n in line.lower()]
            person = named[0] if named else ("bob" if person == "alice" else "alice")
            continue
        owned.append((person, shlex.split(line, comments=True)))
    return owned


class Person:
    def __init__(self, root: Path, name: str) -> None:
        self.home = root / name
        (self.home / ".ssh").mkdir(parents=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f",
                        str(self.home / ".ssh/id_ed25519")], check=True)

    def run(self, words: list[str], monkeypatch: pytest.MonkeyPatch) -> subprocess.CompletedProcess:
        """A line as a shell in this person's folder runs it (`~` is their HOME)."""
        monkeypatch.chdir(self.home)
        words = [str(self.home) + w[1:] if w.startswith("~/") else w for w in words]
        return main(*words, env={"HOME": str(self.home)})


def _mailed(words: list[str]) -> str | None:
    return words[words.index("--out") + 1] if "--out" in words else None


def _play_once(root: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The block, line by line; False when the tile drawn does not allow the page's move."""
    people = {name: Person(root, name) for name in ("alice", "bob")}
    # Bob's public key, which he mailed to Alice before she sets up
    shutil.copy(people["bob"].home / ".ssh/id_ed25519.pub", people["alice"].home / "bob.pub")
    for name, words in by_person(sh_lines(REMOTE)):
        assert words[0] == "meeple", words
        person, other = people[name], people["bob" if name == "alice" else "alice"]
        if words[1] == "place":
            listed = person.run(["meeple", "moves", words[2]][1:], monkeypatch)
            assert listed.returncode == 0, listed.stderr
            if not re.search(rf"^\s+{re.escape(words[3])}\s", listed.stdout, re.M):
                return False
        done = person.run(words[1:], monkeypatch)
        assert done.returncode == 0, (name, words, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        if (mailed := _mailed(words)) is not None:
            shutil.copy(person.home / mailed, other.home / mailed)
    return True


def test_the_remote_games_example_runs_as_written_by_two_players(tmp_path, monkeypatch):
    for attempt in range(GAMES):
        if _play_once(tmp_path / str(attempt), monkeypatch):
            break
    else:
        pytest.fail(f"the page's move was not legal in any of {GAMES} games")
    alice = tmp_path / str(attempt) / "alice"
    bob = tmp_path / str(attempt) / "bob"
    # the parcel Alice's last line printed brings her move to Bob's copy
    parcel = main("send", alice / "game.jsonl", "--out", alice / "move.txt")
    assert parcel.returncode == 0, parcel.stderr
    received = main("receive", bob / "game.jsonl", alice / "move.txt",
                    env={"HOME": str(bob)})
    assert received.returncode == 0, received.stderr
    assert main("check", bob / "game.jsonl").returncode == 0


def test_the_blocks_comments_say_whose_each_line_is():
    """Alice sets up and sends; Bob joins and answers; Alice, who receives his answer, plays
    the first turn (the game waits for red, her seat)."""
    owners = [(name, words[1]) for name, words in by_person(sh_lines(REMOTE))]
    assert owners == [("alice", "new"), ("alice", "send"), ("bob", "join"), ("bob", "send"),
                      ("alice", "receive"), ("alice", "status"), ("alice", "place"),
                      ("alice", "send")]
