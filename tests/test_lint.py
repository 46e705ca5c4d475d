"""The code passes the project's linters (ruff; ESLint for the tablet's scripts, configured in
eslint.config.js), keeps its layers (import-linter) and its types (mypy), configured in
pyproject.toml (docs/development/architecture.md, docs/development/contributing.md)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.node import eslint

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache",
         "tournament", "scoring", "bench", "tests"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_finds_nothing():
    """The browser's scripts and their tests pass ESLint (installed by `npm ci`: without it,
    or without Node.js, this fails, it never skips)."""
    result = subprocess.run([*eslint(), "--max-warnings", "0"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_refuses_a_script_with_a_mistake():
    """The check can fail: a script of the tablet's that reads a name it never declared, or
    compares with ``==``, is refused."""
    probe = ('(function () {\n  "use strict";\n  if (answer == 1) { window.x = 1; }\n})();\n')
    result = subprocess.run(
        [*eslint(), "--stdin", "--stdin-filename", "tournament/static/tournament/probe.js"],
        input=probe, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "'answer' is not defined" in result.stdout
    assert "eqeqeq" in result.stdout


def lint_imports(root: Path = ROOT) -> subprocess.CompletedProcess:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    return subprocess.run([command, "--no-cache", str(root / "pyproject.toml")], cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_every_package_imports_only_downward():
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 broken." in result.stdout


def test_an_upward_import_or_a_circle_breaks_the_contracts(tmp_path):
    """The contracts can fail: in a copy of the code, a core module importing a feature, the
    engine importing Django, two modules of a package importing each other (even for their
    type hints only, as the replayed match's two halves once did), a step of a match's
    reading importing a later one, the kit importing a model and a feature importing the
    engine past ``tournament.engine`` are all refused."""
    skip = shutil.ignore_patterns("__pycache__", "static", "migrations")
    for package in ("tournament", "scoring", "bench"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tournament" / "migrations").mkdir()
    (tmp_path / "tournament" / "migrations" / "__init__.py").write_text("")
    (tmp_path / "tournament" / "core" / "probe.py").write_text(
        "from tournament.matches.reading import rows  # noqa: F401\n")
    (tmp_path / "scoring" / "probe.py").write_text("import django  # noqa: F401\n")
    (tmp_path / "tournament" / "kit" / "probe.py").write_text(
        "from tournament.models import Tournament  # noqa: F401\n")
    (tmp_path / "tournament" / "standings" / "probe.py").write_text(
        "import scoring  # noqa: F401\n")
    circle = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from tournament.matches import {}\n"
    (tmp_path / "tournament" / "matches" / "probe_one.py").write_text(circle.format("probe_two"))
    (tmp_path / "tournament" / "matches" / "probe_two.py").write_text(circle.format("probe_one"))
    with (tmp_path / "tournament" / "matches" / "reading" / "rows.py").open("a") as rows:
        rows.write("from tournament.matches.reading import replay  # noqa: E402, F401\n")
    result = lint_imports(tmp_path)
    assert result.returncode != 0
    assert "tournament.core is not allowed to import tournament.matches" in result.stdout
    assert "scoring.probe -> django" in result.stdout
    assert "tournament.kit.probe -> tournament.models" in result.stdout
    assert "tournament.standings.probe -> scoring" in result.stdout
    assert "No cycles are allowed in tournament.matches.\n" in result.stdout
    assert ".probe_one -> .probe_two" in result.stdout or ".probe_two -> .probe_one" in result.stdout
    assert "- tournament.matches.reading.rows -> tournament.matches.reading.replay (l." in (
        result.stdout)


def test_every_module_over_500_lines_says_why_in_the_architecture():
    """One concept per module; a module over 500 lines is listed in docs/development/architecture.md with
    its reason (the migrations aside), and the list names no module that no longer is."""
    text = (ROOT / "docs" / "development" / "architecture.md").read_text(encoding="utf-8")
    listed = text[text.index("The modules over 500 lines"):]
    listed = listed[:listed.index("\n#")]
    long = []
    for package in ("tournament", "scoring", "bench"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            with path.open(encoding="utf-8") as lines:
                if sum(1 for _ in lines) > 500:
                    long.append(path.relative_to(ROOT).as_posix())
    rows = re.findall(r"^\| `((?:tournament|scoring|bench)/[\w/]+\.py)` \|", listed, re.M)
    assert sorted(rows) == sorted(long)


def mypy(root: Path = ROOT) -> subprocess.CompletedProcess:
    """``mypy`` as pyproject.toml configures it: the files it names, strictly."""
    return subprocess.run([sys.executable, "-m", "mypy"], cwd=root,
                          capture_output=True, text=True, timeout=600)


def test_mypy_finds_nothing():
    result = mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def test_a_badly_typed_module_fails_the_type_check(tmp_path):
    """The check can fail, and is strict: in a copy of the code, a function without
    annotations in the engine and one returning the wrong type in a checked module of the app
    are both reported."""
    skip = shutil.ignore_patterns("__pycache__", "static", "migrations")
    for package in ("scoring", "tournament"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "scoring" / "probe.py").write_text(
        "def double(value):\n"
        "    return value * 2\n"
    )
    with (tmp_path / "tournament" / "engine.py").open("a", encoding="utf-8") as engine:
        engine.write("\n\ndef half(value: int) -> int:\n    return value / 2\n")
    result = mypy(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "scoring/probe.py:1: error: Function is missing a type annotation" in result.stdout
    assert re.search(r'tournament/engine\.py:\d+: error: Incompatible return value type '
                     r'\(got "float", expected "int"\)', result.stdout), result.stdout
    assert "Found 2 errors in 2 files" in result.stdout
