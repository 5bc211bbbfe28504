"""Run the ``>>>`` examples in every meeple module's docstrings."""

import doctest
import importlib
import pkgutil

import pytest

import meeple.cli
import meeple.engine
import meeple.events

MODULES = sorted(
    info.name
    for package in (meeple.events, meeple.engine, meeple.cli)
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + ".")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_some_modules_have_examples():
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for n in MODULES for t in finder.find(importlib.import_module(n)))
    assert examples >= 5
