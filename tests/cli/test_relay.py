"""The relay, a real `meeple serve` process on 127.0.0.1 (docs/guide/relay.md): whole games
played through it, a relay killed and restarted, hostile requests refused in JSON with
nothing stored."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from meeple.engine import Game
from meeple.events.model import TilePlaced, TimeoutClaimed

from helpers import main
from relay_helpers import MEEPLE, Player, Relay, play_turns, set_up

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                 reason="OpenSSH's ssh-keygen is not installed")]


def test_whole_games_through_the_relay_agree_head_for_head(tmp_path, relay):
    # (classic with 2 players is played to its end through a relay killed mid-game, below)
    for edition, colours in (("star-wars", ["red", "black", "green"]),):
        root = tmp_path / edition
        root.mkdir()
        players = set_up(root, relay, edition, colours)
        play_turns(players, relay, random.Random(len(colours)))
        for player in players:
            player.meeple("receive", player.game, "--relay", relay.url)
        game_id = Game.load(players[0].game).remote.game
        stored = relay.data / f"{game_id}.jsonl"
        heads = {Game.load(p.game).head for p in players} | {Game.load(stored).head}
        assert len(heads) == 1
        players[0].meeple("check", stored)
        receipts = (relay.data / f"{game_id}.receipts").read_text().splitlines()
        assert len(receipts) == len(stored.read_bytes().splitlines())


def test_a_relay_killed_mid_game_loses_nothing_it_acknowledged(tmp_path, relay):
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    play_turns(players, relay, random.Random(1), turns=6)
    game_id = Game.load(players[0].game).remote.game
    before = (relay.data / f"{game_id}.jsonl").read_bytes()
    acknowledged = {Game.load(p.game).head for p in players}
    relay.kill()
    relay.start()
    assert (relay.data / f"{game_id}.jsonl").read_bytes() == before
    assert Game.load(relay.data / f"{game_id}.jsonl").head in acknowledged
    play_turns(players, relay, random.Random(2))
    for player in players:
        player.meeple("receive", player.game, "--relay", relay.url)
    assert all(Game.load(p.game).over for p in players)
    heads = {Game.load(p.game).head for p in players}
    assert heads == {Game.load(relay.data / f"{game_id}.jsonl").head}, "head for head"


def test_hostile_requests_get_bounded_json_refusals_and_nothing_is_stored(tmp_path, relay):
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    game_id = Game.load(players[0].game).remote.game
    stored = relay.data / f"{game_id}.jsonl"
    before = stored.read_bytes()
    cases = [
        (f"/games/{game_id}/lines", b"{not json", 400),
        (f"/games/{game_id}/lines", b"[" * 100000 + b"]" * 100000, 400),
        (f"/games/{game_id}/lines", b'{"after": 0, "head": null, "lines": ["x"], "evil": 1}',
         400),
        (f"/games/{game_id}/lines", b" " * (5 * 1024 * 1024), 413),
        ("/games/..%2F..%2Fetc%2Fpasswd/lines", b'{"after": 0, "head": null, "lines": ["x"]}',
         404),
    ]
    for where, body, status in cases:
        try:
            got, answer = relay.post(where, body)
        except (ConnectionResetError, urllib.error.URLError):
            # refused before the body was read (the declared length is over the bound): the
            # answer is lost with the connection the client was still writing to
            assert status == 413
            continue
        assert got == status, (where, answer)
        assert set(answer) >= {"error", "kind"} and "Traceback" not in answer["error"]
    lines = stored.read_bytes().split(b"\n")[:-1]
    head = Game.load(stored).head
    tampered = lines[-1].replace(b'"seq"', b'"seq" ', 1)
    got, answer = relay.post(f"/games/{game_id}/lines", json.dumps(
        {"after": len(lines) - 1, "head": head, "lines": [tampered.decode()]}).encode())
    assert got == 422, answer
    got, answer = relay.post(f"/games/{game_id}/lines", json.dumps(
        {"after": 0, "head": None, "lines": [lines[-1].decode()]}).encode())
    assert got == 409 and answer["head"] == head, answer
    assert stored.read_bytes() == before
    assert relay.get("/key")["key"].startswith("ssh-ed25519 ")


def test_receipts_kept_beside_a_log_check_against_the_relays_key(tmp_path, relay):
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    play_turns(players, relay, random.Random(3), turns=2)
    host = players[0]
    relay_key = f"{relay.key}.pub"
    done = host.meeple("check", host.game, "--relay-key", relay_key)
    held = int(done.stdout.split(": ")[-1].split()[0])
    assert held == len((Path(f"{host.game}.receipts")).read_text().splitlines()) > 0
    receipts = Path(f"{host.game}.receipts")
    lines = receipts.read_text().splitlines()
    forged = json.loads(lines[-1])
    forged["at"] += 3600  # the relay never said it got this line an hour later
    receipts.write_text("\n".join([*lines[:-1], json.dumps(forged)]) + "\n")
    refused = host.meeple("check", host.game, "--relay-key", relay_key, code=1)
    assert "the relay's signature does not hold" in refused.stderr


def test_watch_shows_every_line_verified(tmp_path, relay):
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    play_turns(players, relay, random.Random(4), turns=2)
    game_id = Game.load(players[0].game).remote.game
    stored = Game.load(relay.data / f"{game_id}.jsonl")
    shown = players[1].meeple("watch", relay.url, game_id, "--no-follow")
    assert len(shown.stdout.splitlines()) == len(stored.events)
    assert "draws" in shown.stdout
    unknown = players[1].meeple("watch", relay.url, "0" * 32, "--no-follow", code=1)
    assert "no such game" in unknown.stderr


def test_a_client_past_its_rate_gets_429_and_others_are_served(tmp_path):
    slow = Relay(tmp_path, rate=1.0).start()
    try:
        statuses = []
        for _ in range(8):
            try:
                slow.get(f"/games/{'0' * 32}")
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
                assert json.loads(exc.read())["kind"] in ("missing", "busy")
        assert statuses[:3] == [404, 404, 404] and 429 in statuses
        time.sleep(1.5)
        assert slow.get("/key")["key"]
        # a client that names another address in each request is the same client
        time.sleep(3.5)
        forwarded = []
        for n in range(8):
            request = urllib.request.Request(f"{slow.url}/games/{'0' * 32}",
                                             headers={"X-Forwarded-For": f"10.0.0.{n}"})
            try:
                urllib.request.urlopen(request, timeout=10)
            except urllib.error.HTTPError as exc:
                forwarded.append(exc.code)
        assert 429 in forwarded, forwarded
    finally:
        slow.stop()


def test_play_through_a_relay_waits_for_the_other_seat_then_takes_its_move(tmp_path, relay):
    alice, bob = set_up(tmp_path, relay, "classic", ["red", "green"])
    alice.meeple("receive", alice.game, "--relay", relay.url)
    move = Game.load(alice.game).legal_moves()[0]
    alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
    alice.meeple("send", alice.game, "--relay", relay.url)
    session = subprocess.Popen([MEEPLE, "play", str(alice.game), "--relay", relay.url],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ,
                                                            "HOME": str(alice.home)})
    try:
        time.sleep(2)
        assert session.poll() is None, "the session waits for green"
        bob.meeple("receive", bob.game, "--relay", relay.url)
        move = Game.load(bob.game).legal_moves()[0]
        bob.meeple("place", bob.game, move.x, move.y, move.rotation, "--no-meeple")
        bob.meeple("send", bob.game, "--relay", relay.url)
        out, err = session.communicate(b"status\nquit\n", timeout=60)
    finally:
        if session.poll() is None:
            session.kill()
    assert session.returncode == 0, err
    assert b"waiting for green" in out
    taken = [e for e in Game.load(alice.game).events if type(e).__name__ == "TilePlaced"]
    assert [e.player for e in taken] == ["red", "green"], "the session took green's move"


def _age_last_receipt(relay, game, seconds: int) -> None:
    """The relay's receipt of the game's last line, as if it was stored ``seconds`` earlier."""
    game_id = Game.load(game).remote.game
    receipts = relay.data / f"{game_id}.receipts"
    lines = receipts.read_text().splitlines()
    last = json.loads(lines[-1])
    last["at"] -= seconds
    receipts.write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")


def test_the_relay_judges_a_timeout_claim_by_its_own_receipts(tmp_path, relay):
    alice, bob = set_up(tmp_path, relay, "classic", ["red", "green"], "--time-per-move", "1m")
    alice.meeple("receive", alice.game, "--relay", relay.url)
    move = Game.load(alice.game).legal_moves()[0]
    alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
    alice.meeple("send", alice.game, "--relay", relay.url)
    before = alice.game.read_bytes()
    early = alice.meeple("claim-timeout", alice.game, "--relay", relay.url, code=1)
    assert "left of 1 min" in early.stderr and "relay's receipt" in early.stderr
    assert alice.game.read_bytes() == before
    # a claim her own clock allows (her copy looks two minutes old) the relay still refuses
    twin = tmp_path / "alice-twin"
    shutil.copytree(alice.home, twin)
    os.chmod(twin / "game.jsonl.secret", 0o600)
    copy = Player.__new__(Player)
    copy.home, copy.colour, copy.key, copy.game = twin, "red", twin / "key", twin / "game.jsonl"
    old = time.time() - 120
    os.utime(copy.game, (old, old))
    copy.meeple("claim-timeout", copy.game)
    refused = copy.meeple("send", copy.game, "--relay", relay.url, code=1)
    assert "comes early" in refused.stderr
    # two minutes later, by the relay's receipts
    _age_last_receipt(relay, alice.game, 120)
    ended = json.loads(alice.meeple("claim-timeout", alice.game, "--relay", relay.url,
                                    "--json").stdout)
    assert ended["forfeit"] == "green"
    bob.meeple("receive", bob.game, "--relay", relay.url)
    assert Game.load(bob.game).over


def test_a_claim_sent_with_the_move_it_waits_after_or_in_a_whole_game_comes_early(
        tmp_path, relay):
    """The relay times a claim from the line it waits after as the relay stored it: a claim
    sent together with that line, or in a game handed over whole, it has not timed."""
    alice, bob = set_up(tmp_path, relay, "classic", ["red", "green"], "--time-per-move", "1m")
    alice.meeple("receive", alice.game, "--relay", relay.url)
    move = Game.load(alice.game).legal_moves()[0]
    alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
    old = time.time() - 180
    os.utime(alice.game, (old, old))  # her clock says black has had three minutes
    alice.meeple("claim-timeout", alice.game)
    game_id = Game.load(alice.game).remote.game
    # and she took three minutes over her own move: by the relay, its last line is that old
    receipts = relay.data / f"{game_id}.receipts"
    kept = [json.loads(line) for line in receipts.read_text().splitlines()]
    for receipt in kept:
        receipt["at"] -= 180
    receipts.write_text("".join(json.dumps(r) + "\n" for r in kept))
    stored = relay.data / f"{game_id}.jsonl"
    before = stored.read_bytes()
    refused = alice.meeple("send", alice.game, "--relay", relay.url, code=1)
    assert "comes early" in refused.stderr
    assert stored.read_bytes() == before
    (tmp_path / "fresh").mkdir()
    other = Relay(tmp_path / "fresh").start()
    try:
        refused = alice.meeple("send", alice.game, "--relay", other.url, code=1)
        assert "a timeout claim is stored only after a line the relay stored" in refused.stderr
    finally:
        other.stop()


def test_one_address_holds_at_most_sixteen_streams(tmp_path, relay):
    import httpx

    alice, _ = set_up(tmp_path, relay, "classic", ["red", "green"])
    game_id = Game.load(alice.game).remote.game
    with httpx.Client(base_url=relay.url, timeout=10) as client:
        opened = [client.stream("GET", f"/games/{game_id}/stream") for _ in range(17)]
        answers = [s.__enter__() for s in opened]
        try:
            assert [a.status_code for a in answers[:16]] == [200] * 16
            assert answers[16].status_code == 429
        finally:
            for stream in opened:
                stream.__exit__(None, None, None)
    assert relay.get("/key")["key"]


def test_receive_refuses_a_fifo_at_once(tmp_path, relay):
    alice, _ = set_up(tmp_path, relay, "classic", ["red", "green"])
    fifo = tmp_path / "parcel.fifo"
    os.mkfifo(fifo)
    refused = alice.meeple("receive", alice.game, fifo, code=3)
    assert "not a regular file" in refused.stderr


def test_a_relay_lists_the_games_set_up_public_and_only_those(tmp_path, relay):
    from meeple.cli.relay import listing

    (tmp_path / "hidden").mkdir()
    (tmp_path / "shown").mkdir()
    hidden = set_up(tmp_path / "hidden", relay, "classic", ["red", "blue"])
    shown = set_up(tmp_path / "shown", relay, "classic", ["red", "blue"], "--public",
                   "--names", "<b>Ann</b>,Bo")
    hidden_id = Game.load(hidden[0].game).remote.game
    shown_id = Game.load(shown[0].game).remote.game
    assert Game.load(shown[0].game).remote.public is True
    time.sleep(listing.FRESH)
    games = relay.get("/games")["games"]
    assert [g["game"] for g in games] == [shown_id]
    assert games[0]["players"] == [{"colour": "red", "name": "<b>Ann</b>"},
                                   {"colour": "blue", "name": "Bo"}]
    assert games[0]["over"] is False and games[0]["seq"] >= 0
    with urllib.request.urlopen(relay.url + "/", timeout=10) as answer:
        page = answer.read().decode()
    assert f'href="games/{shown_id}/page"' in page and hidden_id not in page
    assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann" not in page
    listed = shown[1].meeple("watch", relay.url, "--json")
    assert [g["game"] for g in json.loads(listed.stdout)["games"]] == [shown_id]
    said = shown[1].meeple("watch", relay.url).stdout
    assert shown_id in said and hidden_id not in said and "<b>Ann</b>, Bo" in said
    # (a game's id is still what reading it takes, public or not)
    assert relay.get(f"/games/{hidden_id}")["game"] == hidden_id


def test_public_is_a_remote_games_option(tmp_path):
    done = main("new", tmp_path / "g.jsonl", "--players", "red,blue", "--public")
    assert done.returncode == 2 and "and --public go with --remote" in done.stderr


def test_a_seat_given_up_through_the_relay_is_played_on_by_its_bot(tmp_path, relay):
    """RM-5 witnessed, three seats: the relay times the claim by its receipts; the seat given
    up writes nothing more; its deputy's copy writes the bot's moves as it receives, and the
    relay stores them; every copy agrees and checks."""
    alice, bob, carol = set_up(tmp_path, relay, "classic", ["red", "green", "blue"],
                               "--time-per-move", "1m", "--takeover", "greedy")
    def rounds(*players: Player) -> None:  # each takes the relay's lines, writes what it owes
        for player in players:
            player.meeple("receive", player.game, "--relay", relay.url)
            player.meeple("send", player.game, "--relay", relay.url, code=None)

    for _ in range(3):
        if Game.load(alice.game).phase == "place":
            break
        rounds(bob, carol, alice)
    move = Game.load(alice.game).legal_moves()[0]
    alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
    alice.meeple("send", alice.game, "--relay", relay.url)
    rounds(carol, bob)  # (blue reveals its part of green's draw, green its own: it draws)
    game_id = Game.load(alice.game).remote.game
    receipts = relay.data / f"{game_id}.receipts"
    kept = [json.loads(line) for line in receipts.read_text().splitlines()]
    for receipt in kept:
        receipt["at"] -= 120  # (green has let two minutes pass, by the relay's receipts)
    receipts.write_text("".join(json.dumps(r) + "\n" for r in kept))
    alice.meeple("receive", alice.game, "--relay", relay.url)
    assert json.loads(alice.meeple("status", alice.game, "--json").stdout)["remote"][
        "waiting_for"][:1] == ["green"] and Game.load(alice.game).phase == "place"
    said = json.loads(alice.meeple("claim-timeout", alice.game, "--relay", relay.url,
                                   "--json").stdout)
    assert said["given_up"] and not said["over"]
    stored = relay.data / f"{game_id}.jsonl"
    assert Game.load(stored).state.joint.gone == [False, True, False]
    for _ in range(3):  # (blue is green's deputy: its copy writes the bot's moves)
        rounds(carol, alice)
    game = Game.load(stored)
    claimed = next(e.seq for e in game.events if isinstance(e, TimeoutClaimed))
    assert any(isinstance(e, TilePlaced) and e.player == "green"
               for e in game.events[claimed:]), "the bot played green's turn"
    assert game.signers is not None and 1 not in game.signers[claimed:]
    bob.meeple("receive", bob.game, "--relay", relay.url)
    assert Game.load(bob.game).head == game.head
    late = bob.meeple("place", bob.game, "0", "1", "0", code=1)
    assert "not your turn" in late.stderr
    alice.meeple("check", stored)


def test_a_seat_that_gives_the_relay_another_move_than_its_opponent_is_caught(tmp_path, relay):
    """red signs one placement for black (by file) and another for the relay. black's
    `receive --relay` says where the copies part and keeps the relay's beside the log, and
    `check` of the two names red (it said "nothing new" before, and `send` "receive
    first", round and round)."""
    red, black = set_up(tmp_path, relay, "star-wars", ["red", "black"])
    red.meeple("receive", red.game, "--relay", relay.url)
    twin = tmp_path / "red-twin"
    shutil.copytree(red.home, twin)
    game = Game.load(red.game)
    moves = game.legal_moves()
    for home, move in ((red.home, moves[0]), (twin, moves[-1])):
        done = main("place", home / "game.jsonl", move.x, move.y, move.rotation, "--no-meeple",
                    env={"HOME": str(home)})
        assert done.returncode == 0, done.stderr
    parcel = tmp_path / "to-black.txt"
    red.meeple("send", red.game, "--out", parcel)
    black.meeple("receive", black.game, parcel)
    done = main("send", twin / "game.jsonl", "--relay", relay.url, env={"HOME": str(twin)})
    assert done.returncode == 0, done.stderr
    before = black.game.read_bytes()
    line = black.meeple("receive", black.game, "--relay", relay.url, code=1).stderr
    forked_at = len(game.events) + 1
    kept = Path(f"{black.game}.fork-1.jsonl")
    assert f"the relay's copy forks from this copy at line {forked_at};" in line, line
    assert f"`meeple check {black.game} {kept}` shows both" in line
    assert black.game.read_bytes() == before and kept.exists()
    again = black.meeple("send", black.game, "--relay", relay.url, code=1).stderr
    assert f"forks from this copy at line {forked_at}" in again and str(kept) in again
    assert not Path(f"{black.game}.fork-2.jsonl").exists()  # the same copy, kept once
    shown = black.meeple("check", black.game, kept, code=1).stdout
    assert f"equivocation: red signed two different lines {forked_at}" in shown


def test_a_claim_the_relay_refuses_is_written_nowhere(tmp_path, relay, monkeypatch):
    """The other seat's move reaches the relay between the claim's clock and its lines (the
    relay answers 409): the claim was kept in the claimer's copy, which then stood over and
    forked from the relay's with no way back. Now its lines go to the relay first."""
    from meeple.cli.relay import client

    from helpers import fail

    alice, bob = set_up(tmp_path, relay, "classic", ["red", "green"], "--time-per-move", "1m")
    alice.meeple("receive", alice.game, "--relay", relay.url)
    move = Game.load(alice.game).legal_moves()[0]
    alice.meeple("place", alice.game, move.x, move.y, move.rotation, "--no-meeple")
    alice.meeple("send", alice.game, "--relay", relay.url)
    _age_last_receipt(relay, alice.game, 120)
    clock = client.relay_clock

    def bob_moves_meanwhile(url, game, head):
        timed = clock(url, game, head)
        bob.meeple("receive", bob.game, "--relay", relay.url)
        answer = Game.load(bob.game).legal_moves()[0]
        bob.meeple("place", bob.game, answer.x, answer.y, answer.rotation, "--no-meeple")
        bob.meeple("send", bob.game, "--relay", relay.url)
        return timed

    monkeypatch.setattr(client, "relay_clock", bob_moves_meanwhile)
    monkeypatch.setenv("HOME", str(alice.home))
    before = alice.game.read_bytes()
    line = fail("claim-timeout", alice.game, "--relay", relay.url, code=1)
    assert "nothing was written" in line, line
    assert alice.game.read_bytes() == before
    alice.meeple("receive", alice.game, "--relay", relay.url)  # and the game goes on
    assert not Game.load(alice.game).over
