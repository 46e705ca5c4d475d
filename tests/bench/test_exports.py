"""The downloads' benchmark compares like with like: the CSV the standings page writes from
its rows is, byte for byte, the CSV django-tables2's ``as_values()`` wrote before."""

from __future__ import annotations

from django.utils import translation

from bench.management.commands.bench_exports import csv_through_as_values, made_up_rows
from tournament.standings.ranking import CRITERIA
from tournament.standings.tables import standings_csv


def test_the_csv_written_from_the_rows_is_the_csv_of_as_values():
    rows = made_up_rows(players=120, sessions=2, seed=0)
    criteria = list(CRITERIA)
    with translation.override("en"):
        after = standings_csv(rows=rows, criteria=criteria)
        assert after == csv_through_as_values(rows, criteria)
    assert len(after.splitlines()) == 121  # the header and every player
    assert any(row["withdrawn"] for row in rows)  # the status column is compared too (101)
