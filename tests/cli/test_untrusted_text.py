"""Untrusted text on a terminal: names, tile ids and set names from a hostile log cannot erase
or add lines, move the cursor or reorder what is read; errors stay one line; JSON output carries
no raw control or bidirectional characters; NO_COLOR removes colour even on a terminal."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
import typer
from rich.console import Console

from meeple.cli.output import emit_json, fail, note, say
from meeple.cli.pictures.board import to_rich
from meeple.cli.pictures.narrate import tell
from meeple.cli.pictures.tilesheet import sheet
from meeple.engine import EDITIONS, compile_tileset
from meeple.events import log
from meeple.events.model import TileDrawn
from meeple.events.tileset import TileSetDef, content_hash

from helpers import bundled, rechain, run
from helpers import fail as fail_line
from helpers import invoke as invoke_cli

FIXTURES = Path(__file__).parents[2] / "fixtures"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
#: what a terminal obeys: C0 controls (newline aside), DEL, C1 controls, bidirectional marks
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
ERASE = "\x1b[2K\rok"
FAKE_ERROR = "W\nmeeple: error: fake"
#: an SGR sequence that sets a foreground or background colour
COLOUR_CODE = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().rstrip(b"\n").split(b"\n")


def invoke(*args, env: dict[str, str] | None = None):
    """Run the CLI in-process, whatever its exit code; never a traceback."""
    result = invoke_cli(args, env=env)
    assert "Traceback" not in result.stdout + result.stderr and result.exit_code != 4, result.stderr
    return result


def test_an_error_is_one_line_whatever_its_message_holds(capsys):
    with pytest.raises(typer.Exit) as exit_:
        fail(f"cannot read x{ERASE}\nmeeple: error: fake\x85\u202e", 3)
    err = capsys.readouterr().err
    assert exit_.value.exit_code == 3
    assert err.count("\n") == 1 and err.startswith("meeple: error: cannot read x")
    assert not RAW_CONTROL.search(err)
    assert "\\x1b[2K\\rok\\nmeeple: error: fake\\x85\\u202e" in err


def test_a_newline_in_a_file_name_prints_no_second_error_line():
    line = fail_line("status", "nofile\nmeeple: error: fake", code=3)
    assert "nofile\\nmeeple: error: fake" in line


@pytest.mark.slow  # starts processes
def test_a_hostile_file_name_in_a_checked_folder_forges_no_line_of_the_report(tmp_path):
    """`check` of a folder received from others: a file name holding a newline and a tab,
    repeated inside an error's message (the suggested command, a seed file's name), stays on
    that error's one line."""
    folder = tmp_path / "games"
    folder.mkdir()
    run("new", folder / "real.jsonl", "--players", "red,black", "--seed", "3")
    (folder / "real.expected.json").write_text(run("show", folder / "real.jsonl",
                                                   "--json").stdout)
    hostile = "z\nFORGED evil.jsonl: ok\t.jsonl"
    (folder / hostile).write_bytes((folder / "real.jsonl").read_bytes())
    run("new", folder / "s.jsonl", "--players", "red,black", "--sealed")
    (folder / "s.jsonl").rename(folder / "s\nFORGED.jsonl")
    (folder / "s\nFORGED.jsonl.seed").write_text("not the seed\n")
    (folder / "s.jsonl.seed").unlink()
    out = run("check", folder, "--expect", folder, code=1).stdout
    assert not [line for line in out.splitlines() if line.startswith("FORGED")], out
    assert not RAW_CONTROL.search(out), out
    assert "z\\nFORGED evil.jsonl: ok\\t.jsonl: expect: no expected snapshot" in out
    assert "this seed is not the one the game committed to" in out
    head = log.read(str(folder / hostile)).head[:12]
    for given in (head, "0" * 16):  # where --head lies in the log: the sentence names the file
        said = run("check", folder / hostile, "--head", given, code=0 if given == head else 1)
        assert not [line for line in said.stdout.splitlines() if line.startswith("FORGED")]


def test_say_and_note_keep_our_newlines_and_tabs_but_escape_every_control(capsys):
    say(f"board\n\trow {ERASE}\x9b31m\u202eb")
    note(f"wrote\x07 {ERASE}")
    out, err = capsys.readouterr()
    assert out == "board\n\trow \\x1b[2K\\rok\\x9b31m\\u202eb\n"
    assert err == "wrote\\x07 \\x1b[2K\\rok\n"


def test_json_output_escapes_del_c1_controls_and_bidirectional_marks(capsys):
    document = {"name": f"a\x7f\x85\x9b\u202e\u2066{ERASE}", "tiles": ["\u200f", "plain é"]}
    emit_json(document)
    out = capsys.readouterr().out
    assert not RAW_CONTROL.search(out.replace("\n", ""))
    assert "\\u007f\\u0085\\u009b\\u202e\\u2066" in out and "plain é" in out
    assert json.loads(out) == document


