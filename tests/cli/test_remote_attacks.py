"""A remote game's copies hold against a hostile player (docs/guide/remote.md): what
`receive` refuses leaves the log byte for byte as it was, with one located line and its
exit code."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from meeple.engine import Game

from helpers import main

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="OpenSSH's ssh-keygen is not installed")


def meeple(home: Path, *args: object, code: int = 0) -> subprocess.CompletedProcess:
    done = main(*args, env={"HOME": str(home)})
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def _homes(root: Path) -> tuple[Path, Path]:
    """Alice's and Bob's folders, each with an Ed25519 key made by ssh-keygen."""
    homes = []
    for name in ("alice", "bob"):
        home = root / name
        home.mkdir()
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / "key")],
                       check=True)
        homes.append(home)
    return homes[0], homes[1]


def two_players(root: Path, *options: str) -> tuple[Path, Path]:
    """Alice (red) and Bob (black), each a folder and a key; Alice sets up a classic remote
    game in hers with ``options``."""
    alice, bob = _homes(root)
    meeple(alice, "new", alice / "g.jsonl", "--edition", "classic", "--players", "red,black",
           "--remote", "--key", alice / "key", "--seat-key", f"red={alice / 'key.pub'}",
           "--seat-key", f"black={bob / 'key.pub'}", *options)
    return alice, bob


def joined(root: Path, *options: str) -> tuple[Path, Path]:
    """``two_players`` once Bob has taken his seat from Alice's set-up and sent it back."""
    alice, bob = two_players(root, *options)
    meeple(alice, "send", alice / "g.jsonl", "--out", root / "setup.txt")
    meeple(bob, "join", bob / "g.jsonl", root / "setup.txt", "--key", bob / "key")
    meeple(bob, "send", bob / "g.jsonl", "--out", root / "joined.txt")
    return alice, bob


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    """Alice (red, who set up) and Bob (black), two moves into a classic game: Bob to move."""
    alice, bob = joined(tmp_path)
    meeple(alice, "receive", alice / "g.jsonl", tmp_path / "joined.txt")
    move = Game.load(alice / "g.jsonl").legal_moves()[0]
    meeple(alice, "place", alice / "g.jsonl", move.x, move.y, move.rotation, "--no-meeple")
    meeple(alice, "send", alice / "g.jsonl", "--out", tmp_path / "turn1.txt")
    meeple(bob, "receive", bob / "g.jsonl", tmp_path / "turn1.txt")
    return {"alice": alice, "bob": bob, "root": tmp_path}


def bob_moves(bob: Path, out: Path, choice: int = 0) -> None:
    move = Game.load(bob / "g.jsonl").legal_moves()[choice]
    meeple(bob, "place", bob / "g.jsonl", move.x, move.y, move.rotation, "--no-meeple")
    meeple(bob, "send", bob / "g.jsonl", "--out", out)


def refused(home: Path, parcel: Path, code: int) -> str:
    game = home / "g.jsonl"
    before = game.read_bytes()
    done = meeple(home, "receive", game, parcel, code=code)
    assert game.read_bytes() == before, "nothing is appended"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def whole_log_with(bob: Path, out: Path, change) -> Path:
    """Bob's whole log, with its last line changed by ``change``, as a file to receive."""
    lines = (bob / "g.jsonl").read_bytes().split(b"\n")[:-1]
    lines[-1] = change(lines[-1])
    out.write_bytes(b"\n".join(lines) + b"\n")
    return out


def test_a_turn_arrives_and_the_same_file_twice_is_harmless(table):
    bob, alice, root = table["bob"], table["alice"], table["root"]
    bob_moves(bob, root / "turn2.txt")
    first = meeple(alice, "receive", alice / "g.jsonl", root / "turn2.txt")
    assert first.stdout.startswith("received ")
    size = (alice / "g.jsonl").stat().st_size
    again = meeple(alice, "receive", alice / "g.jsonl", root / "turn2.txt")
    assert again.stdout.startswith("nothing new")
    assert (alice / "g.jsonl").stat().st_size == size


def test_a_changed_signature_is_refused_at_its_line(table):
    bob, alice, root = table["bob"], table["alice"], table["root"]
    bob_moves(bob, root / "turn2.txt")

    def flip(line: bytes) -> bytes:
        at = line.rindex(b'"sig":"') + 20
        return line[:at] + (b"A" if line[at:at + 1] != b"A" else b"B") + line[at + 1:]

    line = refused(alice, whole_log_with(bob, root / "forged.jsonl", flip), 3)
    assert "forged.jsonl:" in line and "signature" in line


