"""Bot protocol version 2 (``docs/bot-protocol.md``) beside version 1: the handshake, options
from the command line, the clock, info lines, error feedback with one retry, the result at
the end; and ``cmd:NAME`` found as a shell finds it."""

import json
import os
import shutil
import sys

import pytest

from meeple.cli.bot_messages import schemas
from meeple.cli.program_spec import ProgramError, find_program, split_spec
from meeple.events import log

from helpers import fail, run, run_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RANDOM_BOT = os.path.join(ROOT, "docs", "bots", "random_bot.py")
FIRST_BOT = os.path.join(ROOT, "docs", "bots", "first_bot.js")

#: a version 2 bot that writes every message it gets to the file named by its argument
RECORDER = """
import json, os, sys
seen = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "seen.jsonl"), "a")
wrong = {wrong}
for line in sys.stdin:
    message = json.loads(line)
    seen.write(line)
    seen.flush()
    kind = message.get("type")
    if kind == "hello" and 2 in message.get("protocols", []):
        print(json.dumps({{"type": "hello", "protocol": 2, "name": "recorder", "author": "t",
                          "version": "1", "options": [{{"name": "depth", "type": "int",
                                                        "default": 1}}]}}), flush=True)
    elif kind == "move":
        print(json.dumps({{"type": "info", "text": "thinking", "depth": 2}}), flush=True)
        print(json.dumps({{"move": wrong if wrong is not None else 0}}), flush=True)
    elif kind == "error":
        print(json.dumps({{"move": wrong if {{stubborn}} else message["legal"][0]}}), flush=True)
    elif kind == "over":
        break
"""


def _recorder(tmp_path, wrong=None, stubborn=False):
    bot = tmp_path / "recorder.py"
    bot.write_text(RECORDER.format(wrong=wrong).replace("{stubborn}", str(stubborn)))
    return bot, tmp_path / "seen.jsonl"


def _stopped(*args):
    """The error line of a command a bot program stops (after the bot's info lines)."""
    lines = run(*args, code=1).stderr.rstrip().splitlines()
    assert lines[-1].startswith("meeple: error: ")
    assert all(line.startswith("  bot: ") for line in lines[:-1])
    return lines[-1]


def _game(tmp_path, *more):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5", *more)
    return game


def test_options_follow_the_program_and_colons_else_belong_to_the_path():
    assert split_spec("cmd:./bot:depth=3:style=calm") == ("./bot", {"depth": "3",
                                                                    "style": "calm"})
    assert split_spec("cmd:/opt/a:b/bot") == ("/opt/a:b/bot", {})
    assert split_spec("cmd:bot:x=1:x=2") == ("bot", {"x": "2"})
    assert split_spec("cmd:bot:=1") == ("bot:=1", {})


