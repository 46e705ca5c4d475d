"""The code passes the project's linter (ruff) and keeps its layers (import-linter), both
configured in pyproject.toml (docs/architecture.md)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache",
         "tournament", "scoring", "bench", "tests"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def lint_imports(root: Path = ROOT) -> subprocess.CompletedProcess:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    return subprocess.run([command, "--no-cache", str(root / "pyproject.toml")], cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_every_package_imports_only_downward():
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 broken." in result.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    """The contract can fail: in a copy of the code, a core module importing a feature and the
    engine importing Django are both refused."""
    skip = shutil.ignore_patterns("__pycache__", "static", "migrations")
    for package in ("tournament", "scoring", "bench"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tournament" / "migrations").mkdir()
    (tmp_path / "tournament" / "migrations" / "__init__.py").write_text("")
    (tmp_path / "tournament" / "core" / "probe.py").write_text(
        "from tournament.matches.reading import rows  # noqa: F401\n")
    (tmp_path / "scoring" / "probe.py").write_text("import django  # noqa: F401\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    assert "tournament.core is not allowed to import tournament.matches" in result.stdout
    assert "scoring.probe -> django" in result.stdout
