"""``meeple bench --relay``: the relay's load benchmark (docs/guide/relay.md, "Load"). A real
``meeple serve`` on a free 127.0.0.1 port, N concurrent remote games of random-move bots
played through its HTTP API, each seat signing its own lines (RM-1); the figures are wall
clock (what a player feels), and every game's stored log is compared with what its players
wrote, byte for byte."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from meeple.cli.bench_signed import write_message
from meeple.engine import Game
from meeple.engine.protocol import Chains, waiting_for
from meeple.events import log as logfile
from meeple.events.model import Remote

#: seconds between one game's messages by default: a turn (about one message) every 5 s
#: in each game, quicker than people play; 0 sends each at once (the relay's throughput)
PACE = 5.0


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


def messages(folder: str, index: int, most: int | None = None) -> tuple[str, list[list[bytes]]]:
    """A remote 2-player classic game by the protocol (as ``bench_signed.signed_game``) as its
    seats send it: its id and each message's signed lines (at most ``most`` messages). Made
    before the clock starts: the players' own work is done on their own machines."""
    from meeple.events.log import encode_lines
    from meeple.events.signing import load_signer, new_key

    rng = random.Random(f"load-{index}")
    keys = [new_key(os.path.join(folder, f"{index}-key{s}")).openssh for s in range(2)]
    signers = [load_signer(os.path.join(folder, f"{index}-key{s}")) for s in range(2)]
    remote = Remote(game=rng.randbytes(16).hex(), keys=tuple(keys), host=0, chain=100)
    game = Game.new(["red", "blue"], "classic", remote=remote)
    chains = [Chains(remote, s, rng.randbytes(32)) for s in range(2)]
    sent: list[list[bytes]] = []
    seat, last, head, count = 0, 0, None, 0
    while not game.over and (most is None or len(sent) < most):
        write_message(game, chains[seat], last, rng)
        lines = encode_lines(game.events[count:], head, sign=signers[seat].sign)
        sent.append(lines)
        count, head = len(game.events), logfile.line_hash(lines[-1])
        last = seat
        waiting = waiting_for(game.state, last)
        seat = waiting[0] if waiting else seat
    return remote.game, sent


async def _play(client, game: str, sent: list[list[bytes]], offset: float, pace: float,
                deadline: float, stop: asyncio.Event) -> Played:
    """Post one game's messages, each after the one before is stored and once ``pace``
    seconds have passed since the one before was due (from ``offset``)."""
    loop = asyncio.get_running_loop()
    played = Played(game=game)
    due = loop.time() + offset
    for message in sent:
        await asyncio.sleep(max(0.0, due - loop.time()))
        if loop.time() >= deadline or stop.is_set():
            return played
        error = await _post(client, played, message)
        if error is not None:
            played.error = error
            return played
        due += pace
    played.finished = True
    return played


async def _post(client, played: Played, new: list[bytes]) -> str | None:
    texts = [line.decode() for line in new]
    body: dict[str, object]
    if not played.lines:
        where, body = "/games", {"lines": texts}
    else:
        where = f"/games/{played.game}/lines"
        body = {"after": len(played.lines) - 1,
                "head": logfile.line_hash(played.lines[-1]), "lines": texts}
    start = time.perf_counter()
    answer = await client.post(where, json=body)
    played.latencies.append(time.perf_counter() - start)
    if answer.status_code not in (200, 201):
        return f"{where}: status {answer.status_code}: {answer.text[:200]}"
    played.lines.extend(new)
    return None


def _meeple() -> list[str]:
    beside = os.path.join(os.path.dirname(sys.executable), "meeple")
    return [beside if os.path.exists(beside) else shutil.which("meeple") or "meeple"]


