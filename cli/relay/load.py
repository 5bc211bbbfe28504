"""``meeple bench --relay``: the relay's load benchmark (README, "The relay", Load). A real
``meeple serve`` on a free 127.0.0.1 port, N concurrent remote games of random-move bots
played through its HTTP API, each seat signing its own lines (RM-1); the figures are wall
clock (what a player feels), and every game's stored log is compared with what its players
wrote, byte for byte."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from meeple.cli.bench_signed import write_message
from meeple.engine import Game
from meeple.engine.protocol import Chains, waiting_for
from meeple.events.model import Remote


@dataclass
class Played:
    """One game as its clients saw it: the id, the lines they wrote, each append's latency."""
    game: str = ""
    lines: list[bytes] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    finished: bool = False
    error: str | None = None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _play(url: str, folder: str, index: int, deadline: float,
          stop: threading.Event) -> Played:
    """A remote 2-player classic game by the protocol (as ``bench_signed.signed_game``), each
    save's new lines POSTed to the relay after the head it holds."""
    import httpx

    from meeple.events.signing import load_signer, new_key

    played = Played()
    rng = random.Random(f"load-{index}")
    keys = [new_key(os.path.join(folder, f"{index}-key{s}")).openssh for s in range(2)]
    signers = [load_signer(os.path.join(folder, f"{index}-key{s}")) for s in range(2)]
    remote = Remote(game=rng.randbytes(16).hex(), keys=tuple(keys), host=0, chain=100)
    played.game = remote.game
    game = Game.new(["red", "blue"], "classic", remote=remote)
    chains = [Chains(remote, s, rng.randbytes(32)) for s in range(2)]
    path = os.path.join(folder, f"{index}.jsonl")
    seat, last = 0, 0
    with httpx.Client(base_url=url, timeout=30.0) as client:
        while not game.over and time.monotonic() < deadline and not stop.is_set():
            write_message(game, chains[seat], last, rng)
            game.save(path if game.path is None else None, sign=signers[seat].sign, seat=seat)
            with open(path, "rb") as file:
                lines = file.read().split(b"\n")[:-1]
            new = lines[len(played.lines):]
            if new:
                error = _post(client, played, new, game)
                if error is not None:
                    played.error = error
                    return played
            last = seat
            waiting = waiting_for(game.state, last)
            seat = waiting[0] if waiting else seat
    played.finished = game.over
    return played


def _post(client, played: Played, new: list[bytes], game: Game) -> str | None:
    texts = [line.decode() for line in new]
    body: dict[str, object]
    if not played.lines:
        where, body = "/games", {"lines": texts}
    else:
        where = f"/games/{played.game}/lines"
        body = {"after": len(played.lines) - 1, "head": game.hashes[len(played.lines) - 1],
                "lines": texts}
    start = time.perf_counter()
    answer = client.post(where, json=body)
    played.latencies.append(time.perf_counter() - start)
    if answer.status_code not in (200, 201):
        return f"{where}: status {answer.status_code}: {answer.text[:200]}"
    played.lines.extend(new)
    return None


def _meeple() -> list[str]:
    beside = os.path.join(os.path.dirname(sys.executable), "meeple")
    return [beside if os.path.exists(beside) else shutil.which("meeple") or "meeple"]


def _serve(folder: str, port: int, rate: float) -> subprocess.Popen:
    """``meeple serve`` on 127.0.0.1 with a new key and data folder, once it answers."""
    import httpx

    from meeple.cli.store import Failure
    from meeple.events.signing import new_key

    key = os.path.join(folder, "relay-key")
    new_key(key)
    server = subprocess.Popen(
        [*_meeple(), "serve", "--data", os.path.join(folder, "data"), "--key", key, "--host",
         "127.0.0.1", "--port", str(port), "--rate", str(rate)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise Failure("the relay did not start: "
                          f"{server.stderr.read().decode()[-300:] if server.stderr else ''}", 3)
        try:
            httpx.get(f"http://127.0.0.1:{port}/key", timeout=2)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    _stop(server)
    raise Failure("the relay did not start within 30 s", 3)


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(games: int, seconds: float) -> dict:
    """Play ``games`` concurrent games through a new relay for at most ``seconds``; the
    figures (wall-clock append latency in ms) and the lost/duplicated line check."""
    with tempfile.TemporaryDirectory(prefix="meeple-relay-load-") as folder:
        port = _free_port()
        server = _serve(folder, port, 1e6)
        try:
            url = f"http://127.0.0.1:{port}"
            start = time.monotonic()
            deadline = start + seconds
            stop = threading.Event()
            with ThreadPoolExecutor(max_workers=games) as pool:
                try:
                    results = list(pool.map(
                        lambda i: _guarded(url, folder, i, deadline, stop), range(games)))
                except BaseException:
                    stop.set()
                    raise
            elapsed = time.monotonic() - start
        finally:
            _stop(server)
        lost, duplicated = _compare(os.path.join(folder, "data"), results)
    latencies = [t * 1000 for r in results for t in r.latencies]
    load = os.getloadavg()
    return {
        "clock": "wall",
        "machine": {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in load]},
        "games": games, "seconds": round(elapsed, 2),
        "finished": sum(r.finished for r in results),
        "failed": sum(r.error is not None for r in results),
        "errors": [r.error for r in results if r.error is not None][:5],
        "appends": len(latencies),
        "appends_per_second": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {"p50": round(_percentile(latencies, 0.50), 2),
                       "p99": round(_percentile(latencies, 0.99), 2),
                       "max": round(max(latencies, default=0.0), 2)},
        "lines_stored": sum(len(r.lines) for r in results),
        "lost": lost, "duplicated": duplicated,
    }


def _guarded(url: str, folder: str, index: int, deadline: float,
             stop: threading.Event) -> Played:
    try:
        return _play(url, folder, index, deadline, stop)
    except Exception as exc:  # noqa: BLE001 - a failed game is a figure of the report
        return Played(error=f"game {index}: {type(exc).__name__}: {exc}"[:300])


def _compare(data: str, results: list[Played]) -> tuple[int, int]:
    """Lines the clients wrote and the relay lacks (lost), and lines it holds beyond them
    or out of place (duplicated); a game's stored log must be the same bytes."""
    lost = duplicated = 0
    for played in results:
        if not played.game:
            continue
        path = os.path.join(data, played.game + ".jsonl")
        stored = []
        if os.path.exists(path):
            with open(path, "rb") as file:
                stored = file.read().split(b"\n")[:-1]
        same = sum(a == b for a, b in zip(stored, played.lines, strict=False))
        lost += len(played.lines) - same
        duplicated += len(stored) - same
    return lost, duplicated


def render(report: dict) -> str:
    """The report as a short table."""
    latency, machine = report["latency_ms"], report["machine"]
    rows = [
        ("machine", f"{machine['cpus']} cpus, load average "
                    + " ".join(str(x) for x in machine["load_average"])),
        ("games", f"{report['games']} concurrent, {report['finished']} finished, "
                  f"{report['failed']} failed, in {report['seconds']} s"),
        ("appends", f"{report['appends']} ({report['appends_per_second']}/s)"),
        ("append latency (wall)", f"p50 {latency['p50']} ms, p99 {latency['p99']} ms, "
                                  f"max {latency['max']} ms"),
        ("lines stored", str(report["lines_stored"])),
        ("lost / duplicated", f"{report['lost']} / {report['duplicated']}"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