def test_a_move_signed_by_the_other_seat_is_refused(table):
    """Alice's key signs a line that only Bob may write: it verifies as Alice's signature,
    and is refused as not hers to write."""
    from meeple.events.signed import attach, split
    from meeple.events.signing import load_signer

    bob, alice, root = table["bob"], table["alice"], table["root"]
    bob_moves(bob, root / "turn2.txt")
    lines = (bob / "g.jsonl").read_bytes().split(b"\n")[:-1]
    body, _ = split(lines[-1])
    lines[-1] = attach(body, load_signer(alice / "key").sign(body))
    (root / "resigned.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    line = refused(alice, root / "resigned.jsonl", 3)
    assert "signed by seat 0 (red)" in line and "RM-" in line


def test_lines_of_another_game_are_refused(table, tmp_path):
    alice = table["alice"]
    other = tmp_path / "other"
    other.mkdir()
    meeple(alice, "new", other / "g.jsonl", "--edition", "classic", "--players", "red,black",
           "--remote", "--key", alice / "key", "--seat-key", f"red={alice / 'key.pub'}",
           "--seat-key", f"black={table['bob'] / 'key.pub'}")
    line = refused(alice, other / "g.jsonl", 1)
    assert "another game" in line


def test_a_truncated_parcel_is_refused(table):
    bob, alice, root = table["bob"], table["alice"], table["root"]
    bob_moves(bob, root / "turn2.txt")
    text = (root / "turn2.txt").read_text().splitlines()
    (root / "cut.txt").write_text("\n".join(text[:len(text) // 2]) + "\n")
    assert "parcel" in refused(alice, root / "cut.txt", 3)


def test_a_fork_is_refused_and_two_copies_prove_the_equivocation(table):
    """Bob sends one move, then from a copy of his folder another after the same line."""
    bob, alice, root = table["bob"], table["alice"], table["root"]
    twin = root / "bob-twin"
    shutil.copytree(bob, twin)
    secret = twin / "g.jsonl.secret"
    os.chmod(secret, 0o600)
    meeple(twin, "receive", twin / "g.jsonl", root / "turn1.txt")  # the same state
    bob_moves(bob, root / "turn2.txt", choice=0)
    game = json.loads(meeple(twin, "status", twin / "g.jsonl", "--json").stdout)
    assert game["remote"]["your_turn"]
    move = Game.load(twin / "g.jsonl").legal_moves()[-1]
    meeple(twin, "place", twin / "g.jsonl", move.x, move.y, move.rotation, "--no-meeple")
    meeple(twin, "send", twin / "g.jsonl", "--out", root / "turn2b.txt")
    meeple(alice, "receive", alice / "g.jsonl", root / "turn2.txt")
    line = refused(alice, root / "turn2b.txt", 1)
    assert "forks" in line and "last common head" in line
    proof = meeple(alice, "check", bob / "g.jsonl", twin / "g.jsonl", code=1)
    assert "equivocation: black signed two different lines" in proof.stdout
    # what Alice holds proves it too: the copy the parcel makes is kept beside her log (a
    # parcel is no log: `check` of the parcel itself could not read it)
    kept = alice / "g.jsonl.fork-1.jsonl"
    assert f"`meeple check {alice / 'g.jsonl'} {kept}` shows both" in line, line
    proof = meeple(alice, "check", alice / "g.jsonl", kept, code=1)
    assert "equivocation: black signed two different lines" in proof.stdout


def test_not_your_turn_and_a_key_too_open(table):
    alice = table["alice"]
    move_refused = meeple(alice, "place", alice / "g.jsonl", "0", "1", "0", code=1)
    assert "not your turn" in move_refused.stderr
    os.chmod(alice / "key", 0o644)
    bob_moves(table["bob"], table["root"] / "turn2.txt")
    line = refused(alice, table["root"] / "turn2.txt", 3)
    assert "too open" in line


def test_a_timeout_claim_ends_the_game_once_the_time_has_passed(tmp_path):
    alice, bob = joined(tmp_path, "--time-per-move", "1h")
    own = meeple(bob, "claim-timeout", bob / "g.jsonl", code=1)
    assert "your own line" in own.stderr or "has" in own.stderr
    meeple(alice, "receive", alice / "g.jsonl", tmp_path / "joined.txt")
    move = Game.load(alice / "g.jsonl").legal_moves()[0]
    meeple(alice, "place", alice / "g.jsonl", move.x, move.y, move.rotation, "--no-meeple")
    early = meeple(alice, "claim-timeout", alice / "g.jsonl", code=1)
    assert "left of 1.0 h" in early.stderr
    hours_ago = (alice / "g.jsonl").stat().st_mtime - 2 * 3600
    os.utime(alice / "g.jsonl", (hours_ago, hours_ago))
    ended = json.loads(meeple(alice, "claim-timeout", alice / "g.jsonl", "--json").stdout)
    assert ended["forfeit"] == "black" and "black" not in ended["winners"]
    meeple(alice, "send", alice / "g.jsonl", "--out", tmp_path / "claim.txt")
    meeple(bob, "receive", bob / "g.jsonl", tmp_path / "claim.txt")
    assert Game.load(bob / "g.jsonl").over
    meeple(bob, "check", bob / "g.jsonl")


def test_the_replay_page_names_who_signed_each_line(table):
    alice, root = table["alice"], table["root"]
    meeple(alice, "export", alice / "g.jsonl", "--html", root / "page.html")
    page = (root / "page.html").read_text()
    assert "signed by red]" in page and "signed by black]" in page


def test_a_bot_seat_plays_on_its_owners_copy_and_signs_with_their_key(tmp_path):
    alice, bob = two_players(tmp_path, "--bot", "black=mcts:20")
    meeple(alice, "send", alice / "g.jsonl", "--out", tmp_path / "m0.txt")
    meeple(bob, "join", bob / "g.jsonl", tmp_path / "m0.txt", "--key", bob / "key")
    sent = 0
    for _ in range(3):
        sent += 1
        meeple(bob, "send", bob / "g.jsonl", "--out", tmp_path / f"b{sent}.txt")
        meeple(alice, "receive", alice / "g.jsonl", tmp_path / f"b{sent}.txt")
        move = Game.load(alice / "g.jsonl").legal_moves()[0]
        meeple(alice, "place", alice / "g.jsonl", move.x, move.y, move.rotation,
               "--no-meeple")
        meeple(alice, "send", alice / "g.jsonl", "--out", tmp_path / f"a{sent}.txt")
        meeple(bob, "receive", bob / "g.jsonl", tmp_path / f"a{sent}.txt")
    game = Game.load(bob / "g.jsonl")
    black_moves = [e for e in game.events if type(e).__name__ == "TilePlaced"
                   and e.player == "black"]
    assert len(black_moves) == 3, "the bot played each of black's turns on Bob's copy"
    meeple(bob, "check", bob / "g.jsonl")


def test_a_takeover_claim_that_would_leave_one_seat_ends_the_game(tmp_path):
    """RM-5 by file, two seats: the seat left would foresee every draw alone, so the claim
    ends the game as RM-4 does, though the set-up names a bot (the relay's test plays a seat
    given up in a game of three)."""
    alice, bob = joined(tmp_path, "--time-per-move", "1h", "--takeover", "greedy")
    meeple(alice, "receive", alice / "g.jsonl", tmp_path / "joined.txt")
    move = Game.load(alice / "g.jsonl").legal_moves()[0]
    meeple(alice, "place", alice / "g.jsonl", move.x, move.y, move.rotation, "--no-meeple")
    hours_ago = (alice / "g.jsonl").stat().st_mtime - 2 * 3600
    os.utime(alice / "g.jsonl", (hours_ago, hours_ago))
    said = meeple(alice, "claim-timeout", alice / "g.jsonl").stdout
    assert "black let their time pass: the game is over" in said
    assert Game.load(alice / "g.jsonl").events[-1].forfeit == "black"


def test_joining_by_id_takes_that_game_only_and_shows_its_terms(tmp_path):
    """A relay asked for one game that answers with another's lines is refused (exit 3,
    nothing written); a join says who set the game up, by its key's fingerprint, and the
    time a move may take."""
    from meeple.cli.store import Failure
    from meeple.cli.transport import join_lines
    from meeple.events.sshsig import PublicKey

    alice, bob = two_players(tmp_path, "--time-per-move", "90m")
    lines = (alice / "g.jsonl").read_bytes().splitlines()
    other = "0" * 32
    with pytest.raises(Failure) as refused:
        join_lines(str(bob / "g.jsonl"), "http://relay", lines, str(bob / "key"), game_id=other)
    assert refused.value.code == 3 and f"not {other[:12]}, the one asked for" in str(refused.value)
    assert not (bob / "g.jsonl").exists() and not (bob / "g.jsonl.secret").exists()
    meeple(alice, "send", alice / "g.jsonl", "--out", tmp_path / "setup.txt")
    said = meeple(bob, "join", bob / "g.jsonl", tmp_path / "setup.txt", "--key", bob / "key")
    fingerprint = PublicKey.parse((alice / "key.pub").read_text()).fingerprint
    assert f"set up by red with the key {fingerprint}; 90 min a move" in said.stdout, said.stdout


def test_a_seat_named_after_another_colour_does_not_take_that_colours_key(tmp_path):
    """The host chose the names: seated red under the name "black", Bob's key (black's in
    allowed_signers) passed `check --keys` for the red seat."""
    alice, bob = _homes(tmp_path)
    game = bob / "g.jsonl"
    meeple(bob, "new", game, "--edition", "classic", "--players", "red,black", "--names",
           "black,red", "--remote", "--key", bob / "key",
           "--seat-key", f"red={bob / 'key.pub'}", "--seat-key", f"black={alice / 'key.pub'}")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"red {(alice / 'key.pub').read_text()}"
                       f"black {(bob / 'key.pub').read_text()}")
    done = meeple(bob, "check", game, "--keys", allowed, code=1)
    said = done.stdout + done.stderr
    assert "seat red (black) plays with the key" in said
    assert "its name black is a colour: not a principal here" in said
    # names that are no colour still serve as principals
    named = tmp_path / "named_signers"
    named.write_text(f"alice {(alice / 'key.pub').read_text()}"
                     f"bob {(bob / 'key.pub').read_text()}")
    other = alice / "g.jsonl"
    meeple(alice, "new", other, "--edition", "classic", "--players", "red,black", "--names",
           "alice,bob", "--remote", "--key", alice / "key",
           "--seat-key", f"red={alice / 'key.pub'}", "--seat-key", f"black={bob / 'key.pub'}")
    meeple(alice, "check", other, "--keys", named)


def test_signatures_writes_what_openssh_alone_verifies(table):
    """Every line a seat signed, as its message and signature, with a line of
    `ssh-keygen -Y verify` each that passes with OpenSSH alone; a changed message fails it."""
    alice, root = table["alice"], table["root"]
    out = root / "sigs"
    lines = meeple(alice, "signatures", alice / "g.jsonl", "--out", out).stdout.splitlines()
    assert len(lines) == len((alice / "g.jsonl").read_bytes().splitlines())
    for line in lines:
        done = subprocess.run(line, shell=True, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    message = out / f"{len(lines) - 1:05d}.msg"
    assert f"< {message}" in lines[-1]
    message.write_bytes(message.read_bytes().replace(b'"seq":', b'"seq": '))
    done = subprocess.run(lines[-1], shell=True, capture_output=True, text=True, check=False)
    assert done.returncode != 0, done.stdout


def test_the_other_copy_of_a_fork_is_never_read_from_a_fifo_or_written_over_a_file(tmp_path):
    """A FIFO in the place of a kept copy would have blocked the reading of it (it is skipped),
    and a file there already is never written over (the next name is taken)."""
    import signal

    from meeple.cli.transport import keep_other_copy

    game = str(tmp_path / "g.jsonl")
    os.mkfifo(f"{game}.fork-1.jsonl")
    Path(f"{game}.fork-2.jsonl").write_bytes(b"someone's file\n")
    signal.alarm(10)
    try:
        kept = keep_other_copy(game, [b"a", b"b"])
    finally:
        signal.alarm(0)
    assert kept == f"{game}.fork-3.jsonl" and Path(kept).read_bytes() == b"a\nb\n"
    assert Path(f"{game}.fork-2.jsonl").read_bytes() == b"someone's file\n"
    assert keep_other_copy(game, [b"a", b"b"]) == kept  # the same copy, kept once
