"""The rules text meeple ships, by rule id (RULES.md's SW-, CL- and docs/guide/remote.md's RM- ids).

Each ``*.toml`` file beside this module holds one group of rules: its ``group`` name, its
``order`` among the groups, an ``intro`` and a list of ``rule`` tables (``id``, ``title``,
``text``: paragraphs separated by a blank line, a worked example last where the rulebook
has one). Nothing here names an edition: a rule is found by its id.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources

#: what a rule id looks like: a prefix of capitals, a number, and numbers after dots
RULE_ID = re.compile(r"[A-Z]{2,4}-\d+(?:\.\d+)*")


@dataclass(frozen=True)
class Rule:
    """One rule: its id, its one-line title and its text."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Group:
    """The rules of one file, in the order written: a name and an introduction."""

    name: str
    intro: str
    rules: tuple[Rule, ...]


@functools.cache
def groups() -> tuple[Group, ...]:
    """Every group of rules shipped, in their ``order``."""
    found = []
    for entry in resources.files(__name__).iterdir():
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        rules = tuple(Rule(r["id"], r["title"], _unwrapped(r["text"])) for r in data["rule"])
        found.append((data["order"], Group(data["group"], _unwrapped(data["intro"]), rules)))
    return tuple(group for _, group in sorted(found, key=lambda pair: pair[0]))


def _unwrapped(text: str) -> str:
    """``text`` as paragraphs of one line each, separated by a blank line."""
    return "\n\n".join(" ".join(part.split()) for part in text.strip().split("\n\n"))


@functools.cache
def by_id() -> dict[str, Rule]:
    """Every rule shipped, by its id."""
    return {rule.id: rule for group in groups() for rule in group.rules}


def looks_like_id(text: str) -> bool:
    """Whether ``text`` is shaped like a rule id (``SW-4.2``, any case)."""
    return RULE_ID.fullmatch(text.upper()) is not None


def find(rule_id: str) -> list[Rule]:
    """The rule ``rule_id`` names (any case), then the rules under it (``SW-5``: SW-5.1 ...);
    empty when there is none."""
    wanted = rule_id.upper()
    rules = by_id()
    if wanted not in rules:
        return []
    return [rules[wanted], *(rule for key, rule in rules.items()
                             if key.startswith(wanted + "."))]


def closest(rule_id: str, count: int = 3) -> list[str]:
    """The ids most like ``rule_id``: first those of the section it would fall under (the
    section and its first rules), else those spelled most alike."""
    wanted = rule_id.upper()
    ids = list(by_id())
    parent = wanted.rsplit(".", 1)[0] if "." in wanted else None
    if parent in by_id():
        kin = [key for key in ids if key == parent or key.startswith(parent + ".")]
        return kin[:count + 1]
    return difflib.get_close_matches(wanted, ids, n=count, cutoff=0.0)


def search(word: str) -> list[Rule]:
    """The rules whose title or text holds ``word`` (any case), in the shipped order."""
    wanted = word.casefold()
    return [rule for rule in by_id().values()
            if wanted in rule.title.casefold() or wanted in rule.text.casefold()]


def known(rule_id: str) -> bool:
    """Whether meeple ships the text of the rule ``rule_id``."""
    return rule_id in by_id()
