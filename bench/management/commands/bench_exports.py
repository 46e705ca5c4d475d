"""``python manage.py bench_exports``: what the standings' downloads cost, CPU time.

The standings of ``--players`` players (1,024) after ``--sessions`` sessions (8) of tables of
four with made-up totals are computed in memory (``standings_compute``, all six criteria; no
database: the selector's queries are the same whatever the format), then each download is
made from the same rows ``--repeat`` times (7) and its median CPU time (``time.process_time``)
shown, with its ratio to the CSV written from the rows:

- ``csv (as_values)``: the CSV as it was written before, through django-tables2's
  ``Table.as_values()`` (the table built and configured as the page does, then every cell
  through django-tables2's accessors);
- ``csv (rows)``: the CSV as the page writes it now, straight from the rows
  (``standings_csv``);
- ``xlsx`` and ``ods``: django-tables2's ``TableExport`` (tablib), as the page makes them.

``--database`` then builds the same number of players and sessions in a throwaway database
(``bench_running``'s tournament: seated by the service, every match confirmed; in memory on
SQLite, ``test_<name>_bench_exports`` on PostgreSQL, dropped at the end) and times
whole requests through Django's stack (CPU time of this process, medians): the standings page,
each download, and the CSV as it was made before (the selector, the table configured as the
page does, ``as_values()``).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import RequestFactory
from django.utils import translation
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from bench.harness import (
    bench_client,
    build_tournament,
    throwaway_database,
    time_runs,
    timed,
    timed_get,
)
from tournament.models import Tournament
from tournament.seating.simulation import simulated_totals
from tournament.standings.ranking import CRITERIA, MatchResult, StandingPlayer, standings_compute
from tournament.standings.selectors import standings
from tournament.standings.tables import StandingsTable, csv_cell, export_columns, standings_csv


def made_up_rows(*, players: int, sessions: int, seed: int) -> list[dict]:
    """The standings rows of ``players`` players after ``sessions`` sessions drawn at random
    (tables of four, the last ones of three), with a player URL as the selector adds."""
    rng = random.Random(seed)
    roster = [StandingPlayer(id=number, name=f"Joueur {number:04d}", club=f"Club {number % 37}",
                             withdrawn=number % 101 == 0) for number in range(1, players + 1)]
    results = []
    for _session in range(sessions):
        ids = [player.id for player in roster]
        rng.shuffle(ids)
        threes = (-len(ids)) % 4 if len(ids) % 4 else 0
        sizes = [4] * ((len(ids) - 3 * threes) // 4) + [3] * threes
        start = 0
        for size in sizes:
            table = tuple(ids[start:start + size])
            start += size
            results.append(MatchResult(table, simulated_totals(size, rng)))
    rows = standings_compute(players=roster, results=results, criteria=CRITERIA)
    for row in rows:
        row["url"] = f"/t/bench/players/{row['player_id']}/"
    return rows


def csv_through_as_values(rows: list[dict], criteria) -> str:
    """The CSV as the page wrote it before: django-tables2's ``as_values()`` (the same bytes
    as now: each value written as ``csv_cell`` writes it)."""
    table = StandingsTable.for_criteria(rows, criteria)
    RequestConfig(RequestFactory().get("/t/bench/standings/"), paginate=False).configure(table)
    names = [name for name, _header in export_columns(criteria)]
    text = io.StringIO()
    writer = csv.writer(text)
    values = iter(table.as_values())
    writer.writerow(next(values))
    for line in values:
        writer.writerow([csv_cell(name, value) for name, value in zip(names, line)])
    return text.getvalue()


def table_export(rows: list[dict], criteria, export_format: str) -> bytes:
    table = StandingsTable.for_criteria(rows, criteria)
    RequestConfig(RequestFactory().get("/t/bench/standings/"), paginate=False).configure(table)
    return TableExport(export_format, table).export()


class Command(BaseCommand):
    help = "Measure the standings' downloads (CSV before and after, XLSX, ODS): CPU time."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=1024, help="Players (1024).")
        parser.add_argument("--sessions", type=int, default=8, help="Sessions played (8).")
        parser.add_argument("--repeat", type=int, default=7,
                            help="Times each download is made; the median is shown (7).")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--database", action="store_true",
                            help="Also time whole requests on a throwaway database.")

    def handle(self, *args, players, sessions, repeat, seed, database, **options):
        with translation.override("en"):
            self.in_memory(players=players, sessions=sessions, repeat=repeat, seed=seed)
            if database:
                self.requests(players=players, sessions=sessions, repeat=repeat, seed=seed)

    def in_memory(self, *, players: int, sessions: int, repeat: int, seed: int) -> None:
        ranked = timed(lambda: made_up_rows(players=players, sessions=sessions, seed=seed))
        rows = ranked.result
        criteria = list(CRITERIA)
        self.stdout.write(
            f"Standings of {players} players after {sessions} sessions, all six criteria "
            f"(ranking in memory: {ranked.cpu * 1000:.0f} ms CPU); median CPU time of "
            f"{repeat} runs:"
        )
        downloads: list[tuple[str, Callable[[], object]]] = [
            ("csv (as_values)", lambda: csv_through_as_values(rows, criteria)),
            ("csv (rows)", lambda: standings_csv(rows=rows, criteria=criteria)),
            ("xlsx", lambda: table_export(rows, criteria, TableExport.XLSX)),
            ("ods", lambda: table_export(rows, criteria, TableExport.ODS)),
        ]
        medians = {}
        sizes = {}
        for label, make in downloads:
            timings, content = time_runs(make, repeat=repeat)
            medians[label] = timings.cpu_median
            sizes[label] = len(content)
        before = csv_through_as_values(rows, criteria)
        after = standings_csv(rows=rows, criteria=criteria)
        reference = medians["csv (rows)"] or 1e-9
        for label, seconds in medians.items():
            self.stdout.write(
                f"  {label:<16} {seconds * 1000:8.1f} ms  x{seconds / reference:6.1f}  "
                f"{sizes[label] / 1024:7.1f} KiB"
            )
        same = "the same" if before == after else "DIFFERENT"
        self.stdout.write(f"  the two CSVs are {same} ({len(after.splitlines())} lines)")

    def requests(self, *, players: int, sessions: int, repeat: int, seed: int) -> None:
        out = self.stdout
        with throwaway_database("bench_exports"):
            built = timed(lambda: build_tournament(players=players, sessions=sessions, seed=seed))
            tournament = built.result
            Tournament.objects.filter(pk=tournament.pk).update(ranking_criteria=list(CRITERIA))
            out.write(f"\nRequests ({connection.vendor}, throwaway database built in "
                      f"{built.wall:.0f} s), median CPU time of {repeat}:")
            client = bench_client()
            url = f"/t/{tournament.slug}/standings/"
            figures = {}
            for label, query in (("page (HTML)", ""), ("csv", "?_export=csv"),
                                 ("xlsx", "?_export=xlsx"), ("ods", "?_export=ods")):
                fetched = timed_get(client, url + query, requests=repeat, warm_up=True)
                figures[label] = fetched.timings.cpu_median

            def before() -> str:
                result = standings(tournament=Tournament.objects.get(pk=tournament.pk))
                return csv_through_as_values(result.rows, result.criteria)

            figures["csv before (selector + as_values)"] = time_runs(
                before, repeat=repeat)[0].cpu_median
            page = figures["page (HTML)"]
            for label, seconds in figures.items():
                out.write(f"  {label:<34} {seconds * 1000:8.1f} ms  x{seconds / page:5.2f} "
                          "the page")
