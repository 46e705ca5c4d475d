"""The ``>>>`` examples of the engine's docstrings run, and pass."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import scoring

MODULES = sorted(
    f"scoring.{path.stem}"
    for path in Path(scoring.__file__).parent.glob("*.py")
    if path.stem != "__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "scoring.cli":
        assert result.attempted > 0, f"{name} has no example"
