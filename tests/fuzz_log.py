"""Fuzz target for the log reader and the rules checker (atheris / libFuzzer).

    python tests/fuzz_log.py -max_total_time=30 CORPUS_DIR

Any input must either be refused by the reader with a located ``LogError``, or read and then
re-verified without an exception. Anything else is a crash that libFuzzer reports and saves.
"""

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parents[1] / "fixtures"))

with atheris.instrument_imports():
    import msgspec

    from meeple.engine import verify
    from meeple.events import log as logfile

    from scenarios import rechain

REFUSALS = ("corrupt", "torn", "tampered", "too_large", "newer", "unreadable")


def check(data: bytes) -> None:
    try:
        log = logfile.parse("fuzz.jsonl", data)
    except logfile.LogError as exc:
        if exc.kind not in REFUSALS:
            raise
        return
    verify(log.events)


def rechained(data: bytes) -> bytes | None:
    """The input with every prev recomputed, so that only the rules can refuse it."""
    lines = [line for line in data.split(b"\n") if line]
    try:
        if not lines or not all(isinstance(msgspec.json.decode(x), dict) for x in lines):
            return None
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    return b"\n".join(rechain(lines)) + b"\n"


def one_input(data: bytes) -> None:
    check(data)
    again = rechained(data)
    if again is not None:
        check(again)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
