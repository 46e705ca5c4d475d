"""Node.js for the tablet's scripts' tests: a prerequisite of the suite, as Python is
(README.md). A test that needs it fails when it is missing, never skips: the scripts that
carry "never lost" offline are held as the engine is."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def node() -> str:
    """The ``node`` command, or the test fails saying how to install it."""
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is not installed: the suite needs it (README.md, Tests; "
                    "Debian 12: apt install nodejs npm), then `npm ci` in the clone.")
    return found


def eslint() -> list[str]:
    """ESLint as `npm ci` installed it from package-lock.json, or the test fails."""
    script = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
    if not script.exists():
        pytest.fail("ESLint is not installed in node_modules/: run `npm ci` in the clone "
                    "(README.md, Tests).")
    return [node(), str(script)]


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=kwargs.pop("cwd", ROOT), capture_output=True, text=True,
                          timeout=kwargs.pop("timeout", 300), **kwargs)