def test_a_bare_name_is_looked_up_on_path_and_one_in_this_folder_is_named(tmp_path,
                                                                        monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "mybot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert find_program("mybot") == str(program)
    monkeypatch.chdir(tmp_path)
    local = tmp_path / "localbot"
    local.write_text("#!/bin/sh\n")
    local.chmod(0o755)
    with pytest.raises(ProgramError, match="not on PATH; did you mean cmd:./localbot"):
        find_program("localbot")
    game = _game(tmp_path)
    message = fail("autoplay", game, "--bot", "cmd:localbot", "--turns", "1", code=2)
    assert "'localbot' is not on PATH; did you mean cmd:./localbot?" in message
    assert "no program 'nobot' on PATH" in fail("autoplay", game, "--bot", "cmd:nobot", code=2)


@pytest.mark.slow  # starts processes
def test_a_program_on_path_plays_by_its_bare_name(tmp_path, monkeypatch):
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "pathbot"
    program.write_text(f"#!{sys.executable}\n" + open(RANDOM_BOT).read())
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    game = _game(tmp_path)
    before = len(log.read(game).events)
    run("autoplay", game, "--bot", "cmd:pathbot", "--turns", "2")
    assert len(log.read(game).events) > before


@pytest.mark.slow  # starts processes
def test_a_version_2_bot_gets_its_options_the_clock_errors_and_the_result(tmp_path):
    bot, seen = _recorder(tmp_path)
    game = _game(tmp_path)
    result = run("autoplay", game, "--bot", f"cmd:{bot}:depth=3", "--to-end",
                 "--move-time", "4")
    messages = [json.loads(line) for line in seen.read_text().splitlines()]
    hello, first = messages[0], messages[1]
    assert hello["protocol"] == 1 and hello["protocols"] == [1, 2]
    assert hello["options"] == {"depth": "3"}
    later = [m for m in messages[2:] if m["type"] == "move"]
    # the first request goes out before the bot has said its version; then its version
    assert first["type"] == "move" and first["protocol"] == 1
    assert later and {m["protocol"] for m in later} == {2}
    assert first["clock"] == {"move_ms": 4000, "left_ms": None}
    status = run_json("status", game)
    assert status["phase"] == "over"
    assert messages[-1] == {"type": "over", "scores": status["scores"],
                            "winners": status["winners"]}
    assert "bot: depth 2 thinking" in result.stderr
    run("check", game)


@pytest.mark.slow  # starts processes
def test_a_version_2_bot_is_told_why_and_answers_once_more(tmp_path):
    bot, seen = _recorder(tmp_path, wrong=999)
    game = _game(tmp_path)
    run("autoplay", game, "--bot", f"cmd:{bot}", "--turns", "1")
    errors = [json.loads(line) for line in seen.read_text().splitlines()
              if json.loads(line)["type"] == "error"]
    assert errors and "answered move 999, which is not one of the" in errors[0]["reason"]
    assert errors[0]["legal"][0] == 0


@pytest.mark.slow  # starts processes
def test_a_version_2_bot_wrong_twice_is_stopped_and_a_version_1_bot_at_once(tmp_path):
    bot, _ = _recorder(tmp_path, wrong=999, stubborn=True)
    game = _game(tmp_path)
    before = game.read_bytes()
    assert "answered move 999" in _stopped("autoplay", game, "--bot", f"cmd:{bot}", "--turns", "1")
    assert game.read_bytes() == before
    assert "takes no option 'speed' (it takes: depth)" in \
        _stopped("autoplay", game, "--bot", f"cmd:{bot}:speed=2", "--turns", "1")
    assert "option depth='deep' is not of its type, int" in \
        _stopped("autoplay", game, "--bot", f"cmd:{bot}:depth=deep", "--turns", "1")
    assert "takes no options: it answered as a version 1 bot" in \
        _stopped("autoplay", game, "--bot", f"cmd:{RANDOM_BOT}:depth=3", "--turns", "1")


@pytest.mark.slow  # starts processes
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_bot_plays_a_game_with_its_option(tmp_path):
    game = _game(tmp_path)
    run("autoplay", game, "--bot", f"cmd:{FIRST_BOT}:pick=last", "--to-end")
    assert run_json("status", game)["phase"] == "over"
    run("check", game)


def test_the_schemas_in_the_documentation_are_those_of_the_messages():
    folder = os.path.join(ROOT, "docs", "schemas")
    for name, text in schemas().items():
        with open(os.path.join(folder, name), encoding="utf-8") as kept:
            assert kept.read() == text, f"{name} is out of date: python -m " \
                "meeple.cli.bot_messages docs/schemas"
    assert sorted(n for n in os.listdir(folder) if n.startswith("bot-")) == sorted(schemas())


#: a version 2 bot that never reads ``error`` and never exits: two ways to fail bot-check
DEAF = """
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "deaf"}), flush=True)
    elif message["type"] == "move":
        print(json.dumps({"move": 0}), flush=True)
time.sleep({linger})
"""


@pytest.mark.slow  # starts processes
@pytest.mark.parametrize("bot", [RANDOM_BOT, FIRST_BOT])
def test_bot_check_passes_the_example_bots(bot):
    if bot.endswith(".js") and shutil.which("node") is None:
        pytest.skip("node is not installed")
    report = run_json("bot-check", f"cmd:{bot}")
    assert report["passed"], report
    names = [c["name"] for c in report["checks"]]
    assert names[0] == "handshake" and "classic game" in names and "star-wars exit" in names
    assert ("star-wars error feedback" in names) == bot.endswith(".js")


@pytest.mark.slow  # starts processes
def test_bot_check_fails_a_bot_that_ignores_errors_or_lingers_with_the_reason(tmp_path):
    deaf = tmp_path / "deaf.py"
    deaf.write_text(DEAF.replace("{linger}", "0"))
    result = run("bot-check", f"cmd:{deaf}", "--move-time", "1", code=1)
    assert "FAIL  star-wars error feedback: gave no answer within 1 s" in result.stdout
    assert result.stdout.rstrip().endswith("failed (1 of 5)")
    lingering = tmp_path / "lingering.py"
    lingering.write_text(DEAF.replace("{linger}", "30").replace(
        'print(json.dumps({"move": 0}), flush=True)', 'print(json.dumps({"move": 0}), '
        'flush=True)\n    elif message["type"] == "error":\n        print(json.dumps('
        '{"move": 0}), flush=True)'))
    result = run("bot-check", f"cmd:{lingering}", "--move-time", "1", code=1)
    assert "FAIL  star-wars exit: still running 2 s after its input was closed" in result.stdout


def test_bot_check_takes_only_a_program(tmp_path):
    assert "bot-check checks a bot program, cmd:PATH, not 'greedy'" in \
        fail("bot-check", "greedy", code=2)
    assert "no program file" in fail("bot-check", f"cmd:{tmp_path}/none", code=2)


@pytest.mark.slow  # starts processes
def test_an_arena_with_a_version_2_bot_keeps_its_info_beside_games_check_reads(tmp_path):
    bot, _ = _recorder(tmp_path)
    out = tmp_path / "arena"
    run("arena", "--bots", f"cmd:{bot},random", "--games", "2", "--seed", "i",
        "--out", out, "--jobs", "1")
    info = sorted(p.name for p in out.iterdir() if ".info." in p.name)
    assert info and all(name.endswith(".info.ndjson") for name in info)
    first = json.loads((out / info[0]).read_text().splitlines()[0])
    assert "thinking" in first["info"] and first["seat"] in (0, 1)
    assert (first["depth"], first["text"]) == (2, "thinking")  # its fields, as it gave them
    checked = run_json("check", out)
    assert checked["summary"] == {"games": 2, "valid": 2, "invalid": 0, "unreadable": 0}


TRANSCRIPT = os.path.join(ROOT, "docs", "bots", "transcript.txt")


def _cut(line: str) -> str:
    """A transcript line as the protocol page shows it: ``tileset`` and ``state`` as "…",
    ``moves`` after the first three and ``remaining`` after the first two tiles as "…"."""
    way, text = line[:2], line[2:]
    message = json.loads(text)
    if way == "> ":
        for key in ("tileset", "state"):
            if key in message:
                message[key] = "…"
        if len(message.get("moves", ())) > 3:
            message["moves"] = [*message["moves"][:3], "…"]
        if len(message.get("remaining", {})) > 2:
            message["remaining"] = {**dict(list(message["remaining"].items())[:2]), "…": 0}
    return way + json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def test_the_full_transcript_is_of_the_protocol_and_the_page_shows_it_cut():
    """docs/bots/transcript.txt, recorded from a real game, is what the protocol page shows
    (cut), and each of its lines is a message of the protocol (its schema's type)."""
    import msgspec

    from meeple.cli.bot_messages import MESSAGES

    lines = open(TRANSCRIPT, encoding="utf-8").read().splitlines()
    assert lines[0].startswith('> {"type":"hello"') and lines[-1].startswith('> {"type":"over"')
    for line in lines:
        way, message = line[:2], json.loads(line[2:])
        kind = ("answer" if "move" in message and "type" not in message
                else "bot-hello" if way == "< " and message["type"] == "hello"
                else message["type"])
        assert (way == "< ") == (kind in ("answer", "bot-hello", "info")), line[:80]
        msgspec.json.decode(line[2:], type=MESSAGES[kind])  # raises if it is not of its kind
    page = open(os.path.join(ROOT, "docs", "bot-protocol.md"), encoding="utf-8").read()
    assert "\n".join(_cut(line) for line in lines) in page
