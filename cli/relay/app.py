"""The relay's HTTP API, an ASGI application on Starlette (docs/guide/relay.md).

- ``GET /games``: the public games (``meeple.cli.relay.listing``); ``GET /``: a page of
  links to them.
- ``POST /games`` ``{"lines": [LINE, ...]}``: a new game from its signed set-up; 201.
- ``GET /games/ID?after=SEQ``: the lines after ``SEQ`` (default -1: all), with the head.
- ``POST /games/ID/lines`` ``{"after": SEQ, "head": HASH, "lines": [...]}``: append; 409
  with the current ``head`` and ``seq`` when ``after`` is not the last line.
- ``GET /games/ID/stream``: Server-Sent Events, one per line, ``id:`` its seq, from the line
  after ``Last-Event-ID`` (or ``?after=``): a client that reconnects misses nothing and gets
  nothing twice.
- ``GET /games/ID/clock``: when the relay stored the last line, and its clock now (what a
  timeout claim is judged by).
- ``GET /games/ID/page``: the game's replay page, which follows the game live.
- ``GET /key``: the relay's public key, which signs its receipts.

Every answer is JSON (but the stream); a refusal is ``{"error": ONE LINE, "kind": ...}``
with a 4xx status, never a traceback. Bodies are bounded before they are read.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from meeple.cli.relay.listing import Listing
from meeple.cli.relay.listing import page as listing_page
from meeple.cli.relay.store import Games, Receipt, Refused
from meeple.events.limits import MAX_LINE_BYTES

#: the largest request body the relay reads, in bytes
MAX_BODY = 4 * 1024 * 1024
#: the most lines one request may bring
MAX_LINES = 2000
#: how often a stream looks for new lines, in seconds
POLL = 0.1
#: the streams one address may hold open at once
MAX_STREAMS = 16
#: the seconds a client has to send a request's body
BODY_SECONDS = 10.0
#: requests a client (an address) may make by default: so many a second, three times as many
#: at once
RATE = 40.0


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    lines: list[str]


class Append(msgspec.Struct, forbid_unknown_fields=True):
    after: int
    head: str | None
    lines: list[str]


def _lines(texts: list[str]) -> list[bytes]:
    if not texts or len(texts) > MAX_LINES:
        raise Refused(413 if texts else 400, f"a request brings 1 to {MAX_LINES} lines",
                      "too_large" if texts else "usage")
    lines = []
    for text in texts:
        line = text.encode()
        if len(line) > MAX_LINE_BYTES or b"\n" in line or b"\r" in line or not line:
            raise Refused(400, "a line is one non-empty line of a log, within the line limit",
                          "usage")
        lines.append(line)
    return lines


async def _body(request: Request, kind: type) -> object:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(413, f"the body is over {MAX_BODY} bytes", "too_large")
    data = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise Refused(413, f"the body is over {MAX_BODY} bytes", "too_large")
    except TimeoutError:
        raise Refused(408, f"the body took over {BODY_SECONDS:.0f} s to come", "timeout") \
            from None
    try:
        return msgspec.json.decode(bytes(data), type=kind)
    except msgspec.ValidationError as exc:
        raise Refused(400, f"the body does not hold what this call takes: {exc}", "usage") \
            from None
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        raise Refused(400, "the body is not JSON", "usage") from None


def _receipts(receipts: list[Receipt]) -> list[dict]:
    return [msgspec.to_builtins(r) for r in receipts]


def make_app(games: Games, rate: float = RATE) -> Starlette:
    """The relay's application over ``games``, admitting ``rate`` requests a second from an
    address (a burst of three times that)."""
    burst = 3 * rate
    listing = Listing(games)
    locks: dict[str, threading.Lock] = {}
    guard = threading.Lock()
    buckets: dict[str, tuple[float, float]] = {}
    streams: dict[str, int] = {}

    def admit(request: Request) -> None:
        """A token bucket per client address."""
        who = request.client.host if request.client is not None else "-"
        now = time.monotonic()
        tokens, then = buckets.get(who, (burst, now))
        tokens = min(burst, tokens + (now - then) * rate)
        if tokens < 1:
            raise Refused(429, "too many requests from this address: wait a moment", "busy")
        if len(buckets) > 10_000:
            buckets.clear()
        buckets[who] = (tokens - 1, now)

    def lock_of(game: str) -> threading.Lock:
        with guard:
            return locks.setdefault(game, threading.Lock())

    async def create(request: Request) -> Response:
        admit(request)
        body = await _body(request, NewGame)
        assert isinstance(body, NewGame)
        game, receipts = await run_in_threadpool(games.create, _lines(body.lines))
        return JSONResponse({"game": game, "seq": len(receipts) - 1,
                             "head": receipts[-1].hash, "receipts": _receipts(receipts)},
                            status_code=201)

    async def append(request: Request) -> Response:
        admit(request)
        game = request.path_params["game"]
        games.path(game)
        body = await _body(request, Append)
        assert isinstance(body, Append)
        lines = _lines(body.lines)

        def locked() -> list[Receipt]:
            with lock_of(game):
                return games.append(game, body.after, body.head, lines)

        receipts = await run_in_threadpool(locked)
        return JSONResponse({"game": game, "seq": receipts[-1].seq, "head": receipts[-1].hash,
                             "receipts": _receipts(receipts)})

    async def read(request: Request) -> Response:
        admit(request)
        game = request.path_params["game"]
        after = _after(request.query_params.get("after"))
        raw, head = await run_in_threadpool(games.stored, game)
        return JSONResponse({"game": game, "seq": len(raw) - 1, "head": head,
                             "after": after,
                             "lines": [line.decode() for line in raw[after + 1:]]})

    async def stream(request: Request) -> Response:
        admit(request)
        from sse_starlette.sse import EventSourceResponse

        game = request.path_params["game"]
        raw, _ = await run_in_threadpool(games.stored, game)
        path = games.path(game)
        last = request.headers.get("last-event-id")
        after = _after(last if last is not None else request.query_params.get("after"))

        who = request.client.host if request.client is not None else "-"
        if streams.get(who, 0) >= MAX_STREAMS:
            raise Refused(429, f"{MAX_STREAMS} streams are open from this address already",
                          "busy")
        streams[who] = streams.get(who, 0) + 1

        async def events() -> AsyncIterator[dict]:
            try:
                async for event in lines():
                    yield event
            finally:
                streams[who] -= 1
                if not streams[who]:
                    del streams[who]

        async def lines() -> AsyncIterator[dict]:
            sent = after
            known = raw
            size = -1
            while True:
                while sent + 1 < len(known):
                    sent += 1
                    yield {"id": str(sent), "event": "line", "data": known[sent].decode()}
                await asyncio.sleep(POLL)
                if await request.is_disconnected():
                    return
                now = os.stat(path).st_size  # (read again only when the log has grown)
                if now != size:
                    size = now
                    known, _ = await run_in_threadpool(games.stored, game)

        return EventSourceResponse(events(), ping=15)

    async def clock(request: Request) -> Response:
        admit(request)
        game = request.path_params["game"]
        raw, head = await run_in_threadpool(games.stored, game)
        since = await run_in_threadpool(games.received_at, game, len(raw) - 1)
        return JSONResponse({"game": game, "seq": len(raw) - 1, "head": head,
                             "received_at": since, "now": int(time.time())})

    async def page(request: Request) -> Response:
        admit(request)
        html = await run_in_threadpool(games.page, request.path_params["game"])
        return HTMLResponse(html)

    async def public(request: Request) -> Response:
        admit(request)
        listed = await run_in_threadpool(listing.public)
        return JSONResponse({"games": [msgspec.to_builtins(g) for g in listed]})

    async def front(request: Request) -> Response:
        admit(request)
        return HTMLResponse(listing_page(await run_in_threadpool(listing.public)))

    async def key(request: Request) -> Response:
        return JSONResponse({"key": games.signer.public.openssh,
                             "fingerprint": games.signer.public.fingerprint})

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return JSONResponse({"error": exc.message, "kind": exc.kind, **exc.extra},
                            status_code=exc.status)

    async def unknown(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": "no such call: see docs/guide/relay.md" if status == 404
                             else "this call takes another method", "kind": "usage"},
                            status_code=status)

    async def failed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": "the relay failed on this request", "kind": "internal"},
                            status_code=500)

    return Starlette(routes=[
        Route("/", front, methods=["GET"]),
        Route("/games", public, methods=["GET"]),
        Route("/games", create, methods=["POST"]),
        Route("/games/{game}", read, methods=["GET"]),
        Route("/games/{game}/lines", append, methods=["POST"]),
        Route("/games/{game}/stream", stream, methods=["GET"]),
        Route("/games/{game}/clock", clock, methods=["GET"]),
        Route("/games/{game}/page", page, methods=["GET"]),
        Route("/key", key, methods=["GET"]),
    ], exception_handlers={Refused: refused, 404: unknown, 405: unknown, Exception: failed})


#: where ``from_environment`` finds the relay's folder, key and rate (``meeple serve
#: --workers``: each process makes its application from them)
ENVIRONMENT = ("MEEPLE_RELAY_DATA", "MEEPLE_RELAY_KEY", "MEEPLE_RELAY_RATE")


def from_environment() -> Starlette:
    """The relay's application in one of ``meeple serve --workers``'s processes. They share
    the folder: each append is checked against the log under its lock, and a game another
    process went on with is caught up with from the lines it stored."""
    from meeple.cli.remote import load_signer

    data, key, rate = (os.environ[name] for name in ENVIRONMENT)
    return make_app(Games(data, load_signer(key)), float(rate))


def _after(text: str | None) -> int:
    if text is None:
        return -1
    try:
        after = int(text)
    except ValueError:
        raise Refused(400, f"after is a seq (a whole number), not {text[:40]!r}",
                      "usage") from None
    if after < -1:
        raise Refused(400, "after is -1 or more", "usage")
    return after