def _serve(folder: str, port: int, rate: float, workers: int = 1) -> subprocess.Popen:
    """``meeple serve`` on 127.0.0.1 with a new key and data folder, once it answers."""
    import httpx

    from meeple.cli.store import Failure
    from meeple.events.signing import new_key

    key = os.path.join(folder, "relay-key")
    new_key(key)
    server = subprocess.Popen(
        [*_meeple(), "serve", "--data", os.path.join(folder, "data"), "--key", key, "--host",
         "127.0.0.1", "--port", str(port), "--rate", str(rate), "--workers", str(workers)],
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


def run(games: int, seconds: float, pace: float = PACE, workers: int = 1) -> dict:
    """Play ``games`` concurrent games through a new relay for at most ``seconds``, each
    game's next message ``pace`` seconds after the one before (0: at once); the figures
    (wall-clock append latency in ms) and the lost/duplicated line check."""
    most = None if pace <= 0 else int(seconds / pace) + 1
    with tempfile.TemporaryDirectory(prefix="meeple-relay-load-") as folder:
        made = time.monotonic()
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            played = list(pool.map(messages, [folder] * games, range(games), [most] * games))
        made = time.monotonic() - made
        port = _free_port()
        before = _children_cpu()
        server = _serve(folder, port, 1e6, workers)
        try:
            start = time.monotonic()
            results = asyncio.run(_all(f"http://127.0.0.1:{port}", played, pace, seconds))
            elapsed = time.monotonic() - start
        finally:
            _stop(server)
        relay_cpu = _children_cpu() - before
        lost, duplicated = _compare(os.path.join(folder, "data"), results)
    latencies = [t * 1000 for r in results for t in r.latencies]
    load = os.getloadavg()
    return {
        "clock": "wall",
        "machine": {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in load]},
        "games": games, "pace_s": pace, "workers": workers, "made_in_s": round(made, 2),
        "seconds": round(elapsed, 2),
        "finished": sum(r.finished for r in results),
        "failed": sum(r.error is not None for r in results),
        "errors": [r.error for r in results if r.error is not None][:5],
        "appends": len(latencies),
        "appends_per_second": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {"p50": round(_percentile(latencies, 0.50), 2),
                       "p99": round(_percentile(latencies, 0.99), 2),
                       "max": round(max(latencies, default=0.0), 2)},
        "relay_cpu_s": round(relay_cpu, 2),
        "relay_cpu_ms_per_append": round(relay_cpu * 1000 / len(latencies), 2)
        if latencies else 0.0,
        "lines_stored": sum(len(r.lines) for r in results),
        "lost": lost, "duplicated": duplicated,
    }


def _children_cpu() -> float:
    """The CPU time (user and system) of the child processes waited for so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def _all(url: str, played: list[tuple[str, list[list[bytes]]]], pace: float,
               seconds: float) -> list[Played]:
    """Every game at once, their first messages spread over one ``pace``."""
    import httpx

    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=len(played) + 8, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=url, timeout=30.0, limits=limits) as client:
        tasks = [_guarded(client, index, game, sent, pace * index / len(played), pace,
                          deadline, stop)
                 for index, (game, sent) in enumerate(played)]
        try:
            return list(await asyncio.gather(*tasks))
        except BaseException:
            stop.set()
            raise


async def _guarded(client, index: int, game: str, sent: list[list[bytes]], offset: float,
                   pace: float, deadline: float, stop: asyncio.Event) -> Played:
    try:
        return await _play(client, game, sent, offset, pace, deadline, stop)
    except Exception as exc:  # noqa: BLE001 - a failed game is a figure of the report
        return Played(game=game, error=f"game {index}: {type(exc).__name__}: {exc}"[:300])


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
                  f"{report['failed']} failed, in {report['seconds']} s (made in "
                  f"{report['made_in_s']} s before)"),
        ("pace", f"a message each {report['pace_s']} s a game" if report["pace_s"] > 0
                 else "each message at once"),
        ("relay", f"{report['workers']} process(es)"),
        ("appends", f"{report['appends']} ({report['appends_per_second']}/s)"),
        ("append latency (wall)", f"p50 {latency['p50']} ms, p99 {latency['p99']} ms, "
                                  f"max {latency['max']} ms"),
        ("relay's CPU", f"{report['relay_cpu_s']} s, {report['relay_cpu_ms_per_append']} ms "
                        "an append (start-up included)"),
        ("lines stored", str(report["lines_stored"])),
        ("lost / duplicated", f"{report['lost']} / {report['duplicated']}"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
