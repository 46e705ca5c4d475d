"""The default setup (SQLite) never answers "database is locked" to referees saving at once:
several writers on a file database (the one a laptop's event runs on), through the real views,
find no 500 (``bench/sqlite_writers.py``; before the settings' SQLite options it counted 41
of 65 answers as 500s)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_sqlite_default_waits_its_turn_to_write():
    options = settings.SQLITE_OPTIONS
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 10
    assert "journal_mode=WAL" in options["init_command"]


@pytest.mark.slow
def test_several_referees_saving_at_once_on_sqlite_get_no_500():
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    run = subprocess.run(
        [sys.executable, "-m", "bench.sqlite_writers", "--writers", "6", "--turns", "8"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**environment, "PYTHONPATH": str(ROOT), "TRIOMINOS_PRODUCTION": "0"},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # every save and confirmation went through: none lost (500), none refused after a loss
    answers = re.search(r"answers \{(.*?)\}", run.stdout)
    assert answers and answers.group(1).startswith("200: ") and "," not in answers.group(1), \
        run.stdout
