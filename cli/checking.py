"""``meeple check``: full verification of game logs, one report per file and a summary.

Exit code: 3 if any log is unreadable or corrupt, else 1 if any game breaks the
rules or differs from its expected snapshot, else 0.
"""

from __future__ import annotations

import functools
import os
import shlex
import stat
from collections.abc import Sequence

import msgspec

from meeple.cli.compare import diff, event_differences, read_expected, short_json
from meeple.cli.output import emit_json, say, tell_error
from meeple.cli.progress import progress
from meeple.cli.store import Failure, missing_edition
from meeple.cli.words import cli_words
from meeple.engine import verify
from meeple.events import log as logfile
from meeple.events.text import escaped

CHANCE_WORDS = {
    "revealed": " · sealed seed revealed: every draw and die verified",
    "sealed": " · sealed seed not revealed yet: draws and dice taken as recorded",
}

#: the fewest hex digits of a head hash ``--head`` takes (``status`` shows 12)
HEAD_DIGITS = 12
def expand(paths: list[str]) -> list[str]:
    """Files as given; folders stand for the ``*.jsonl`` files in them, sorted.

    Nothing is opened here: a FIFO or a link to a device named ``*.jsonl`` is left to the
    reader, which refuses it as unreadable.

    :raises Failure: a folder that cannot be listed (3) or holds no ``*.jsonl`` (1).
    """
    files = []
    for path in paths:
        files += games_in(path) if os.path.isdir(path) else [path]
    return files


def games_in(folder: str) -> list[str]:
    """The ``*.jsonl`` files directly in ``folder``, sorted; subfolders are not searched.

    :raises Failure: the folder cannot be listed (3), or it holds no ``*.jsonl`` file (1),
        naming how many subfolders were skipped.
    """
    names, skipped = [], 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".jsonl"):
                    names.append(entry.name)
                elif _is_folder(entry):
                    skipped += 1
    except OSError as exc:
        raise Failure(f"{folder}: cannot list the folder: {exc.strerror}", 3) from None
    if not names:
        searched = (f"subfolders are not searched: {skipped} skipped (name them to check "
                    "them)" if skipped else "subfolders are not searched")
        raise Failure(f"{folder}: no game found: the folder holds no *.jsonl file; {searched}")
    return [os.path.join(folder, name) for name in sorted(names)]


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def count_lines(path: str) -> int:
    """Lines in a log file that could not be read as a game, as ``read`` counts them (a last
    line without its newline is one): at most ``MAX_FILE_BYTES`` are read; a file that is
    not a regular one, or cannot be opened, counts 0. Never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return 0
        lines, left, last = 0, logfile.MAX_FILE_BYTES, b"\n"
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            lines += chunk.count(b"\n")
            left -= len(chunk)
            last = chunk[-1:]
        return lines + (last != b"\n")
    except OSError:
        return 0
    finally:
        os.close(fd)


def check_file(path: str, expected: object | None = None, head: str | None = None,
               snapshot: bool = False) -> tuple[dict, int]:
    """The report of one log and its exit code; with ``head`` (lower-case hex digits), also
    where that head hash lies in the log (see ``head_report``); with ``snapshot``, a valid
    game's state as ``show --json`` writes it, in ``report["snapshot"]``."""
    report: dict = {"file": path, "ok": False, "head": None, "lines": 0, "errors": []}
    try:
        log = logfile.read(path, every_signature=True)
    except logfile.LogError as exc:
        report["lines"] = count_lines(path)
        report["errors"].append({"line": exc.line, "seq": exc.seq, "kind": exc.kind,
                                 "field": exc.field, "message": cli_words(exc.message)})
        if head is not None:
            report.update(head_given=head, matches=None, line=None)
        return report, 3
    report["head"] = log.head
    report["lines"] = len(log.events)
    if (missing := missing_edition(log.events)) is not None:  # nothing to check it against
        return report | {"errors": [{"line": 1, "seq": 0, "kind": "edition", "message": missing}]}, 3
    code = _verify(report, log, expected, snapshot)
    if head is not None:
        found = head_report(log.hashes, head)
        report.update(found)
        code = max(code, 0 if found["matches"] == "head" else 1)
    return report, code


