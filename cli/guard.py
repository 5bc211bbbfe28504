"""Every command's last guard: a failure becomes one line on stderr (or one JSON object) and
its exit code, never a traceback (DESIGN.md, "CLI")."""

import functools
import os

import typer

from meeple.cli.output import WRITE_FAULTS, fail
from meeple.cli.words import cli_words


def guarded(fn):
    """Turn every failure into one line on stderr and its exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from meeple.cli import output
        from meeple.cli.store import Failure
        from meeple.engine import RulesError
        from meeple.events.log import REFUSALS, LogError

        as_json = output.errors_as_json
        output.errors_as_json = as_json or bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:
            # the reader stopped early (`meeple replay GAME | head`): end quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            raise typer.Exit(0) from None
        except Failure as exc:
            fail(exc.message, exc.code, rule=exc.rule, legal=exc.legal)
        except OSError as exc:
            if exc.errno not in WRITE_FAULTS:
                raise
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # what is left unwritten is dropped
            fail(f"cannot write the output: {exc.strerror}", 3, kind="write")
        except LogError as exc:
            fail(cli_words(str(exc)), 1 if exc.kind in REFUSALS else 3, kind=f"log_{exc.kind}")
        except RulesError as exc:
            illegal = type(exc).__name__ == "IllegalMove"
            fail(f"{'illegal move' if illegal else 'invalid'}: {cli_words(str(exc))}", 1,
                 kind="illegal_move" if illegal else "invalid_command", rule=exc.rule,
                 legal=exc.legal)
        except Exception as exc:  # noqa: BLE001 - the last guard before a user's terminal
            if os.environ.get("MEEPLE_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (rerun with MEEPLE_DEBUG=1 "
                 "and report it)", 4, kind="internal")
        finally:
            output.errors_as_json = as_json

    return wrapper
