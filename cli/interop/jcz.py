"""JCloisterZone 5 saves (``.jcz``, JSON) read into a classic game (CL-1 to CL-7;
docs/guide/interop.md); ``meeple.cli.interop.jcz_writing`` writes them.

A save holds the set-up, the players and ``replay``, the players' messages: ``PLACE_TILE``,
``DEPLOY_MEEPLE``, ``PASS``, ``COMMIT`` (which ends a turn and carries the random value of the
next draw), ``UNDO``. JCloisterZone draws ``floor(random * n)``-th of the ``n`` tiles left,
sorted by id, the random number moving on by a linear congruential step after each use; a
save's ``gameAnnotations.drawOrder`` (local games) draws listed tiles first. Its y axis grows
south, meeple's north.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from typing import Any

from meeple.cli.interop.moves import (
    Refused,
    Turn,
    draw,
    new_table_game,
    place,
)
from meeple.cli.interop.tilemap import (
    JCZ_BASE,
    JCZ_OF,
    JCZ_TILES,
    JCZ_TURNED,
    Spot,
    classic_tiles,
    read_location,
    spots,
)
from meeple.engine import Game

#: the largest save read, in bytes, and the most messages in its replay
MAX_SAVE = 8 << 20
MAX_MESSAGES = 20_000
MAX_NAME = 64
#: JCloisterZone refuses saves older than this
OLDEST = (5, 7, 0)
WRITTEN_VERSION = "5.12.1"
ROTATIONS = {"R0": 0, "R90": 90, "R180": 180, "R270": 270}
START = {"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}

#: JCloisterZone's linear congruential step (``RandomGenerator``): after each use the random
#: number becomes the next of x -> a x + c mod 2^48 on the low 48 bits of its IEEE 754 bits
_M = (1 << 48) - 1
_A = 25214903917
_C = 11


def next_random(value: float) -> float:
    bits = int.from_bytes(struct.pack(">d", value), "big") & _M
    return ((_A * bits + _C) & _M) / float(_M + 1)


class Pack:
    """JCloisterZone's tile pack for the classic game: the tiles left sorted by id, a forced
    draw order first if the save has one, ``limit`` draws at most if it sets one."""

    def __init__(self, draw_order: list[str], limit: int | None, fiesta: bool):
        ids = JCZ_TILES if fiesta else JCZ_BASE
        counts = {jcz: classic_tiles(fiesta)[letter].count for jcz, letter in ids.items()}
        counts["BA/RCr"] -= 1  # the start tile is taken from the pack
        self.tiles = sorted(jcz for jcz, n in counts.items() for _ in range(n))
        self.queue = list(draw_order)
        self.limit = limit

    def empty(self) -> bool:
        return not self.tiles or self.limit is not None and self.limit <= 0

    def draw(self, random: float) -> tuple[str, float]:
        """The tile drawn with ``random``, and the random number after it."""
        if self.queue:
            tile = self.queue.pop(0)
            if tile not in self.tiles:
                raise Refused(f"drawOrder names {tile!r}, which is not left in the pack")
        else:
            tile = self.tiles[int(random * len(self.tiles))]
            random = next_random(random)
        self.tiles.remove(tile)
        if self.limit is not None:
            self.limit -= 1
        return tile, random


def _version(text: object) -> tuple[int, ...]:
    if not isinstance(text, str) or not re.fullmatch(r"\d{1,4}(\.\d{1,4}){0,3}([-+].{0,40})?", text):
        raise Refused("appVersion: not a JCloisterZone version")
    return tuple(int(p) for p in re.split(r"[-+]", text)[0].split("."))


def _obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(f"{where}: not a JSON object")
    return value


def parse(data: bytes) -> dict[str, Any]:
    """The save's JSON object, bounded and checked to be a JCloisterZone game save."""
    if len(data) > MAX_SAVE:
        raise Refused(f"larger than the limit of {MAX_SAVE:,} bytes")
    try:
        save = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise Refused(f"not JSON: {str(exc)[:80]}") from None
    save = _obj(save, "the file")
    if "appVersion" not in save or "setup" not in save:
        raise Refused("not a JCloisterZone save: no appVersion or setup")
    if _version(save["appVersion"]) < OLDEST:
        raise Refused(f"appVersion {save['appVersion']}: JCloisterZone opens saves from 5.7.0 on")
    for key in ("players", "initialRandom", "replay", "clock", "gameId"):
        if save.get(key) is None:
            raise Refused(f"a set-up only, with no game: {key} is missing")
    return save