def refuse_unless_valid(log: logfile.GameLog) -> None:
    """Nothing, if ``check`` would find ``log`` (read and sound in structure) a valid game;
    else refuse it, naming the first fault as ``check`` would (``meeple repair`` asks this
    before it gives a whole last line its newline back).

    :raises Failure: (1) the game breaks the rules there.
    """
    report: dict = {"file": log.path, "errors": []}
    if _verify(report, log, None) == 0:
        return
    error = report["errors"][0]
    where = f"line {error['line']}: " if error.get("line") else ""
    rule = f" ({error['rule']})" if error.get("rule") else ""
    raise Failure(f"{log.path}: line {len(log.events)} is whole but lacks its newline, and "
                  f"with it `meeple check` would refuse the game, so it is left as it is: "
                  f"{where}{error['kind']}: {error['message']}{rule}", 1, rule=error.get("rule"))


def _verify(report: dict, log: logfile.GameLog, expected: object | None,
            snapshot: bool = False) -> int:
    """Re-verify the game's rules (and compare its end with ``expected``) into ``report``
    (with ``snapshot``, the state as ``show --json`` writes it); returns the exit code. A
    sealed game's seed file beside the log is used, as every other command uses it: one
    reading of the game wherever it is checked."""
    from meeple.cli.store import Failure, read_secret

    try:
        secret = read_secret(log.path, log.events)
    except Failure as exc:
        report["errors"].append({"line": 1, "seq": 0, "kind": "rules", "rule": None,
                                 "message": exc.message})
        return 1
    verdict = verify(log.events, secret, signers=log.signers)
    if verdict.finding is not None:
        f = verdict.finding
        error = {"line": f.line, "seq": f.seq, "kind": "rules", "rule": f.rule,
                 "message": f.message, "expected": f.expected, "found": f.found}
        differences = event_differences(f.expected, f.found)
        if differences:
            error["differences"] = differences
        report["errors"].append(error)
        return 1
    state = verdict.state
    assert state is not None
    report["over"] = state.phase == "over"
    report["pending"] = verdict.pending
    report["chance"] = verdict.chance
    if expected is not None or snapshot:
        from meeple.engine import export

        exported = msgspec.json.decode(msgspec.json.encode(export(state)))
        if snapshot:
            report["snapshot"] = exported
        found, count = diff(expected, exported) if expected is not None else ([], 0)
        if found:
            report["errors"] += [{"line": None, "seq": None, "kind": "expect", "field": where,
                                  "message": f"{where}: expected {want}, found {got}"}
                                 for where, want, got in found]
            report["differences"] = count
            return 1
    report["ok"] = True
    return 0


def head_report(hashes: Sequence[str], given: str) -> dict:
    """Where the head hash ``given`` (a prefix of lower-case hex digits) lies in a log whose
    line hashes are ``hashes``: ``matches`` is ``head`` (the last line's), ``earlier`` (the
    head after ``line``, an earlier line), ``none``, or ``ambiguous`` (several lines' hashes
    start with it: ``candidates`` lists their lines); ``lines`` is the log's length."""
    found = [number for number, full in enumerate(hashes, 1) if full.startswith(given)]
    report: dict = {"head_given": given, "matches": "none", "line": None,
                    "lines": len(hashes)}
    if len(found) > 1:
        report.update(matches="ambiguous", candidates=found)
    elif found:
        report.update(matches="head" if found[0] == len(hashes) else "earlier", line=found[0])
    return report


def head_words(path: str, report: dict) -> str:
    """The sentence that says where ``--head`` lies in the log."""
    given, line, lines = report["head_given"], report["line"], report["lines"]
    path = escaped(path)  # a newline in a file name cannot forge a line
    match report["matches"]:
        case "head":
            return f"{given} is the head of {path}: line {line}, the last"
        case "earlier":
            return (f"{given} is the head after line {line} of {lines}: the log has "
                    f"{lines - line} lines more since")
        case "ambiguous":
            where = ", ".join(str(n) for n in report["candidates"])
            return (f"{given} starts the hashes of lines {where} of {path}: give more digits "
                    "to tell them apart")
        case "none":
            return f"{given} is no head of {path}: none of its {lines} lines hashes to it"
    return f"{given}: cannot tell whether it is a head of {path}: the log is unreadable"


