"""What players can hold the relay to (docs/guide/relay.md): its stream resumes from
``Last-Event-ID`` without a gap or a duplicate; a relay that alters, drops, reorders or
withholds lines, or serves another game's, is caught by ``receive --relay``, the player's log
untouched; the real relay refuses another game's lines and lines it already holds."""

from __future__ import annotations

import json
import random
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from meeple.cli.transport import read_lines
from meeple.engine import Game
from meeple.events import line_hash

from helpers import main
from relay_helpers import Player, Relay, play_turns, set_up

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                 reason="OpenSSH's ssh-keygen is not installed")]


def folder(root: Path, name: str) -> Path:
    (root / name).mkdir()
    return root / name


def stored_lines(relay: Relay, game_id: str) -> list[bytes]:
    return (relay.data / f"{game_id}.jsonl").read_bytes().split(b"\n")[:-1]


def events(lines: Iterator[str], count: int) -> list[tuple[int, bytes]]:
    """The next ``count`` events of an SSE answer's lines, as (id, data); ``: ping`` comments
    and other fields are skipped."""
    got: list[tuple[int, bytes]] = []
    event_id: int | None = None
    data: list[str] = []
    for text in lines:
        if text == "":
            if data:
                assert event_id is not None, data
                got.append((event_id, "\n".join(data).encode()))
                if len(got) == count:
                    return got
            event_id, data = None, []
        elif text.startswith(":"):
            continue
        else:
            field, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                event_id = int(value)
            elif field == "data":
                data.append(value)
    raise AssertionError(f"the stream ended after {len(got)} of {count} events")


def test_the_stream_resumes_from_last_event_id_and_carries_new_lines_live(tmp_path, relay):
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    play_turns(players, relay, random.Random(3), turns=4)
    game_id = Game.load(players[0].game).remote.game
    held = stored_lines(relay, game_id)
    assert len(held) >= 6
    where = f"{relay.url}/games/{game_id}/stream"
    timeout = httpx.Timeout(20.0)
    k = 3
    with httpx.stream("GET", where, timeout=timeout) as first:
        assert first.status_code == 200
        before = events(first.iter_lines(), k)
    last = before[-1][0]
    with httpx.stream("GET", where, headers={"Last-Event-ID": str(last)},
                      timeout=timeout) as second:
        assert second.status_code == 200
        stream = second.iter_lines()
        caught_up = events(stream, len(held) - k)
        # the relay read the game when this stream opened: a line sent now comes live
        play_turns(players, relay, random.Random(4), turns=1)
        now = stored_lines(relay, game_id)
        assert len(now) > len(held)
        live = events(stream, len(now) - len(held))
    received = before + caught_up + live
    assert [seq for seq, _ in received] == list(range(len(now)))
    assert [data for _, data in received] == now


def honest_game(tmp_path: Path, relay: Relay) -> tuple[Player, Path, list[bytes], str]:
    """A game played through the real relay: a player, a copy of that player's folder taken
    a few turns before the end, the relay's lines, the game's id."""
    players = set_up(tmp_path, relay, "classic", ["red", "green"])
    play_turns(players, relay, random.Random(5), turns=2)
    behind = players[1]
    snapshot = tmp_path / "snapshot"
    shutil.copytree(behind.home, snapshot)
    play_turns(players, relay, random.Random(6), turns=4)
    game_id = Game.load(behind.game).remote.game
    return behind, snapshot, stored_lines(relay, game_id), game_id