def test_the_terminal_board_escapes_a_control_character_in_any_cell():
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=80).print(to_rich([[("\x1b[2K", "red"), ("r", None)]]))
    assert "\x1b[2K" not in out.getvalue() and "\\x1b[2K" in out.getvalue()


def test_tile_ids_and_planet_names_in_the_text_sheet_stay_on_their_lines():
    definition = bundled()
    tiles = list(definition.tiles)
    planet = next(i for i, t in enumerate(tiles) if any(f.name for f in t.features))
    tiles[0] = msgspec.structs.replace(tiles[0], id=FAKE_ERROR)
    features = [msgspec.structs.replace(f, name=f"{f.name}{ERASE}") if f.name else f
                for f in tiles[planet].features]
    tiles[planet] = msgspec.structs.replace(tiles[planet], features=tuple(features))
    plain = sheet(compile_tileset(msgspec.structs.replace(definition, tiles=tuple(tiles))))
    assert not RAW_CONTROL.search(plain)
    assert not any(line.startswith("meeple: error") for line in plain.splitlines())
    assert "W\\nmeeple: error: fake x1" in plain and "\\x1b[2K\\rok" in plain


def test_a_sentence_told_about_an_event_is_one_line():
    drawn = TileDrawn(seq=1, prev=None, player="red", tile=FAKE_ERROR)
    assert tell(drawn, EDITIONS["star-wars"]) == "red draws W\\nmeeple: error: fake"


@pytest.fixture
def erasing_name(tmp_path) -> Path:
    """A valid, re-chained game whose first player's name erases the line and writes ``ok``."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--names", "Ann,Bob", "--seed", "1")
    run("autoplay", game, "--turns", "3")

    def rename(data):
        if data["type"] == "game_started":
            data["players"][0]["name"] = ERASE

    hostile = tmp_path / "hostile.jsonl"
    hostile.write_bytes(b"\n".join(rechain(lines_of(game), rename)) + b"\n")
    return hostile


COMMANDS = [("status",), ("replay",), ("score",), ("show",), ("check",), ("moves",),
            ("status", "--json"), ("replay", "--json"), ("check", "--json")]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_hostile_player_name_cannot_rewrite_the_terminal(erasing_name, command):
    result = invoke(*command, erasing_name)
    both = result.stdout + result.stderr
    assert not RAW_CONTROL.search(both), both
    if result.exit_code and command[0] != "check":  # refused where it enters: one line
        assert result.exit_code in (1, 3) and not result.stdout
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith('{"error":' if "--json" in command else "meeple: error:")
    if command[0] in ("replay", "status") and result.exit_code == 0:
        assert "\\x1b[2K\\rok" in both or "\\u001b[2K\\rok" in both


def test_a_newline_in_a_recorded_tile_id_adds_no_line_to_the_replay(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,black", "--table")
    run("draw", game, "W")

    def rename(data):
        if data["type"] == "game_started":
            definition = data["tileset"]["definition"]
            for tile in definition["tiles"]:
                if tile["id"] == "W":
                    tile["id"] = FAKE_ERROR
            data["tileset"]["sha256"] = content_hash(
                msgspec.json.decode(msgspec.json.encode(definition), type=TileSetDef))
        elif data.get("tile") == "W":
            data["tile"] = FAKE_ERROR

    hostile = tmp_path / "hostile.jsonl"
    hostile.write_bytes(b"\n".join(rechain(lines_of(game), rename)) + b"\n")
    result = invoke("replay", hostile)
    both = result.stdout + result.stderr
    assert not any(line.startswith("meeple: error: fake") for line in both.splitlines()), both
    if result.exit_code == 0:
        assert "red draws W\\nmeeple: error: fake" in result.stdout


def test_show_on_a_terminal_is_coloured_unless_no_color_is_set():
    coloured = invoke("show", FOUR_PLAYERS, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert coloured.exit_code == 0 and COLOUR_CODE.search(coloured.stdout)
    plain = invoke("show", FOUR_PLAYERS, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert plain.exit_code == 0 and "\x1b[" in plain.stdout, "still a terminal: bold, reverse"
    assert not COLOUR_CODE.search(plain.stdout + plain.stderr)
    assert "┼" in plain.stdout or "│" in plain.stdout, "the terminal board, with box drawing"


@pytest.mark.parametrize("args", [["show"], ["show", "--bogus"], ["status", "nofile"]])
@pytest.mark.slow  # starts processes
def test_usage_errors_and_failures_carry_no_colour_under_no_color(args):
    meeple = Path(sys.executable).parent / "meeple"
    env = {**os.environ, "FORCE_COLOR": "1", "NO_COLOR": "1", "TERM": "xterm-256color"}
    done = subprocess.run([meeple, *args], capture_output=True, env=env, text=True, timeout=30)
    assert done.returncode in (2, 3) and done.stderr
    assert not COLOUR_CODE.search(done.stdout + done.stderr)
