"""``meeple rules [ID | WORD]``: the rules text meeple ships, looked up by the rule ids its
messages cite (``meeple.cli.rulebook``)."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
import textwrap
from typing import Annotated

import typer

from meeple.cli.guard import guarded
from meeple.cli.output import emit_json, fail, say
from meeple.cli.params import Json

commands = typer.Typer()

#: the width rules text is wrapped to
WIDTH = 78


@commands.command()
@guarded
def rules(
    which: Annotated[str | None, typer.Argument(
        help="A rule id (SW-4.2, CL-6, RM-2; a section such as SW-5 shows its rules too), or "
        "a word to look for in the titles and texts (battle). Without it: every rule id with "
        "its title.", metavar="ID|WORD", show_default=False)] = None,
    as_json: Json = False,
) -> None:
    """The rules of the game, by the ids errors and scores cite: list them, show one, or
    find a word."""
    from meeple.cli import rulebook

    if which is None:
        _list(rulebook.groups(), as_json)
        return
    if rulebook.looks_like_id(which):
        found = rulebook.find(which)
        if not found:
            near = ", ".join(rulebook.closest(which))
            fail(f"no rule {which!r}; the closest: {near} (`meeple rules` lists them all)", 2,
                 kind="usage")
    else:
        found = rulebook.search(which)
        if not found:
            fail(f"no rule mentions {which!r} (`meeple rules` lists them all)", 2, kind="usage")
    if as_json:
        emit_json([{"id": r.id, "title": r.title, "text": r.text} for r in found])
        return
    for at, rule in enumerate(found):
        if at:
            say("")
        say(f"{rule.id}  {rule.title}")
        say("\n\n".join(_wrapped(paragraph) for paragraph in rule.text.split("\n\n")))


def _list(groups, as_json: bool) -> None:
    """Every rule id with its title, group by group."""
    if as_json:
        emit_json([{"id": r.id, "title": r.title, "text": r.text}
                   for group in groups for r in group.rules])
        return
    for at, group in enumerate(groups):
        if at:
            say("")
        say(group.name)
        say(_wrapped(group.intro))
        for rule in group.rules:
            indent = "    " if "." in rule.id else "  "
            say(f"{indent}{rule.id:<8} {rule.title}")
    say("")
    say("`meeple rules ID` shows a rule, `meeple rules WORD` the rules that mention it.")


def _wrapped(paragraph: str) -> str:
    """A paragraph wrapped to ``WIDTH``, indented by two spaces."""
    return textwrap.fill(paragraph, WIDTH, initial_indent="  ", subsequent_indent="  ")
