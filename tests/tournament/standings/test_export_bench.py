"""The downloads' benchmark runs (small sizes), times every format and finds the CSV written
from the rows byte for byte the CSV django-tables2 wrote; figures not checked."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


def test_the_export_benchmark_reports_every_format():
    out = io.StringIO()
    call_command("standings_export_bench", players=21, sessions=2, repeat=1, stdout=out)
    report = out.getvalue()
    for label in ("csv (as_values)", "csv (rows)", "xlsx", "ods"):
        assert f"  {label} " in report, report
    assert "the two CSVs are the same (22 lines)" in report


@pytest.mark.django_db(transaction=True)
def test_the_export_benchmark_times_whole_requests():
    out = io.StringIO()
    call_command("standings_export_bench", players=12, sessions=1, repeat=1, database=True,
                 stdout=out)
    report = out.getvalue()
    for label in ("page (HTML)", "csv", "xlsx", "ods", "csv before (selector + as_values)"):
        assert f"  {label} " in report, report