def _check_setup(save: dict[str, Any]) -> tuple[bool, bool]:
    """Refuses what meeple does not have. Returns whether the game has La Fiesta (the tile
    set ``festival``), and whether it keeps JCloisterZone's default 4-point two-tile city
    (the 2011 rule, ``"2"``, gives 2)."""
    setup = _obj(save["setup"], "setup")
    sets = _obj(setup.get("sets", {}), "setup.sets")
    other = sorted(str(k)[:40] for k in sets if k not in ("basic:1", "festival"))
    if other:
        raise Refused("setup.sets: meeple has no " + ", ".join(other))
    if sets.get("basic:1") != 1 or sets.get("festival", 1) != 1:
        raise Refused("setup.sets: one copy of basic:1 (and of festival) is the classic game")
    fiesta = "festival" in sets
    elements = _obj(setup.get("elements", {}), "setup.elements")
    known = ("small-follower", "farmers", "festival") if fiesta else ("small-follower", "farmers")
    other = sorted(str(k)[:40] for k in elements if k not in known)
    if other:
        raise Refused("setup.elements: meeple has no " + ", ".join(other))
    if elements.get("small-follower") != 7 or elements.get("farmers") is not True:
        raise Refused("setup.elements: the classic game has 7 followers and farmers")
    if fiesta and elements.get("festival", True) is not True:
        raise Refused("setup.elements: La Fiesta's tiles let a follower be taken back")
    rules = _obj(setup.get("rules", {}), "setup.rules")
    other = sorted(str(k)[:40] for k in rules if k not in ("tiny-city-scoring", "festival-return"))
    if other:
        raise Refused("setup.rules: meeple has no rule " + ", ".join(other))
    if rules.get("tiny-city-scoring", "4") not in ("2", "4"):
        raise Refused("setup.rules: tiny-city-scoring is 2 or 4")
    # (a classic player has followers only: "meeple" and "follower" are the same rule)
    if rules.get("festival-return", "meeple") not in ("meeple", "follower"):
        raise Refused("setup.rules: festival-return is meeple or follower")
    start = setup.get("start", [START])
    if start != [START]:
        raise Refused("setup.start: the classic start tile is BA/RCr at 0,0 unturned")
    return fiesta, rules.get("tiny-city-scoring", "4") != "2"


