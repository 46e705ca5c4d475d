"""The ``>>>`` examples of the engine's docstrings run, and pass."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import scoring

PACKAGE = Path(scoring.__file__).parent


def module_name(path: Path) -> str:
    """``scoring/benchmarks/engine.py`` -> ``scoring.benchmarks.engine``; a package's
    ``__init__.py`` is the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(module_name(path) for path in PACKAGE.rglob("*.py") if path.stem != "__main__")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name not in ("scoring.cli", "scoring.benchmarks"):
        assert result.attempted > 0, f"{name} has no example"
