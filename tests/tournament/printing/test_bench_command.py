"""The benchmark command runs (small sizes) and reports every document; figures not checked."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db(transaction=True)
def test_bench_printing_reports_every_document(tmp_path):
    out = io.StringIO()
    call_command("bench_printing", tables=2, players=8, sessions=1, repeat=1, out=tmp_path,
                 stdout=out)
    report = out.getvalue()
    for label in ("blank score sheets, 2 tables", "seating, 8 players", "standings, 8 players",
                  "match sheet"):
        assert label in report, report
    assert "2 pages" in report
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "match-sheet.pdf", "score-sheets.pdf", "seating.pdf", "standings.pdf"
    ]