def head_argument(head: str, paths: list[str]) -> str:
    """The ``--head`` value, checked: at least ``HEAD_DIGITS`` hex digits (at most 64), and
    one GAME that is a file. Returned in lower case.

    :raises Failure: (2) otherwise.
    """
    digits = head.lower()
    if not HEAD_DIGITS <= len(digits) <= 64 or digits.strip("0123456789abcdef"):
        raise Failure(f"--head takes a head hash: {HEAD_DIGITS} to 64 hex digits (as "
                      f"`meeple status` shows), not {head!r}", 2)
    if len(paths) != 1 or os.path.isdir(paths[0]):
        raise Failure(f"--head compares with one GAME file; got {len(paths)} "
                      f"{'paths' if len(paths) != 1 else 'folder'}", 2)
    return digits


def _check_one(path: str, expected: object | None, beside: str | None = None,
               ) -> tuple[dict, int]:
    """One game's report; with ``beside`` (a folder), compared with its own snapshot there:
    ``X.jsonl`` with ``beside/X.expected.json``, whose absence or fault fails this game only."""
    if beside is not None:
        snapshot = expected_path(path, beside)
        try:
            expected = read_expected(snapshot)
        except Failure as exc:
            report, code = check_file(path)
            missing = not os.path.lexists(snapshot)
            message = (f"no expected snapshot {snapshot} (write it with `meeple show "
                       f"{shlex.quote(path)} --json > {shlex.quote(snapshot)}`)"
                       ) if missing else exc.message
            report["ok"] = False
            report["errors"].append({"line": None, "seq": None, "kind": "expect",
                                     "field": None, "message": message})
            return report, max(code, 1)
    return check_file(path, expected)


def expected_path(path: str, folder: str) -> str:
    """Where ``check --expect FOLDER`` looks for the snapshot of the game ``path``:
    ``FOLDER/X.expected.json`` for ``X.jsonl``."""
    name = os.path.basename(path)
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else name
    return os.path.join(folder, f"{stem}.expected.json")


def run_check(paths: list[str], expect: str | None, as_json: bool, jobs: int = 0,
              head: str | None = None, failures_only: bool = False) -> int:
    """Check files (folders: their ``*.jsonl``), in ``jobs`` processes (0: one per core).

    Reports stream out in file order; only the small per-file reports are kept, for the
    JSON document and the summary. With ``head``, the one GAME is also told whether that
    hash is its head, the head after an earlier line, or none of its heads. ``expect`` is a
    snapshot file (one game) or a folder of them (each game with its own, ``expected_path``).
    With ``failures_only`` only the games that fail are reported, and the summary.
    """
    from meeple.cli.bots.parallel import usable_jobs

    usable_jobs(jobs)
    if head is not None:
        if expect is not None and os.path.isdir(expect):
            raise Failure("--head checks one GAME: give --expect its snapshot file", 2)
        return _run_head(paths[0] if paths else "", head_argument(head, paths), expect, as_json)
    beside = expect if expect is not None and os.path.isdir(expect) else None
    several = len(paths) != 1 or os.path.isdir(paths[0])
    if expect is not None and several and not os.path.lexists(expect):
        raise Failure(f"--expect {expect}: no such folder (give the folder that holds each "
                      "game's X.expected.json)", 2)
    if expect is not None and beside is None and several:
        raise Failure(f"--expect {expect} is one game's snapshot, but {_games_given(paths)} "
                      "given: give --expect a folder (e.g. the games' own) to compare "
                      "each X.jsonl with its X.expected.json there", 2)
    expected = read_expected(expect) if expect is not None and beside is None else None
    files = expand(paths)
    reports, worst = [], 0
    with progress(len(files), as_json) as advance:
        for report, code in _results(files, expected, beside, jobs):
            worst = max(worst, code)
            advance()
            if failures_only and report["ok"]:
                continue
            reports.append(report)
            if not as_json:
                _say_report(report)
    failed = [r for r in reports if not r["ok"]]
    summary = {"games": len(files), "valid": len(files) - len(failed),
               "invalid": sum(1 for r in failed if r["head"] is not None),
               "unreadable": sum(1 for r in failed if r["head"] is None)}
    if as_json:
        if len(files) == 1 and len(paths) == 1 and not os.path.isdir(paths[0]) \
                and not failures_only:
            emit_json(reports[0])
        else:
            emit_json({"ok": worst == 0, "summary": summary, "games": reports})
    elif len(files) != 1 or failures_only:
        say(f"{summary['games']} games: {summary['valid']} valid, {summary['invalid']} invalid, "
            f"{summary['unreadable']} unreadable or corrupt")
    if worst:
        verdict(reports, summary, code=worst)
    return worst


