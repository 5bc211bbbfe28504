"""Old logs stay readable through upcasters; logs from a newer meeple are refused clearly."""

import json
from pathlib import Path

import msgspec
import pytest

from meeple.engine import DrawTile, PlaceTile, verify
from meeple.events import log as logfile
from meeple.events import reading, upcast
from meeple.events.model import SCHEMA_VERSION, MeeplePlaced, MeepleReturned

from helpers import Table, rechain, run, run_json

FIXTURE = Path(__file__).parents[2] / "fixtures" / "random_3p_seed_1.jsonl"


def _with_schema(version: int, rename_turn: bool = False) -> bytes:
    """The fixture as an older or newer meeple would have written it, chain recomputed."""

    def change(data: dict) -> None:
        if data["type"] == "game_started":
            data["schema"] = version
        if rename_turn and data["type"] == "turn_ended":
            data["round"] = data.pop("turn")

    lines = FIXTURE.read_bytes().rstrip(b"\n").split(b"\n")
    return b"\n".join(rechain(lines, change)) + b"\n"


FIXTURES = sorted((Path(__file__).parents[2] / "fixtures").glob("*.jsonl"))


def test_the_recorded_fixtures_are_schema_1_and_new_games_schema_2(tmp_path):
    assert SCHEMA_VERSION == 2
    log = logfile.read(FIXTURE)
    assert log.schema == log.events[0].schema == 1
    game = tmp_path / "new.jsonl"
    run("new", game, "--players", "red,black", "--seed", "1")
    assert logfile.read(game).schema == 2


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_schema_1_line_goes_up_and_back_down_unchanged(path):
    """Upcast to today's events, then written in the log's own schema: every figure line is the
    same bytes, and every line reads back as the same event. This is what lets a game begun
    under schema 1 be continued in schema 1."""
    log = logfile.read(path)
    assert log.schema == 1
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    for event, line in zip(log.events, lines, strict=True):
        written = upcast.encode_as(event, 1)
        assert upcast.decode_old(written, 1) == event
        if isinstance(event, MeeplePlaced | MeepleReturned):
            assert written == line


def _the_long_way(raw: bytes) -> object:
    """A schema 1 line as a dict, up the chain, then as an event (or the error's text)."""
    try:
        data = msgspec.json.decode(raw, type=dict)
        return msgspec.convert(upcast.upcast(data, 1), upcast.AnyEvent)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        return str(exc)


def _decoded(raw: bytes) -> object:
    try:
        return upcast.decode_old(raw, 1)
    except msgspec.DecodeError as exc:
        return str(exc)


def test_a_line_no_step_changes_reads_as_the_chain_reads_it():
    """Lines of a type the chain leaves alone are decoded as today's events at once: the same
    event as the long way for every line of the fixtures read, and, for a damaged line, the same
    error (each field's value swapped for another type, the line cut short)."""
    types = set()
    for path in FIXTURES[::5]:  # (one in five: each holds the same kinds of line)
        for raw in path.read_bytes().rstrip(b"\n").split(b"\n"):
            decoded = _decoded(raw)
            assert decoded == _the_long_way(raw)
            types.add(type(decoded).__name__)
    assert {"MeeplePlaced", "TilePlaced", "PointsScored", "GameEnded"} <= types
    line = FIXTURE.read_bytes().split(b"\n")[5]
    data = json.loads(line)
    assert data["type"] not in upcast.CHANGED[1]
    damaged = [line[:-3], line + b"x", json.dumps({**data, "type": "nothing"}).encode()]
    for key in data:
        for value in (None, "x", 1.5, [], {}):
            damaged.append(json.dumps({**data, key: value}).encode())
    for raw in damaged:
        assert _decoded(raw) == _the_long_way(raw), raw


def test_schema_1_large_becomes_a_figure():
    base = {"type": "meeple_placed", "seq": 4, "prev": None, "player": "red", "target": "planet"}
    for raw, figure in (({**base, "large": True}, "large"), ({**base, "large": False}, "small"),
                        (base, "small")):
        event = upcast.decode_old(msgspec.json.encode(raw), 1)
        assert isinstance(event, MeeplePlaced) and event.figure == figure
    returned = {"type": "meeple_returned", "seq": 9, "prev": None, "player": "red",
                "large": True, "spot": {"x": 0, "y": 0, "feature": "planet"}}
    assert upcast.decode_old(msgspec.json.encode(returned), 1).figure == "large"


@pytest.mark.parametrize("raw", [
    {"type": "meeple_placed", "seq": 4, "player": "red", "target": "planet", "figure": "large"},
    {"type": "meeple_placed", "seq": 4, "player": "red", "target": "planet", "large": "yes"},
], ids=["schema_2_field_in_a_schema_1_log", "large_not_a_bool"])
def test_a_schema_1_line_that_schema_1_did_not_write_is_refused(raw):
    with pytest.raises(msgspec.ValidationError):
        upcast.decode_old(msgspec.json.encode(raw), 1)


def _old_game(tmp_path) -> Path:
    """A table-mode Star Wars game begun under schema 1, red to place a meeple."""
    t = Table(["red", "black"])
    t.do(DrawTile("U"))
    t.do(PlaceTile(1, 0, 90))
    first = msgspec.structs.replace(t.events[0], schema=1)
    path = tmp_path / "old.jsonl"
    logfile.create(path, [first, *t.events[1:]])
    return path


def test_a_game_begun_under_schema_1_is_continued_in_schema_1(tmp_path):
    path = _old_game(tmp_path)
    run("deploy", path, "route:E", "--large")
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    placed = [json.loads(line) for line in lines if b'"meeple_placed"' in line]
    assert placed and placed[0]["large"] is True and "figure" not in placed[0]
    assert all(b'"figure"' not in line for line in lines)
    assert json.loads(lines[0])["schema"] == 1
    assert run_json("check", path)["ok"]