class Double:
    """A dishonest relay on 127.0.0.1: ``GET /games/ID?after=N`` answers ``lines[N+1:]`` of
    whatever lines it is given; ``POST /games/ID/lines`` answers with the receipts it is
    given; ``GET /key`` with the key it is given."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.receipts: list[dict] = []
        self.key = ""
        #: an answer to every GET of a game instead, in chunks: bytes no relay would send
        self.raw: list[bytes] | None = None
        double = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the http.server name)
                parts = urlsplit(self.path)
                if parts.path == "/key":
                    return self.answer({"key": double.key})
                if double.raw is not None:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    try:
                        for chunk in double.raw:
                            self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass  # the client stopped reading, as it should
                    return None
                after = int(parse_qs(parts.query).get("after", ["-1"])[0])
                self.answer({
                    "game": parts.path.split("/")[-1], "seq": len(double.lines) - 1,
                    "head": line_hash(double.lines[-1]), "after": after,
                    "lines": [line.decode() for line in double.lines[after + 1:]]})

            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                self.answer({"seq": len(double.lines), "head": None,
                             "receipts": double.receipts})

            def answer(self, document: dict) -> None:
                body = json.dumps(document).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def double():
    served = Double()
    yield served
    served.close()


def receive_from(snapshot: Path, root: Path, name: str, url: str, code: int) -> tuple[str,
                                                                                    Path]:
    """``receive --relay URL`` on a fresh copy of ``snapshot``: the one-line error (or
    output), and the copy's log."""
    home = root / name
    shutil.copytree(snapshot, home)
    game = home / "game.jsonl"
    before = game.read_bytes()
    done = main("receive", game, "--relay", url, env={"HOME": str(home)})
    assert done.returncode == code, (name, done.stdout, done.stderr)
    if code != 0:
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert game.read_bytes() == before, name
    return done.stderr.strip() or done.stdout.strip(), game


def test_a_dishonest_relay_is_caught_and_the_log_is_untouched(tmp_path, relay, double):
    player, snapshot, honest, game_id = honest_game(tmp_path, relay)
    mine = len((snapshot / "game.jsonl").read_bytes().split(b"\n")[:-1])
    assert len(honest) >= mine + 3
    cases = tmp_path / "cases"
    cases.mkdir()

    # the double is a relay: served honestly, its lines are taken
    double.lines = honest
    _, game = receive_from(snapshot, cases, "honest", double.url, 0)
    assert game.read_bytes().split(b"\n")[:-1][:len(honest)] == honest

    # withheld: an empty answer while lines exist is only "nothing new"; a relay can delay a
    # player, not deceive one (the log stays as it was)
    double.lines = honest[:mine]
    _, game = receive_from(snapshot, cases, "withheld", double.url, 0)
    assert game.read_bytes() == (snapshot / "game.jsonl").read_bytes()

    altered = honest[mine].replace(b'"seq":', b'"seq": ', 1)
    assert altered != honest[mine]
    refusals = {
        "altered": (honest[:mine] + [altered] + honest[mine + 1:], ("sign", "forged")),
        "dropped": (honest[:mine] + honest[mine + 1:], ("missing",)),
        "reordered": (honest[:mine] + [honest[mine + 1], honest[mine]] + honest[mine + 2:],
                      ("reordered",)),
    }
    for name, (lines, reasons) in refusals.items():
        double.lines = lines
        said, _ = receive_from(snapshot, cases, name, double.url, 3)
        assert any(r in said for r in reasons), (name, said)
        assert f":{mine + 1}:" in said or f"line {mine + 1}" in said, (name, said)

    # another game's lines at the same places: a relay cannot pass one game off as another
    others = set_up(folder(tmp_path, "other"), relay, "classic", ["red", "green"])
    play_turns(others, relay, random.Random(7), turns=6)
    foreign = stored_lines(relay, Game.load(others[0].game).remote.game)
    assert foreign[:mine] != honest[:mine]
    double.lines = honest[:mine] + foreign[mine:]
    said, _ = receive_from(snapshot, cases, "foreign", double.url, 3)
    assert "prev" in said and f"line {mine + 1}" in said, said


def test_the_relay_refuses_another_games_lines_and_lines_it_holds(tmp_path, relay):
    a = set_up(folder(tmp_path, "a"), relay, "classic", ["red", "green"])
    b = set_up(folder(tmp_path, "b"), relay, "classic", ["red", "green"])
    play_turns(a, relay, random.Random(8), turns=3)
    play_turns(b, relay, random.Random(9), turns=3)
    game_a = Game.load(a[0].game).remote.game
    game_b = Game.load(b[0].game).remote.game
    lines_a, lines_b = stored_lines(relay, game_a), stored_lines(relay, game_b)
    before_b = (relay.data / f"{game_b}.jsonl").read_bytes()
    head_b = Game.load(relay.data / f"{game_b}.jsonl").head
    seq_b = len(lines_b) - 1

    # a line of game A offered as the next line of game B
    got, answer = relay.post(f"/games/{game_b}/lines", json.dumps(
        {"after": seq_b, "head": head_b, "lines": [lines_a[len(lines_b)].decode()
                                                   if len(lines_a) > len(lines_b)
                                                   else lines_a[-1].decode()]}).encode())
    assert 400 <= got < 500, answer
    assert set(answer) >= {"error", "kind"} and "Traceback" not in answer["error"]
    assert (relay.data / f"{game_b}.jsonl").read_bytes() == before_b

    # a line B holds, sent again after the line before it: the head has moved on
    hashes = read_lines(str(relay.data / f"{game_b}.jsonl")).log.hashes
    for seq in (seq_b, 1):
        got, answer = relay.post(f"/games/{game_b}/lines", json.dumps(
            {"after": seq - 1, "head": hashes[seq - 1],
             "lines": [lines_b[seq].decode()]}).encode())
        assert got == 409 and answer["head"] == head_b and answer.get("seq", seq_b) == seq_b, \
            (seq, answer)
    assert (relay.data / f"{game_b}.jsonl").read_bytes() == before_b
    receipts = (relay.data / f"{game_b}.receipts").read_text().splitlines()
    assert len(receipts) == len(lines_b)


