"""``meeple check``: full verification of game logs, one report per file and a summary.

Exit code: 3 if any log is unreadable or corrupt, else 1 if any game breaks the
rules or differs from its expected snapshot, else 0.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys

import msgspec

from meeple.cli.output import emit_json, say
from meeple.engine.check import verify
from meeple.events import log as logfile

CHANCE_WORDS = {
    "revealed": " · sealed seed revealed: every draw and die verified",
    "sealed": " · sealed seed not revealed yet: draws and dice taken as recorded",
}


def expand(paths: list[str]) -> list[str]:
    """Files as given; folders stand for the ``*.jsonl`` files in them, sorted."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".jsonl"))
        else:
            files.append(path)
    return files


def check_file(path: str, expected: object | None = None) -> tuple[dict, int]:
    """The report of one log and its exit code."""
    report: dict = {"file": path, "ok": False, "head": None, "lines": 0, "errors": []}
    try:
        log = logfile.read(path)
    except logfile.LogError as exc:
        report["errors"].append({"line": exc.line, "seq": exc.seq, "kind": exc.kind,
                                 "field": exc.field, "message": exc.message})
        return report, 3
    report["head"] = log.head
    report["lines"] = len(log.events)
    verdict = verify(log.events)
    if verdict.finding is not None:
        f = verdict.finding
        report["errors"].append({"line": f.line, "seq": f.seq, "kind": "rules", "rule": f.rule,
                                 "message": f.message, "expected": f.expected, "found": f.found})
        return report, 1
    state = verdict.state
    assert state is not None
    report["over"] = state.phase == "over"
    report["pending"] = verdict.pending
    report["chance"] = verdict.chance
    if expected is not None:
        from meeple.cli.views import export

        differences = diff(expected, msgspec.json.decode(msgspec.json.encode(export(state))))
        if differences:
            report["errors"] += [{"line": None, "seq": None, "kind": "expect", "field": where,
                                  "message": f"{where}: expected {want}, found {got}"}
                                 for where, want, got in differences[:20]]
            report["differences"] = len(differences)
            return report, 1
    report["ok"] = True
    return report, 0


def diff(want: object, got: object, where: str = "") -> list[tuple[str, str, str]]:
    """Paths where two JSON values differ, with both values."""
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for key in list(want) + [k for k in got if k not in want]:
            out += diff(want.get(key, "<absent>"), got.get(key, "<absent>"),
                        f"{where}.{key}" if where else str(key))
        return out
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        out = []
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            out += diff(a, b, f"{where}[{i}]")
        return out
    if want != got:
        return [(where or "$", _short(want), _short(got))]
    return []


def _short(value: object) -> str:
    text = msgspec.json.encode(value).decode() if value != "<absent>" else "nothing"
    return text if len(text) <= 120 else text[:117] + "..."


def _check_one(path: str, expected: object | None) -> tuple[dict, int]:
    return check_file(path, expected)


def run_check(paths: list[str], expect: str | None, as_json: bool, jobs: int = 0) -> int:
    """Check files (folders: their ``*.jsonl``), in ``jobs`` processes (0: one per core).

    Reports stream out in file order; only the small per-file reports are kept, for the
    JSON document and the summary.
    """
    expected = None
    if expect is not None:
        try:
            with open(expect, "rb") as handle:
                expected = msgspec.json.decode(handle.read())
        except (OSError, msgspec.DecodeError, UnicodeDecodeError) as exc:
            from meeple.cli.store import Failure

            raise Failure(f"{expect}: cannot read the expected snapshot: {exc}") from None
    files = expand(paths)
    reports, worst = [], 0
    with _progress(len(files), as_json) as advance:
        for report, code in _results(files, expected, jobs):
            reports.append(report)
            worst = max(worst, code)
            advance()
            if not as_json:
                _say_report(report)
    summary = {"games": len(reports), "valid": sum(r["ok"] for r in reports),
               "invalid": sum(1 for r in reports if not r["ok"] and r["head"] is not None),
               "unreadable": sum(1 for r in reports if r["head"] is None)}
    if as_json:
        if len(reports) == 1 and len(paths) == 1 and not os.path.isdir(paths[0]):
            emit_json(reports[0])
        else:
            emit_json({"ok": worst == 0, "summary": summary, "games": reports})
    elif len(reports) != 1:
        say(f"{summary['games']} games: {summary['valid']} valid, {summary['invalid']} invalid, "
            f"{summary['unreadable']} unreadable or corrupt")
    return worst


def _results(files: list[str], expected: object | None, jobs: int):
    from meeple.cli.parallel import ordered_map

    yield from ordered_map(functools.partial(_check_one, expected=expected), files, jobs)


@contextlib.contextmanager
def _progress(total: int, quiet: bool):
    """A progress bar on stderr when it is a terminal and there is more than one file."""
    if quiet or total < 2 or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("checking", total=total)
        yield lambda: progress.advance(task)


def _say_report(report: dict) -> None:
    path = report["file"]
    if report["ok"]:
        state = "over" if report.get("over") else "in progress"
        pending = " (consequences pending)" if report.get("pending") else ""
        chance = CHANCE_WORDS.get(report.get("chance", ""), "")
        say(f"{path}: ok · {report['lines']} lines · game {state}{pending}{chance} · head "
            f"{logfile.short(report['head'])}")
        return
    for error in report["errors"]:
        where = f"{path}:{error['line']}" if error.get("line") else path
        rule = f" ({error['rule']})" if error.get("rule") else ""
        field = f" [field {error['field']}]" if error.get("field") and error["kind"] != "expect" \
            else ""
        say(f"{where}: {error['kind']}: {error['message']}{rule}{field}")
        if error.get("expected"):
            say(f"    expected: {error['expected']}")
        if error.get("found"):
            say(f"    found:    {error['found']}")
