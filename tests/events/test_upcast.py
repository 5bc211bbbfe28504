"""Old logs stay readable through upcasters; logs from a newer meeple are refused clearly."""

from pathlib import Path

import pytest

from meeple.engine.check import verify
from meeple.events import log as logfile
from meeple.events import upcast
from meeple.events.model import SCHEMA_VERSION

from helpers import rechain

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


def test_todays_fixtures_are_in_the_current_schema():
    first = logfile.read(FIXTURE).events[0]
    assert first.schema == SCHEMA_VERSION == 1


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
    monkeypatch.setattr(logfile, "MAX_EVENTS", 10)
    with pytest.raises(logfile.LogError, match="the limit is 10") as exc:
        logfile.read(FIXTURE)
    assert exc.value.kind == "too_large"
