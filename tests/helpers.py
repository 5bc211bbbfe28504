"""Test helpers: the bundled tile set, small custom sets, and a table-mode game driver."""

from __future__ import annotations

import json

import msgspec
from typer.testing import CliRunner

from meeple.engine import (
    DrawTile,
    GameState,
    PlaceMeeple,
    PlaceTile,
    RollDice,
    SkipMeeple,
    awaiting,
    new_game,
    play,
    settle,
    start,
)
from meeple.events.model import Event
from meeple.events.tileset import TileSetDef, with_expansion
from meeple.events.tileset import bundled as bundled_set

runner = CliRunner()


def run(*args, code=0):
    """Run the CLI in-process; the exit code must be ``code`` and no traceback shown.
    (The CLI is imported here, so that engine tests using the other helpers never load it.)"""
    from meeple.cli.app import app

    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def run_json(*args, code=0):
    return json.loads(run(*args, "--json", code=code).stdout)


def fail(*args, code=1):
    """Run a command that must fail with one ``meeple: error:`` line; returns that line."""
    result = run(*args, code=code)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("meeple: error: "), result.stderr
    return lines[0]


def bundled() -> TileSetDef:
    return bundled_set("star-wars")


def classic(fiesta: bool = False) -> TileSetDef:
    """The bundled classic set, with the La Fiesta tiles if asked."""
    base = bundled_set("classic")
    return with_expansion(base, bundled_set("la-fiesta")) if fiesta else base


def mini_set(counts: dict[str, int], start: str = "D", extra: tuple = (),
             base: TileSetDef | None = None) -> TileSetDef:
    """A tile set made of bundled tile types with the given counts (start included);
    ``base`` picks another set than the bundled Star Wars one."""
    full = base or bundled()
    tiles = [msgspec.structs.replace(t, count=counts[t.id]) for t in full.tiles if t.id in counts]
    return msgspec.structs.replace(full, name="mini", status="test", start=start,
                                   tiles=tuple(tiles) + tuple(extra))


class Table:
    """Drives a table-mode game: chosen draws, placements, meeples and dice."""

    def __init__(self, players: list[str], tileset: TileSetDef | None = None, **options):
        self.first = new_game(players, tileset or bundled(), table=True, **options)
        self.state: GameState = start(self.first)
        self.state, opening = settle(self.state)
        self.events: list[Event] = [self.first, *opening]

    def do(self, command) -> list[Event]:
        self.state, new = play(self.state, command)
        self.events += new
        return new

    def turn(self, tile: str, x: int, y: int, rotation: int, meeple: str | None = None,
             large: bool = False) -> list[Event]:
        """Draw ``tile``, place it, then deploy on ``meeple`` or skip."""
        new = self.do(DrawTile(tile))
        new += self.do(PlaceTile(x, y, rotation))
        figure = "large" if large else "small"
        new += self.do(PlaceMeeple(meeple, figure) if meeple else SkipMeeple())
        return new

    def roll(self, **rolls: tuple[int, ...]) -> list[Event]:
        return self.do(RollDice({k: tuple(v) for k, v in rolls.items()}))

    @property
    def waiting(self) -> str | None:
        return awaiting(self.state)

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]


def route_battle(players=("red", "white")) -> Table:
    """RULES.md's route battle: red holds a route west of the start, white one ending at
    tatooine (1, 1); red's curve at (1, 0) joins them into one complete 4-tile route."""
    t = Table(list(players))
    t.turn("L", -1, 0, 180, meeple="route:E")
    t.turn("E", 0, 1, 180)
    t.turn("endor", 0, -1, 0)
    t.turn("tatooine", 1, 1, 0, meeple="route:S")
    t.turn("V", 1, 0, 90)
    return t


def surround_hoth(t: Table, last_meeple: str | None = None) -> None:
    """Hoth lies at (0, -1): lay its 7 other neighbours; the last, naboo, may deploy a meeple."""
    t.turn("D", 1, 0, 0)
    t.turn("D", -1, 0, 0)
    t.turn("endor", -1, -1, 0)
    t.turn("coruscant", 1, -1, 0)
    t.turn("dagobah", 0, -2, 0)
    t.turn("tatooine", -1, -2, 0)
    t.turn("naboo", 1, -2, 0, meeple=last_meeple)


def rechain(lines: list[bytes], change=None) -> list[bytes]:
    """Raw log lines with every ``prev`` recomputed, after ``change(dict)`` on each decoded line,
    so that a test can alter a log that only the rules, not the hash chain, will refuse."""
    import msgspec

    from meeple.events.log import line_hash

    out, prev = [], None
    for line in lines:
        data = msgspec.json.decode(line)
        if change is not None:
            change(data)
        data["prev"] = prev
        raw = msgspec.json.encode(data)
        out.append(raw)
        prev = line_hash(raw)
    return out