def _players(save: dict[str, Any]) -> list[str]:
    players = save["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= 8:
        raise Refused("players: a list of 2 to 5 players")
    names = []
    for i, player in enumerate(players):
        name = _obj(player, f"players[{i}]").get("name")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise Refused(f"players[{i}].name: a name of 1 to {MAX_NAME} characters")
        names.append(name)
    return names


def _messages(save: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The replay's messages with their index, ``UNDO`` followed: each takes back the
    message before it, within the turn."""
    replay = save["replay"]
    if not isinstance(replay, list) or len(replay) > MAX_MESSAGES:
        raise Refused(f"replay: a list of at most {MAX_MESSAGES:,} messages")
    kept: list[tuple[int, dict[str, Any]]] = []
    for i, message in enumerate(replay):
        message = _obj(message, f"replay[{i}]")
        kind = message.get("type")
        if kind == "UNDO":
            if not kept or kept[-1][1].get("type") == "COMMIT":
                raise Refused(f"replay[{i}]: UNDO with nothing in the turn to take back")
            kept.pop()
        elif kind in ("PLACE_TILE", "DEPLOY_MEEPLE", "RETURN_MEEPLE", "PASS", "COMMIT"):
            _obj(message.get("payload", {}), f"replay[{i}].payload")
            kept.append((i, message))
        else:
            raise Refused(f"replay[{i}]: meeple has no message {str(kind)[:40]!r}")
    return kept


def _int(value: object, where: str) -> int:
    if type(value) is not int or not -1000 <= value <= 1000:
        raise Refused(f"{where}: not a board coordinate")
    return value


def _position(value: object, where: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise Refused(f"{where}: a position is [x, y]")
    return _int(value[0], where), _int(value[1], where)


def _random(payload: dict[str, Any], where: str) -> float:
    value = payload.get("random")
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1:
        raise Refused(f"{where}: random is a number from 0 to 1")
    return float(value)


def _turns(messages: list[tuple[int, dict[str, Any]]]) -> Iterator[list[tuple[int, dict]]]:
    turn: list[tuple[int, dict]] = []
    for item in messages:
        turn.append(item)
        if item[1]["type"] == "COMMIT":
            yield turn
            turn = []
    if turn:
        yield turn


class Board:
    """The tiles placed so far as meeple lays them (id and rotation by cell, meeple's y), to
    name the feature a follower stands on."""

    def __init__(self, fiesta: bool):
        self.tiles = classic_tiles(fiesta)
        self.cells: dict[tuple[int, int], tuple[str, int]] = {(0, 0): ("D", 0)}

    def spot(self, cell: tuple[int, int], feature: object, location: object,
             where: str) -> Spot:
        """The spot of the tile at ``cell`` (JCloisterZone's y) a pointer names."""
        placed = self.cells.get((cell[0], -cell[1]))
        if placed is None:
            raise Refused(f"{where}: no tile at {cell[0]},{cell[1]}")
        read = read_location(str(feature)[:20], str(location)[:40])
        if read is None:
            raise Refused(f"{where}: {str(feature)[:20]} {str(location)[:40]} names no "
                          "classic feature")
        for spot in spots(self.tiles[placed[0]], placed[1]):
            if spot.kind == read[0] and frozenset(spot.atoms) == read[1]:
                return spot
        raise Refused(f"{where}: {feature} {location} names no feature of "
                      f"{JCZ_OF[placed[0]]} at {cell[0]},{cell[1]}")


def _turn(board: Board, tile: str, messages: list[tuple[int, dict]], seat: int) -> Turn:
    """A turn of a save's messages in meeple's terms (y flipped); the tile JCloisterZone
    drew is ``tile`` (its id)."""
    i, place = messages[0]
    where = f"replay[{i}]"
    if place["type"] != "PLACE_TILE":
        raise Refused(f"{where}: a turn begins with PLACE_TILE, not {place['type']}")
    payload = place["payload"]
    if payload.get("tileId") != tile:
        raise Refused(f"{where}: places {str(payload.get('tileId'))[:40]!r}, but the save "
                      f"draws {tile} there")
    x, y = _position(payload.get("position"), where)
    turned = payload.get("rotation")
    rotation = ROTATIONS.get(turned) if isinstance(turned, str) else None
    if rotation is None:
        raise Refused(f"{where}: rotation is R0, R90, R180 or R270")
    letter = JCZ_TILES[tile]
    rotation = (rotation + JCZ_TURNED.get(letter, 0)) % 360
    board.cells[(x, -y)] = (letter, rotation)
    target = back = None
    for j, message in messages[1:]:
        where = f"replay[{j}]"
        if "player" in message and message["player"] != seat:
            raise Refused(f"{where}: player {str(message['player'])[:8]} moves in seat {seat}'s turn")
        kind = message["type"]
        if kind == "PLACE_TILE":
            raise Refused(f"{where}: a second tile in one turn")
        if kind not in ("DEPLOY_MEEPLE", "RETURN_MEEPLE"):
            continue
        if target is not None or back is not None:
            raise Refused(f"{where}: a second follower move in one turn")
        pointer = _obj(message["payload"].get("pointer"), f"{where}.pointer")
        meeple = message["payload"].get("meepleId", pointer.get("meepleId"))
        if not isinstance(meeple, str) or not re.fullmatch(rf"{seat}\.small\.\d{{1,2}}", meeple):
            raise Refused(f"{where}: meepleId {str(meeple)[:20]!r} is not a follower of seat {seat}")
        cell = _position(pointer.get("position"), where)
        spot = board.spot(cell, pointer.get("feature"), pointer.get("location"), where)
        if kind == "DEPLOY_MEEPLE":
            if cell != (x, y):
                raise Refused(f"{where}: a follower goes on the tile just placed")
            target = spot.target
        else:
            if message["payload"].get("source", "FESTIVAL") != "FESTIVAL":
                raise Refused(f"{where}: a follower returns only after a festival tile")
            back = (cell[0], -cell[1], spot.target)
    return Turn(letter, x, -y, rotation, target, back)


def read_save(data: bytes) -> tuple[Game, dict[str, Any]]:
    """The classic table game a save holds, every move checked; and the save's JSON.

    :raises Refused: what meeple cannot take, naming it and where.
    """
    save = parse(data)
    fiesta, later_tiny_cities = _check_setup(save)
    names = _players(save)
    messages = _messages(save)
    annotations = _obj(save.get("gameAnnotations", {}), "gameAnnotations")
    order = annotations.get("drawOrder", [])
    limit = annotations.get("endTurn")
    if isinstance(order, list) and order and order[-1] == "#END":
        # (JCloisterZone's debug pack ends the game once the tiles before "#END" are drawn)
        order = order[:-1]
        limit = len(order) if limit is None else limit
    ids = JCZ_TILES if fiesta else JCZ_BASE
    if not isinstance(order, list) or not all(isinstance(t, str) and t in ids for t in order):
        raise Refused("gameAnnotations.drawOrder: a list of the game's tile ids")
    if limit is not None and (type(limit) is not int or not 0 <= limit <= 81):
        raise Refused("gameAnnotations.endTurn: a number of draws")
    random = save["initialRandom"]
    if not isinstance(random, (int, float)) or isinstance(random, bool) or not 0 <= random < 1:
        raise Refused("initialRandom: a number from 0 to 1")
    random = float(random)
    pack = Pack(order, limit, fiesta)
    board = Board(fiesta)
    game = new_table_game(names, fiesta=fiesta)
    for number, turn in enumerate(_turns(messages)):
        seat = number % len(names)
        where = f"replay[{turn[0][0]}]"
        while True:  # JCloisterZone sets aside a tile no one can place and draws again
            if pack.empty():
                raise Refused(f"{where}: a move after the last tile")
            tile, random = pack.draw(random)
            if draw(game, JCZ_TILES[tile], where):
                break
        played = _turn(board, tile, turn, seat)
        committed = turn[-1][1]["type"] == "COMMIT"
        place(game, played, where, done=committed)
        if committed:
            random = _random(turn[-1][1]["payload"], f"replay[{turn[-1][0]}]")
    if later_tiny_cities:
        _check_no_tiny_city(game)
    return game, save


def _check_no_tiny_city(game: Game) -> None:
    """A save on JCloisterZone's default rule is the same game in meeple unless a two-tile
    city was completed (4 points there, 2 in the 2011 rules, CL-5)."""
    from meeple.events.model import PointsScored

    for event in game.events:
        if (isinstance(event, PointsScored) and event.reason == "realm" and event.tiles == 2
                and event.realm.feature.startswith("city")):
            raise Refused("setup.rules: the save scores a two-tile city 4 points "
                          "(JCloisterZone's default); the 2011 rules meeple plays give 2, and "
                          f"this game completes one (its line {event.seq + 1})")