def _run_head(path: str, head: str, expect: str | None, as_json: bool) -> int:
    """``check GAME --head HASH``: the usual report of GAME, and where HASH lies in it."""
    expected = read_expected(expect) if expect is not None else None
    report, code = check_file(path, expected, head)
    if as_json:
        emit_json(report)
    else:
        _say_report(report)
        say(head_words(path, report))
    if code:
        verdict([report], None, head_words(path, report), code=code)
    return code


def verdict(reports: list[dict], summary: dict | None, head: str | None = None,
            code: int = 1) -> None:
    """The one ``meeple: error:`` line on stderr of a check that failed: the first fault, and
    for several games how many failed. The reports themselves are the results, on stdout."""
    failed = [report for report in reports if not report["ok"]]
    first = _first_fault(failed[0]) if failed else head
    if summary is not None and summary["games"] > 1:
        first = (f"{len(failed)} of {summary['games']} games: {summary['invalid']} invalid, "
                 f"{summary['unreadable']} unreadable or corrupt; the first: {first}")
    tell_error(f"check failed: {first}", code, kind="check_failed")


def _first_fault(report: dict) -> str:
    error = report["errors"][0]
    where = f"{report['file']}:{error['line']}" if error.get("line") else report["file"]
    rule = f" ({error['rule']})" if error.get("rule") else ""
    return f"{where}: {error['kind']}: {error['message']}{rule}"


def _results(files: list[str], expected: object | None, beside: str | None, jobs: int):
    from meeple.cli.bots.parallel import ordered_map

    yield from ordered_map(functools.partial(_check_one, expected=expected, beside=beside),
                           files, jobs)


def _games_given(paths: list[str]) -> str:
    folders = sum(os.path.isdir(p) for p in paths)
    if folders:
        return "a folder was" if folders == 1 else f"{folders} folders were"
    return f"{len(paths)} games were"


def _say_report(report: dict) -> None:
    for line in report_lines(report):
        say(line)


def report_lines(report: dict) -> list[str]:
    """One report as ``check`` prints it, line by line: a valid game's one line, or each
    fault located (``FILE:LINE: KIND: MESSAGE (RULE)``) with what a recomputed event differs
    in, indented; every control character escaped."""
    path = escaped(report["file"])  # a newline in a file name cannot forge a line
    if report["ok"]:
        state = "over" if report.get("over") else "in progress"
        pending = " (consequences pending)" if report.get("pending") else ""
        chance = CHANCE_WORDS.get(report.get("chance", ""), "")
        return [f"{path}: ok · {report['lines']} lines · game {state}{pending}{chance} · head "
                f"{logfile.short(report['head'])}"]
    lines = []
    for error in report["errors"]:
        where = f"{path}:{error['line']}" if error.get("line") else path
        rule = f" ({error['rule']})" if error.get("rule") else ""
        field = f" [field {error['field']}]" if error.get("field") and error["kind"] != "expect" \
            else ""
        # (a message may repeat a file name: escaped whole, it stays on this line)
        lines.append(f"{where}: {error['kind']}: {escaped(error['message'])}{rule}{field}")
        lines += [escaped(line) for line in _recomputed(error)]
    return lines


def _recomputed(error: dict) -> list[str]:
    """What a recomputed event differs in, field by field; both whole events only when they
    are not of the same type."""
    if error.get("differences"):
        return [f"    {difference['field']}: recorded {short_json(difference['recorded'])}, "
                f"the rules give {short_json(difference['rules'])}"
                for difference in error["differences"]]
    lines = []
    if error.get("expected"):
        lines.append(f"    expected: {error['expected']}")
    if error.get("found"):
        lines.append(f"    found:    {error['found']}")
    return lines
