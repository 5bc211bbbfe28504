"""The house rules of the code base (docs/reference/python-api.md, "The code's layout"):
modules hold one idea each and stay
under 500 lines, and the type checker is overruled in at most ten places."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
SOURCES = sorted(p for folder in ("cli", "engine", "events", "fixtures", "tests")
                 for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_is_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in SOURCES
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert SOURCES and not long


def test_at_most_ten_type_ignores_in_the_package():
    marks = [f"{p.relative_to(ROOT)}:{i}" for p in SOURCES if p.parts[len(ROOT.parts)] != "tests"
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "type: ignore" in line]
    assert len(marks) <= 10, marks


#: a bundled edition's name or rule id, as shared code must not hold it
EDITION_WORDS = re.compile(r"star.?wars|classic|fiesta|\b(SW|CL)-\d", re.IGNORECASE)
#: the editions' own modules
EDITIONS_OWN = {"engine/star_wars.py", "engine/classic.py"}
#: where shared code names a bundled edition in its code (not in a docstring or help text),
#: what it may name there and why (docs/editions.md, "Where shared code names an edition")
NAMING = {
    "engine/editions.py": ("star.?wars|classic|fiesta", "the registry of the bundled editions"),
    "cli/interop/": ("classic|fiesta", "JCloisterZone's and CarcassonneLab's formats hold "
                     "the classic game (and La Fiesta) only"),
    "cli/bench.py": ("classic|star.?wars", "the bench times fixed games of both editions"),
    "cli/bench_signed.py": ("classic", "the bench of remote games times a classic one"),
    "cli/relay/load.py": ("classic", "the relay's load test plays classic games"),
    "cli/bots/conformance.py": ("star.?wars|classic", "bot-check plays a game of each bundled "
                                "edition"),
    **{module: ("fiesta", "--fiesta, short for --expansion la-fiesta") for module in (
        "cli/options.py", "cli/params.py", "cli/commands/playing.py", "cli/commands/showing.py",
        "cli/bots/commands.py")},
}


def _named_in_code(path: Path) -> list[tuple[int, str]]:
    """What a module's code names of the editions: its strings (not its docstrings, nor the
    ``help=`` of an option), names, attributes and imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            prose.add(id(body[0].value))
        if isinstance(node, ast.keyword) and node.arg == "help":
            prose.update(id(part) for part in ast.walk(node.value))
    found = []
    for node in ast.walk(tree):
        match node:
            case ast.Constant(value=str(text)) if id(node) not in prose:
                pass
            case ast.Name(id=text) | ast.Attribute(attr=text) | ast.alias(name=text) \
                    | ast.ImportFrom(module=str(text)):
                pass
            case _:
                continue
        if EDITION_WORDS.search(text):
            found.append((node.lineno, text))
    return sorted(found)


def _allowed(module: str) -> str | None:
    return next((words for prefix, (words, _) in NAMING.items() if module.startswith(prefix)),
                None)


def test_shared_code_names_no_edition_outside_the_places_listed():
    shared = [p for folder in ("cli", "engine", "events") for p in (ROOT / folder).rglob("*.py")
              if str(p.relative_to(ROOT)) not in EDITIONS_OWN]
    assert len(shared) > 100
    wrong, used = [], set()
    for path in shared:
        module = str(path.relative_to(ROOT))
        words = _allowed(module)
        for line, text in _named_in_code(path):
            if words and re.search(words, text, re.IGNORECASE) \
                    and not re.search(r"\b(SW|CL)-\d", text):
                used.add(next(p for p in NAMING if module.startswith(p)))
            else:
                wrong.append(f"{module}:{line}: {text[:60]!r}")
    assert not wrong
    assert used == set(NAMING), f"listed but naming nothing now: {set(NAMING) - used}"


def test_the_check_of_edition_names_sees_a_name_a_rule_id_and_skips_prose(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""Star Wars (SW-3)."""\nimport typer\n'
                      'x = typer.Option(help="classic, CL-4")\nif kind == "star-wars": pass\n'
                      'rule = "CL-6"\nfrom meeple.engine.classic import Rules\n')
    assert _named_in_code(module) == [(4, "star-wars"), (5, "CL-6"), (6, "meeple.engine.classic")]
