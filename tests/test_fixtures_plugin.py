"""meeple's own recorded games run through its pytest plug-in, as its users' games would:
each ``fixtures/X.jsonl`` against its snapshot ``fixtures/expected/X.expected.json``
(written by ``--meeple-update``; ``meeple check fixtures --expect fixtures/expected`` reads
the same files). The intentionally broken logs of ``fixtures/broken/`` are collected too
and must fail, each with the first fault of its golden ``check`` report."""

import hashlib
import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
FIXTURES = ROOT / "fixtures"
GAMES = sorted(FIXTURES.glob("*.jsonl"))
BROKEN = sorted((FIXTURES / "broken").glob("*.jsonl"))


def test_every_fixture_has_its_snapshot_and_every_snapshot_its_fixture():
    snapshots = sorted((FIXTURES / "expected").glob("*.expected.json"))
    assert [p.name.removesuffix(".expected.json") for p in snapshots] == [p.stem for p in GAMES]


def run_fixtures(report: Path, *more: str) -> dict[str, str | None]:
    """Each fixture's item through the plug-in: its failure's message, or None if it passed."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "fixtures", "--meeple-games", "fixtures",
         "--meeple-expected", "fixtures/expected", "-p", "no:cacheprovider",
         f"--junitxml={report}", *more],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        failure = case.find("failure")
        outcomes[case.get("name", "")] = None if failure is None else failure.get("message")
    return outcomes


@pytest.mark.slow
def test_the_fixtures_pass_through_the_plug_in_and_two_workers_agree(tmp_path):
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in GAMES + BROKEN}
    alone = run_fixtures(tmp_path / "alone.xml")
    together = run_fixtures(tmp_path / "together.xml", "-n", "2")
    assert together == alone
    assert {name for name, failure in alone.items() if failure is None} == {p.stem for p in GAMES}
    assert {name for name, failure in alone.items() if failure} == {p.stem for p in BROKEN}
    for path in BROKEN:
        golden = json.loads(path.with_name(f"{path.stem}.expected.json").read_text())
        assert golden["errors"][0]["message"] in alone[path.stem], path.stem
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in GAMES + BROKEN} == before
