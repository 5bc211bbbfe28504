"""Names a module gives from other modules, loaded when first used (PEP 562's module
``__getattr__``): a command that never asks for them never imports those modules."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_names(owner: str, where: dict[str, str], namespace: dict[str, Any]
               ) -> Callable[[str], object]:
    """The ``__getattr__`` of module ``owner``: a name of ``where`` is imported from the module
    it maps to and kept in ``namespace`` (the owner's ``globals()``), so it is loaded once."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {owner!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
