"""`meeple CMD ...` builds typer's tree for CMD alone (a faster start); the command it runs
is the one the whole tree holds: same parameters, same help, same root options."""

import pytest
import typer

from meeple.cli.app import app, app_for

FULL = typer.main.get_command(app)
NAMES = sorted(FULL.commands)  # type: ignore[attr-defined]


def _info(command) -> tuple:
    """What a command takes and says about itself."""
    return (command.name, command.help, command.short_help, command.epilog, [
        (p.name, tuple(p.opts), tuple(p.secondary_opts), p.required, repr(p.default), p.nargs,
         getattr(p, "help", None), getattr(p, "is_flag", None), str(p.type))
        for p in command.params])


@pytest.mark.parametrize("name", NAMES)
def test_a_command_line_gets_the_command_the_whole_tree_holds(name):
    for argv in ([name, "x"], ["--lock-timeout", "3", name, "--help"], [name]):
        one = typer.main.get_command(app_for(argv))
        assert list(one.commands) == [name]  # type: ignore[attr-defined]
        assert _info(one.commands[name]) == _info(FULL.commands[name])  # type: ignore[attr-defined]
        assert _info(one) == _info(FULL)


@pytest.mark.parametrize("argv", [[], ["--help"], ["--version"], ["statu", "g"],
                                  ["--lock-timeout", "3"]])
def test_anything_else_gets_the_whole_tree(argv):
    assert app_for(argv) is app
