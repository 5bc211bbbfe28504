"""MkDocs hooks: the pages written from meeple itself at every build, so they cannot drift.

- ``reference/commands.md``: every command of the CLI, its help and every option, walked
  from the click command tree typer builds (what ``meeple COMMAND --help`` prints).
- ``rules.md``: the rules text of ``cli/rulebook/*.toml``, as ``meeple rules ID`` prints it.
- ``changelog.md``: the top-level ``CHANGELOG.md``.

The API pages are rendered by mkdocstrings from the docstrings; the package is found through
a temporary folder that holds ``meeple/`` as links to the top-level ``cli``, ``engine`` and
``events`` folders (the names it is installed under).
"""

from __future__ import annotations

import atexit
import html
import os
import shutil
import sys
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]


@event_priority(100)  # before mkdocstrings sets its handlers up
def on_config(config):
    """Let mkdocstrings find ``meeple.*`` in the repository's own folders (MkDocs puts
    ``sys.path`` back as it was after loading this file, so this is done here)."""
    folder = Path(tempfile.mkdtemp(prefix="meeple-docs-"))
    atexit.register(shutil.rmtree, folder, True)
    package = folder / "meeple"
    package.mkdir()
    # a regular package, found before the `meeple` console script beside `mkdocs`, which a
    # namespace package would come after
    (package / "__init__.py").write_text('"""meeple, as installed."""\n')
    for name in ("cli", "engine", "events"):
        os.symlink(ROOT / name, package / name)
    sys.path.insert(0, str(folder))  # before the folder of the `meeple` console script
    return config


def on_files(files: Files, config) -> Files:
    """Add the generated pages."""
    pages = {
        "reference/commands.md": commands_page(),
        "rules.md": rules_page(),
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    }
    for uri, text in pages.items():
        files.append(File.generated(config, uri, content=text))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Table rows keep ``\\|`` inside code, which GitHub needs to read the pages as Markdown;
    Python-Markdown's tables never split a row inside code, and would show the backslash."""
    return "\n".join(line.replace("\\|", "|") if line.startswith("|") else line
                     for line in markdown.split("\n"))


def _text(words: str) -> str:
    """Help text as Markdown: HTML's special characters escaped, code spans kept."""
    return html.escape(words, quote=False)


def commands_page() -> str:
    """Every command of ``meeple``, with its usage, help and options."""
    import typer.main

    from meeple.cli.app import app

    root = typer.main.get_command(app)
    lines = [
        "# Commands",
        "",
        "Generated from meeple's command tree when this site was built: each command's usage, "
        "its help and every option, as `meeple COMMAND --help` prints them. Exit codes and "
        "the error format are in [Scripting](../guide/scripting.md).",
        "",
    ]
    context = root.context_class(root, info_name="meeple")
    lines += _command("meeple", root, context, level=2)
    return "\n".join(lines) + "\n"


def _command(path: str, command, context, level: int) -> list[str]:
    """A command's section, and its sub-commands' after it (typer's own copy of click's
    classes: read by what they have, not by their class)."""
    lines = [f"{'#' * level} `{path}`", ""]
    usage = " ".join(command.collect_usage_pieces(context))
    lines += ["```text", f"{path} {usage}".rstrip(), "```", ""]
    if command.help:
        lines += [_text(command.help.strip()), ""]
    params = command.get_params(context)
    arguments = [p for p in params if p.param_type_name == "argument"]
    options = [p for p in params if p.param_type_name == "option" and not p.hidden]
    for title, params in (("Arguments", arguments), ("Options", options)):
        if not params:
            continue
        lines += [f"**{title}**", ""]
        for param in params:
            lines.append(_param(param, context))
        lines.append("")
    if hasattr(command, "list_commands"):
        for name in sorted(command.list_commands(context)):
            sub = command.get_command(context, name)
            if sub is None or sub.hidden:
                continue
            inner = sub.context_class(sub, info_name=name, parent=context)
            lines += _command(f"{path} {name}", sub, inner, level + (1 if level < 3 else 0))
    return lines


def _param(param, context) -> str:
    """One argument or option as a list item: its names, its value, its help and default."""
    option = param.param_type_name == "option"
    if option:
        names = ", ".join(param.opts + param.secondary_opts)
        value = "" if param.is_flag or param.count else f" {param.make_metavar(context)}"
        help_text = param.help or ""
    else:
        names = param.make_metavar(context)
        value = ""
        help_text = getattr(param, "help", None) or ""
    notes = []
    if param.required:
        notes.append("required")
    default = param.default
    show = getattr(param, "show_default", None)
    if (default not in (None, False, (), [], "") and show is not False
            and not callable(default) and not (option and param.is_flag)):
        shown = show if isinstance(show, str) else default
        notes.append(f"default: `{shown}`")
    tail = f" ({'; '.join(notes)})" if notes else ""
    words = f" {_text(' '.join(help_text.split()))}" if help_text else ""
    return f"- `{names}{value}`{tail}:{words}" if words else f"- `{names}{value}`{tail}"


def rules_page() -> str:
    """The rules meeple ships, group by group, each rule under its id."""
    from meeple.cli import rulebook

    lines = [
        "# Rules",
        "",
        "The rules of both editions in meeple's own words, by the ids every error, score row "
        "and narrated battle cites: the text `meeple rules` prints (`meeple rules SW-4.2` for "
        "one, `meeple rules battle` to find a word). Generated from `cli/rulebook/*.toml` "
        "when this site was built.",
        "",
    ]
    for group in rulebook.groups():
        lines += [f"## {group.name}", "", _text(group.intro), ""]
        for rule in group.rules:
            level = "###" if "." not in rule.id else "####"
            lines += [f"{level} {rule.id} {_text(rule.title)} {{ #{rule.id.lower()} }}", ""]
            lines += [_text(rule.text), ""]
    return "\n".join(lines) + "\n"
