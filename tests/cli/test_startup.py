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


def test_each_command_module_registers_what_the_table_says_it_holds():
    """``MODULES`` tells a command line which module to load: it must name every command of
    each module, and only those (``play`` is the app's own)."""
    from importlib import import_module

    from meeple.cli import app as cli

    for module, names in cli.MODULES.items():
        registered = [cli._name_of(info) for info in import_module(module).commands.registered_commands]
        assert registered == list(names), module
    listed = [name for names in cli.MODULES.values() for name in names]
    assert sorted([*listed, "play"]) == sorted(cli.ORDER)


def test_a_command_line_loads_its_own_command_module_alone():
    import subprocess
    import sys

    code = ("import sys; from meeple.cli.app import app_for; app_for(['status', 'x']); "
            "print(sorted(m for m in sys.modules if m.startswith('meeple.cli.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert "meeple.cli.commands.status" in loaded
    for other in ("playing", "showing", "remote", "tools", "interop", "rules", "keys"):
        assert f"meeple.cli.commands.{other}'" not in loaded
    assert "meeple.cli.bots.commands" not in loaded


#: modules `meeple status` of a finished game must not load, each for what it cost at start
NOT_FOR_STATUS = (
    "_hashlib",  # OpenSSL, behind hashlib: SHA-256 comes from meeple.events.digest
    "hashlib",
    "meeple.cli.commands.showing",  # the other commands that show a game: status has its own
    "meeple.cli.options",  # the options other commands take (meeple.cli.params gives them lazily)
)


def _loaded_by_status(game: str) -> set[str]:
    """The modules a `meeple status GAME` process holds when it exits."""
    import subprocess
    import sys

    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write(' '.join(sys.modules)))\n"
            "from meeple.cli.console import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code, "status", game], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


@pytest.mark.parametrize("game", ["random_2p_seed_0.jsonl", "classic_random_2p_seed_0.jsonl"])
def test_status_of_a_finished_game_loads_nothing_it_does_not_use(game):
    from pathlib import Path

    fixture = Path(__file__).parents[2] / "fixtures" / game
    loaded = _loaded_by_status(str(fixture))
    assert "meeple.engine.game" in loaded  # (the game was read, verified and folded)
    assert sorted(loaded.intersection(NOT_FOR_STATUS)) == []


def test_the_console_script_sets_the_collector_before_it_imports_typer():
    """``meeple`` (``meeple.cli.console:main``) sweeps its youngest generation every
    ``YOUNG_SWEEP`` allocations from its first import on, typer's import included."""
    import subprocess
    import sys

    code = ("import atexit, gc, sys\n"
            "seen, real = [], gc.set_threshold\n"
            "gc.set_threshold = lambda *a: (seen.append(('typer' in sys.modules, *a)), real(*a))\n"
            "atexit.register(lambda: print(seen, gc.get_threshold()[0]))\n"
            "from meeple.cli.console import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True,
                          text=True)
    from meeple.cli.console import YOUNG_SWEEP

    assert done.stdout.splitlines()[-1] == f"[(False, {YOUNG_SWEEP})] {YOUNG_SWEEP}", done
