"""The examples of remote play that need two players and their keys run as written
(docs/guide/remote.md): the page's `sh` block is played line by line, Alice's lines in her
folder and Bob's in his, each with an OpenSSH Ed25519 key of their own made by ssh-keygen at
`~/.ssh/id_ed25519`; the files they mail each other are carried between the folders."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import threading
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


RELAY_PAGE = ROOT / "docs/guide/relay.md"
#: the address and game id the relay page shows, which a real relay and game replace
PAGE_URL, PAGE_PORT = "http://127.0.0.1:8088", "8088"
PAGE_GAME = re.compile(r"\b[0-9a-f]{32}\b")


def relay_parts(lines: list[str]) -> dict[str, list[list[str]]]:
    """The relay page's block in its parts, as its comments say: the relay's own lines, Alice's
    giving the game to it, Bob's joining, a turn, the live session and the spectator's."""
    parts: dict[str, list[list[str]]] = {}
    part = "relay"
    for line in lines:
        if line.startswith("#"):
            said = line.lower()
            part = ("alice" if "alice" in said else "bob" if "bob" in said
                    else "turn" if "each turn" in said else "live" if "live at" in said
                    else "spectator" if "follows" in said else part)
            continue
        if line.startswith("meeple "):
            parts.setdefault(part, []).append(shlex.split(line, comments=True))
    return parts


def test_the_relay_pages_block_is_told_apart_by_its_comments():
    parts = {part: [words[1] for words in lines]
             for part, lines in relay_parts(sh_lines(RELAY_PAGE)).items()}
    assert parts == {"relay": ["key", "serve"], "alice": ["send", "status"], "bob": ["join"],
                     "turn": ["receive", "place", "send"], "live": ["play"],
                     "spectator": ["watch"]}


def _as_here(words: list[str], url: str, port: str, game: str = "") -> list[str]:
    """A page line with the real relay's address and the real game's id."""
    return [w.replace(PAGE_URL, url) if w != PAGE_PORT else port for w in
            (PAGE_GAME.sub(game, w) if game else w for w in words)]


@pytest.mark.slow
def test_the_relay_example_runs_as_written_by_two_players_and_a_spectator(tmp_path,
                                                                          monkeypatch):
    from relay_helpers import MEEPLE, Relay, free_port

    parts = relay_parts(sh_lines(RELAY_PAGE))
    here = tmp_path / "relay"
    here.mkdir()
    port = str(free_port())
    url = f"http://127.0.0.1:{port}"
    monkeypatch.chdir(here)
    made = main(*parts["relay"][0][1:])
    assert made.returncode == 0, made.stderr
    serve = _as_here(parts["relay"][1], url, port)
    relay = Relay(here)  # its key is the page's relay-key, made above
    relay.data = here / serve[serve.index("--data") + 1]
    relay.url, relay.process = url, subprocess.Popen([MEEPLE, *serve[1:]], cwd=here,
                                                     stdout=subprocess.DEVNULL,
                                                     stderr=subprocess.PIPE)
    try:
        _wait_for(relay)
        for attempt in range(GAMES):
            if _play_through(relay, tmp_path / str(attempt), parts, monkeypatch):
                break
        else:
            pytest.fail(f"the page's move was not legal in any of {GAMES} games")
    finally:
        relay.stop()


def _wait_for(relay) -> None:
    import time

    for _ in range(200):
        try:
            relay.get("/key")
            return
        except OSError:
            assert relay.process.poll() is None, relay.process.stderr.read()
            time.sleep(0.1)
    raise AssertionError("the relay did not start")


def _play_through(relay, root: Path, parts: dict[str, list[list[str]]],
                  monkeypatch: pytest.MonkeyPatch) -> bool:
    """The page's lines after the relay's own; False when the tile drawn does not allow the
    page's move."""
    from meeple.engine import Game

    from relay_helpers import MEEPLE

    alice, bob = Person(root, "alice"), Person(root, "bob")
    shutil.copy(bob.home / ".ssh/id_ed25519.pub", alice.home / "bob.pub")
    port = relay.url.rsplit(":", 1)[1]

    def run(person: Person, words: list[str], game: str = "") -> subprocess.CompletedProcess:
        done = person.run(_as_here(words, relay.url, port, game)[1:], monkeypatch)
        assert done.returncode == 0, (words, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    # Alice sets up as in Playing remotely (its first line), then gives the game to the relay
    run(alice, by_person(sh_lines(REMOTE))[0][1])
    sent, status = parts["alice"]
    run(alice, sent)
    game_id = Game.load(alice.home / "game.jsonl").remote.game
    assert game_id[:12] in run(alice, status).stdout  # "shows the game id"
    run(bob, parts["bob"][0], game_id)
    # a turn: the game waits for red, Alice's seat
    received, place, sent = parts["turn"]
    run(alice, received)
    listed = alice.run(["moves", place[2]], monkeypatch)
    if not re.search(rf"^\s+{re.escape(place[3])}\s", listed.stdout, re.M):
        return False
    run(alice, place)
    run(alice, sent)
    # the live session waits for Bob's move, which he makes meanwhile, and takes it
    live = subprocess.Popen([MEEPLE, *_as_here(parts["live"][0], relay.url, port)[1:]],
                            cwd=alice.home, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**_environ(), "HOME": str(alice.home)})
    try:
        run(bob, received)
        bobs = Game.load(bob.home / "game.jsonl")
        move = bobs.legal_moves()[0]
        run(bob, ["meeple", "place", "game.jsonl", str(move.x), str(move.y),
                  str(move.rotation), "--no-meeple"])
        run(bob, sent)
        out, err = live.communicate(b"quit\n", timeout=60)
    finally:
        if live.poll() is None:
            live.kill()
    assert live.returncode == 0, err
    taken = [e.player for e in Game.load(alice.home / "game.jsonl").events
             if type(e).__name__ == "TilePlaced"]
    assert taken == ["red", "black"], "the live session took Bob's move"
    # a spectator follows it live: every stored line shown, verified
    stored = Game.load(relay.data / f"{game_id}.jsonl").events
    watch = subprocess.Popen([MEEPLE, *_as_here(parts["spectator"][0], relay.url, port,
                                                game_id)[1:]],
                             cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = threading.Timer(60, watch.kill)  # a line missing would leave it waiting
    stop.start()
    try:
        assert watch.stdout is not None
        shown = [watch.stdout.readline() for _ in stored]
    finally:
        stop.cancel()
        watch.terminate()
        watch.wait(10)
    assert all(shown) and watch.returncode != 1, (shown, watch.stderr.read() if watch.stderr else "")
    return True


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


@pytest.mark.slow  # starts the example bot programs
def test_the_bot_check_transcript_is_what_bot_check_prints(monkeypatch):
    """docs/bot-protocol.md shows `meeple bot-check` of its example bot as a `text` transcript:
    the line runs from the project's folder, and prints exactly the lines shown."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    page = (ROOT / "docs/bot-protocol.md").read_text()
    shown = [b for b in re.findall(r"^```text\n(.*?)^```", page, re.S | re.M)
             if b.startswith("$ meeple bot-check ")]
    assert len(shown) == 1
    command, *printed = shown[0].splitlines()
    monkeypatch.chdir(ROOT)
    done = main(*shlex.split(command)[2:])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == printed
