"""The rules text meeple ships, by rule id (RULES.md's SW-, CL- and docs/guide/remote.md's RM- ids),
and the text an installed edition gives of its own (``Edition.rulebook``).

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

#: the most of an edition's rulebook text read
MAX_RULEBOOK = 1 << 20
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
    """Every group of rules shipped, in their ``order``, then those of the other editions
    installed (``Edition.rulebook``), by name."""
    shipped = _shipped()
    return (*shipped, *_editions_groups({r.id for g in shipped for r in g.rules}))


@functools.cache
def _shipped() -> tuple[Group, ...]:
    found = []
    for entry in resources.files(__name__).iterdir():
        if not entry.name.endswith(".toml"):
            continue
        found.append(_group(tomllib.loads(entry.read_text(encoding="utf-8"))))
    return tuple(group for _, group in sorted(found, key=lambda pair: pair[0]))


def _group(data: dict) -> tuple[int, Group]:
    rules = tuple(Rule(r["id"], r["title"], _unwrapped(r["text"])) for r in data["rule"])
    return data["order"], Group(data["group"], _unwrapped(data["intro"]), rules)


def _editions_groups(taken: set[str]) -> list[Group]:
    """The rules of each installed edition that gives its own text, read as hostile: an
    edition that cannot be loaded, or text that is not a rulebook in this form, is left out;
    control characters are escaped; no id shipped or given before is replaced."""
    from meeple.engine import BUILT_IN, RulesError, edition_named, installed
    from meeple.events.text import escaped

    found = []
    for name in installed():
        if name in BUILT_IN:
            continue
        try:
            text = edition_named(name).rulebook()
            if text is None:
                continue
            _, group = _group(tomllib.loads(text[:MAX_RULEBOOK]))
        except (RulesError, tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError,
                ValueError):
            continue
        rules = tuple(Rule(r.id, escaped(r.title), escaped(r.text, newlines=True))
                      for r in group.rules if RULE_ID.fullmatch(r.id) and r.id not in taken)
        taken.update(r.id for r in rules)
        found.append(Group(escaped(group.name), escaped(group.intro, newlines=True), rules))
    return found


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
    """Whether meeple has the text of the rule ``rule_id`` (its own, else an edition's)."""
    return any(rule.id == rule_id for group in _shipped() for rule in group.rules) \
        or rule_id in by_id()