def test_a_forged_receipt_is_refused_and_not_kept(tmp_path, relay, double):
    _, snapshot, honest, game_id = honest_game(tmp_path, relay)
    mine = len((snapshot / "game.jsonl").read_bytes().split(b"\n")[:-1])
    held = [json.loads(r) for r in (relay.data / f"{game_id}.receipts").read_text().split()]
    double.lines, double.key = honest[:mine - 1], relay.get("/key")["key"]
    forged = {
        "its time changed": dict(held[mine - 1], at=held[mine - 1]["at"] + 1),
        "its hash changed": dict(held[mine - 1], hash=held[mine].get("hash")),
        "another line's": held[0],
        "another game's": dict(held[mine - 1], game="0" * 32),
    }
    for name, receipt in [("honest", held[mine - 1]), *forged.items()]:
        home = folder(tmp_path, name.replace(" ", "-").replace("'", ""))
        shutil.rmtree(home)
        shutil.copytree(snapshot, home)
        game = home / "game.jsonl"
        before = game.read_bytes()
        double.receipts = [receipt]
        done = main("send", game, "--relay", double.url, env={"HOME": str(home)})
        kept = Path(f"{game}.receipts")
        kept_lines = kept.read_text().splitlines() if kept.exists() else []
        assert game.read_bytes() == before, name
        if name == "honest":
            assert done.returncode == 0, done.stderr
            assert kept_lines[-1:] == [json.dumps(receipt, separators=(",", ":"))]
            continue
        assert done.returncode == 3, (name, done.stdout, done.stderr)
        said = done.stderr.strip()
        assert "receipt for line" in said and "forged" in said, (name, said)
        assert len(said.splitlines()) == 1 and "Traceback" not in said, (name, said)
        assert json.dumps(receipt, separators=(",", ":")) not in kept_lines, name


def test_a_relay_answer_too_deep_or_too_large_is_refused_in_one_line(tmp_path, relay, double):
    _, snapshot, _, _ = honest_game(tmp_path, relay)
    cases = tmp_path / "cases"
    cases.mkdir()
    double.raw = [b"[" * 100_000]
    said, _ = receive_from(snapshot, cases, "deep", double.url, 3)
    assert "not one meeple reads (Expected `object`, got `array`" in said, said
    # a value of another shape is refused at its first element, not built whole (20 MB of
    # empty lists took 808 MB as Python objects before)
    double.raw = [b'{"lines": [' + b"[]," * 6_000_000 + b"[]]}"]
    said, _ = receive_from(snapshot, cases, "shape", double.url, 3)
    assert "not one meeple reads (Expected `str`, got `array` - at `$.lines[0]`" in said, said
    double.raw = [b'{"lines": ["' + b"x" * (1 << 20)] + [b"x" * (1 << 20)] * 140
    said, _ = receive_from(snapshot, cases, "huge", double.url, 3)
    assert "over" in said and "bytes" in said, said


def test_an_answer_without_the_fields_meeple_reads_says_what_it_lacks(tmp_path):
    """A relay's answer decoded into the fields meeple reads keeps out the fields it did not
    hold: an error answer with no `error` says its status, not "None"."""
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    from meeple.cli.relay.client import fetch
    from meeple.cli.store import Failure

    class Bare(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(503)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"other": [[1, 2]]}')

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Bare)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        with pytest.raises(Failure) as refused:
            fetch(url, "0" * 32)
        assert refused.value.message == f"{url}: status 503"
    finally:
        server.shutdown()
