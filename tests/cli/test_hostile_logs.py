"""Hostile logs: every one is reported as corrupt or invalid at its line, never a traceback."""

from pathlib import Path

import pytest

from meeple.cli.checking import check_file

BASE = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes().split(b"\n")

CASES = {
    "huge_number": ([BASE[0], BASE[1].replace(b'"seq":1', b'"seq":1' + b"0" * 40)] + BASE[2:], 2),
    "deep_array": ([BASE[0], b"[" * 200_000 + b"]" * 200_000] + BASE[1:], 2),
    "deep_object": ([BASE[0], b'{"a":' * 100_000 + b"1" + b"}" * 100_000] + BASE[1:], 2),
    "very_long_line": ([BASE[0], b'"' + b"a" * (2 << 20) + b'"'] + BASE[1:], 2),
    "nul_bytes": ([BASE[0], b"\x00\x00"] + BASE[1:], 2),
    "invalid_utf8_in_a_string": ([BASE[0], BASE[1].replace(b'"red"', b'"r\xffd"')] + BASE[2:], 2),
    "float_for_int": ([BASE[0], BASE[1].replace(b'"seq":1', b'"seq":1.5')] + BASE[2:], 2),
    "random_json": ([BASE[0], b'{"hello": [1, 2, {"x": null}]}'] + BASE[1:], 2),
    "not_an_object_first": ([b"[1,2,3]"] + BASE[1:], 1),
}


@pytest.mark.parametrize("name", CASES)
def test_hostile_log_is_reported_at_its_line(tmp_path, name):
    lines, line = CASES[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"\n".join(lines))
    report, code = check_file(str(path))
    assert code == 3 and not report["ok"]
    assert report["errors"][0]["line"] == line
    assert report["errors"][0]["message"]