def test_a_figure_schema_1_cannot_express_is_refused_and_nothing_is_written(tmp_path):
    path = _old_game(tmp_path)
    before = path.read_bytes()
    log = logfile.read(path)
    event = MeeplePlaced(seq=len(log.events), player="red", target="route:E", figure="huge")
    with pytest.raises(logfile.LogError, match="cannot be written in a schema 1 log") as exc:
        logfile.append(path, [event], log.head)
    assert exc.value.kind == "old_schema" and exc.value.kind in logfile.REFUSALS
    assert path.read_bytes() == before


def test_an_older_schema_is_read_through_its_upcaster(tmp_path, monkeypatch):
    """A made-up schema 0 that called `turn` `round`: its upcaster renames the field."""

    def v0_to_v1(raw: dict) -> dict:
        if raw["type"] == "turn_ended":
            raw["turn"] = raw.pop("round")
        if raw["type"] == "game_started":
            raw["schema"] = 1
        return raw

    monkeypatch.setitem(upcast.UPCASTERS, 0, v0_to_v1)
    path = tmp_path / "old.jsonl"
    path.write_bytes(_with_schema(0, rename_turn=True))
    log = logfile.read(path)
    assert verify(log.events).finding is None
    assert log.head == logfile.line_hash(path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[1])


def test_an_older_schema_without_upcaster_is_refused(tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_bytes(_with_schema(0))
    with pytest.raises(logfile.LogError, match="older than any this meeple can upgrade"):
        logfile.read(path)


def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "new.jsonl"
    path.write_bytes(_with_schema(SCHEMA_VERSION + 1))
    with pytest.raises(logfile.LogError, match="upgrade meeple") as exc:
        logfile.read(path)
    assert (exc.value.kind, exc.value.line, exc.value.field) == ("newer", 1, "schema")


def test_a_log_longer_than_the_event_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(reading, "MAX_EVENTS", 10)
    with pytest.raises(logfile.LogError, match="the limit is 10") as exc:
        logfile.read(FIXTURE)
    assert exc.value.kind == "too_large"


def _schema_1_log_with(tmp_path, line: bytes) -> Path:
    """The first 37 lines of a schema 1 fixture (a turn boundary), ``line``, and one more line
    (so that ``line`` is not the last, which would read as a torn write)."""
    lines = FIXTURE.read_bytes().split(b"\n")[:37]
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"\n".join([*lines, line, lines[-1]]) + b"\n")
    return path


@pytest.mark.parametrize("line, message", [
    (b"[1,2]", "Expected `object`, got `array`"),
    (b"\xff", "not a JSON event: JSON is malformed"),
    (b'{"type":"turn_ended","seq":37,"player":"\xff"}', "not a JSON event: "),
    (b"[" * 100_000 + b"]" * 100_000, "Expected `object`, got `array`"),
    (b'{"type":"meeple_returned","seq":37,"prev":null,"player":"red",'
     b'"spot":{"x":0,"y":0,"feature":"planet"}}', "Object missing required field `large`"),
    (b'{"type":"meeple_placed","seq":37,"prev":null,"player":"red","target":"planet",'
     b'"large":null}', "Expected `bool`, got `null` (field large)"),
], ids=["array", "not_json", "not_utf8", "nested", "returned_without_large", "large_null"])
def test_a_bad_schema_1_line_is_told_in_schema_1_words(tmp_path, line, message):
    """The schema 1 path names what schema 1 writes, with the words the schema 2 path uses."""
    with pytest.raises(logfile.LogError) as exc:
        logfile.read(_schema_1_log_with(tmp_path, line))
    assert exc.value.line == 38 and message in str(exc.value)
    assert "not a JSON event: not a JSON event" not in str(exc.value)


def test_an_empty_or_malformed_figure_name_is_a_usage_error(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,black", "--table")
    run("draw", game, "U")
    run("place", game, "1", "0", "90")
    before = game.read_bytes()
    for name in ("", " ", "x" * 41, "small!", "-large"):
        result = run("deploy", game, "route:E", "--figure", name, code=2)
        assert "--figure takes the name of a figure" in result.stderr
    assert game.read_bytes() == before


#: the Star Wars fixtures, recorded before schema 1 gained ``cities`` and a revealed ``seed``
EARLY = [p for p in FIXTURES if p.read_bytes().startswith(b'{"type":"game_started"')
         and json.loads(p.read_bytes().split(b"\n", 1)[0])["edition"] == "star-wars"]


@pytest.mark.parametrize("path", EARLY, ids=lambda p: p.stem)
def test_each_line_of_an_early_schema_1_game_is_written_again_byte_for_byte(path):
    log = logfile.read(path)
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    assert [upcast.encode_as(event, 1) for event in log.events] == lines


def test_an_early_game_continued_holds_only_fields_its_own_lines_hold(tmp_path):
    source = FIXTURES[0].parent / "random_2p_seed_0.jsonl"
    lines = source.read_bytes().split(b"\n")
    game = tmp_path / "g.jsonl"
    game.write_bytes(b"\n".join(lines[:40]) + b"\n")
    run("autoplay", game, "--to-end")
    fields: dict[str, set[str]] = {}
    for line in lines[:-1]:
        event = json.loads(line)
        fields.setdefault(event["type"], set()).update(event)
    written = [json.loads(line) for line in game.read_bytes().split(b"\n")[40:-1]]
    assert written and written[-1]["type"] == "game_ended"
    assert {(e["type"], key) for e in written for key in e
            if key not in fields.get(e["type"], set())} == set()
    assert run_json("check", game)["ok"]
