"""Random structural mutations of a recorded game: always exit 1 or 3, located, never a crash."""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.cli.checking import check_file

LINES = (Path(__file__).parents[2] / "fixtures" / "team_variant_seed_1.jsonl").read_bytes() \
    .rstrip(b"\n").split(b"\n")
N = len(LINES)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)

mutations = st.one_of(
    st.tuples(st.just("remove"), st.integers(0, N - 1)),
    st.tuples(st.just("duplicate"), st.integers(0, N - 1)),
    st.tuples(st.just("swap"), st.integers(0, N - 2)),
    st.tuples(st.just("truncate"), st.integers(1, N * 300)),
    st.tuples(st.just("insert"), st.integers(0, N), json_values),
)


def mutate(mutation) -> bytes:
    lines = list(LINES)
    kind, at = mutation[0], mutation[1]
    if kind == "remove":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(at, lines[at])
    elif kind == "swap":
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif kind == "insert":
        lines.insert(at, json.dumps(mutation[2]).encode())
    data = b"\n".join(lines) + b"\n"
    return data[:at] if kind == "truncate" else data


#: mutations tried: a few in the everyday run, the full number in the full run
EXAMPLES = [30, pytest.param(150, marks=pytest.mark.slow)]


@pytest.mark.parametrize("examples", EXAMPLES)
def test_mutated_log_is_rejected_at_a_line(tmp_path, examples):
    settings(max_examples=examples, deadline=None,
             suppress_health_check=[HealthCheck.function_scoped_fixture])(
        given(mutation=mutations)(lambda mutation: _rejected_at_a_line(tmp_path, mutation)))()


def _rejected_at_a_line(tmp_path, mutation) -> None:
    data = mutate(mutation)
    path = tmp_path / "m.jsonl"
    path.write_bytes(data)
    report, code = check_file(str(path))
    whole = b"\n".join(LINES) + b"\n"
    if whole.startswith(data) and data.endswith(b"\n"):
        assert code == 0  # a clean cut at a line end is a shorter, still valid log
        return
    assert code in (1, 3) and not report["ok"]
    error = report["errors"][0]
    assert error["message"]
    assert error["line"] is not None or error["kind"] == "corrupt" and not data
