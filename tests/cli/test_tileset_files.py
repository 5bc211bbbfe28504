"""`--tileset FILE` is hostile until checked: exit 2 with the reason, at once, for a count or
a total past the limits, control characters, a file that is not a regular file or is too
large for a game log line (issue: trust under attack, section 1 and 2)."""

import json
import os
import time

import msgspec
import pytest

from helpers import bundled, fail, main


def _write(tmp_path, definition) -> str:
    path = tmp_path / "set.json"
    path.write_bytes(msgspec.json.encode(definition))
    return str(path)


def _refused(*args, needle: str) -> None:
    began = time.process_time()
    line = fail(*args, code=2)
    assert needle in line, line
    assert time.process_time() - began < 1.0


@pytest.mark.parametrize("command", [["tiles"], ["new", "g.jsonl", "--players", "red,black"]])
def test_a_huge_count_is_refused_at_once(tmp_path, command, monkeypatch):
    data = msgspec.json.encode(bundled()).replace(b'"count":4', b'"count":1000000000000000', 1)
    (tmp_path / "set.json").write_bytes(data)
    path = str(tmp_path / "set.json")
    monkeypatch.chdir(tmp_path)
    _refused(*command, "--tileset", path, needle="<= 20000")
    assert not (tmp_path / "g.jsonl").exists()


def test_a_total_over_the_limit_is_refused(tmp_path):
    heavy = msgspec.structs.replace(bundled(), tiles=tuple(
        msgspec.structs.replace(t, count=5_000) for t in bundled().tiles))
    _refused("tiles", "--tileset", _write(tmp_path, heavy), needle="the limit is 20,000")


def test_a_control_character_in_a_tile_id_is_refused(tmp_path):
    tiles = list(bundled().tiles)
    tiles[2] = msgspec.structs.replace(tiles[2], id="X\nmeeple: error: fake")
    path = _write(tmp_path, msgspec.structs.replace(bundled(), tiles=tuple(tiles)))
    _refused("tiles", "--tileset", path, needle="control character U+000A")


def test_devices_fifos_and_folders_are_refused_without_reading_them(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    os.symlink("/dev/zero", tmp_path / "zero.json")
    for path, what in ((fifo, "FIFO"), (tmp_path / "zero.json", "character device"),
                       (tmp_path, "directory")):
        _refused("tiles", "--tileset", path, needle=what)


def test_a_file_too_large_for_a_log_line_is_refused(tmp_path):
    path = tmp_path / "set.json"
    path.write_bytes(msgspec.json.encode(bundled()) + b" " * (1 << 20))
    _refused("tiles", "--tileset", path, needle="larger than the limit")


def test_a_set_too_large_for_one_log_line_is_refused_by_new(tmp_path, monkeypatch):
    big = msgspec.structs.replace(bundled(), name="big",
                                  sources={f"k{i}": "v" * 190 for i in range(5150)})
    path = _write(tmp_path, big)
    assert os.path.getsize(path) < 1 << 20
    monkeypatch.chdir(tmp_path)
    _refused("new", "g.jsonl", "--players", "red,black", "--tileset", path,
             needle="too large to record in a game log line")
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("command", [["tiles"], ["new", "g.jsonl", "--players", "red,black"]])
@pytest.mark.parametrize("change, needle, rule", [
    ({"start": "ZZZ"}, "start tile 'ZZZ' is not in the set (SW-2.1)", "SW-2.1"),
    ({"tiles": ()}, "start tile 'D' is not in the set (SW-2.1)", "SW-2.1"),
    ({"tiles": (*bundled().tiles, bundled().tiles[1])}, "ids must be unique and non-empty",
     "SW-1.3"),
])
def test_a_set_the_rules_refuse_is_a_usage_error_naming_the_file(tmp_path, command, change,
                                                                 needle, rule, monkeypatch):
    """A set that decodes but breaks SW-1.x or SW-2.1 is refused as the file it is (exit 2
    and its name), like any other fault of a --tileset file; nothing is written."""
    path = _write(tmp_path, msgspec.structs.replace(bundled(), **change))
    monkeypatch.chdir(tmp_path)
    line = fail(*command, "--tileset", path, code=2)
    assert f"{path}: " in line and needle in line, line
    assert not (tmp_path / "g.jsonl").exists()
    done = main(*command, "--tileset", path, "--json")
    error = json.loads(done.stderr)
    assert (done.returncode, error["kind"], error["rule"]) == (2, "usage", rule), done.stderr
    assert needle in error["error"]
