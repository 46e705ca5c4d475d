"""The engine is pure Python: no Django anywhere under scoring/, its benchmarks included."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import scoring

PACKAGE = Path(scoring.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    """``scoring/benchmarks/engine.py`` -> ``scoring.benchmarks.engine``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_importing_the_engine_loads_no_django_module() -> None:
    names = ", ".join(module_name(m) for m in MODULES if m.stem != "__main__")
    code = (
        f"import sys, {names}\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(len(loaded), loaded[:5])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent,
                            capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "0 []"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: str(m.relative_to(PACKAGE)))
def test_no_module_imports_django(module: Path) -> None:
    tree = ast.parse(module.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "django" for a in node.names), module
        elif isinstance(node, ast.ImportFrom):
            assert (node.module or "").split(".")[0] != "django", module
