"""``python manage.py running_bench``: the seating's repeats and time, the standings' queries and time.

1. Repeats: whole tournaments of 8 sessions seated in memory (``seating_simulate``: session 1
   at random, each later session from the standings of made-up results) for 16, 64 and 512
   players: the pairs that meet again in each session, the pairs that meet three times or
   more, the standing spread at the tables against its minimum, and the seating's time.
2. The database: a tournament of 512 players in a throwaway database (in memory on SQLite,
   ``test_<name>_running_bench`` on PostgreSQL, dropped at the end; your own database is not
   touched). Eight sessions are seated by the real service (``session_seat``), their matches
   confirmed with made-up totals and the sessions closed; then the standings page is fetched
   (queries counted, server time: the median of several requests through the whole Django
   stack), and session 9 is seated (the service's time: reading the standings and the
   meetings, drawing, writing 128 tables).
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from collections import Counter

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases
from django.utils import translation

from tournament.core.tournaments import tournament_create
from tournament.models import Match, Registration, Session, Tournament
from tournament.organiser.services import players_import_csv
from tournament.seating.algorithm import pair, table_sizes
from tournament.seating.services import session_seat
from tournament.seating.simulation import seating_simulate, simulated_totals
from tournament.sessions.services import session_create
from tournament.standings.selectors import standings


class Command(BaseCommand):
    help = "Measure the seating (repeats over 8 sessions, time) and the standings (queries, time)."

    def add_arguments(self, parser):
        parser.add_argument("--sessions", type=int, default=8, help="Sessions played (8).")
        parser.add_argument("--players", type=int, default=512,
                            help="Players of the database tournament (512).")
        parser.add_argument("--sizes", default="16,64,512",
                            help="Head counts of the in-memory repeats runs (16,64,512).")
        parser.add_argument("--requests", type=int, default=7,
                            help="Standings requests timed; the median is reported (7).")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--skip-database", action="store_true",
                            help="Only the in-memory repeats runs.")

    def handle(self, *args, sessions, players, sizes, requests, seed, skip_database, **options):
        with translation.override("en"):
            self.repeats(sizes=[int(size) for size in sizes.split(",")], sessions=sessions,
                         seed=seed)
            if not skip_database:
                self.database(players=players, sessions=sessions, requests=requests, seed=seed)

    # --- 1. in memory ----------------------------------------------------------------------

    def repeats(self, *, sizes: list[int], sessions: int, seed: int) -> None:
        out = self.stdout
        out.write(f"Seating, {sessions} sessions in memory (seed {seed}): pairs meeting again")
        out.write("  players  per session                          total  3rd+  spread/min  "
                  "time (all)  slowest")
        for size in sizes:
            figures, meetings = seating_simulate_with_meetings(players=size, sessions=sessions,
                                                              seed=seed)
            per_session = " ".join(f"{figure.repeat_pairs:>3}" for figure in figures)
            minimum = sum(size_ - 1 for size_ in table_sizes(size)) * (sessions - 1)
            spread = sum(figure.spread for figure in figures)
            third = sum(1 for times in meetings.values() if times >= 3)
            seconds = sum(figure.seconds for figure in figures)
            slowest = max(figure.seconds for figure in figures)
            out.write(
                f"  {size:>7}  {per_session:<36} {sum(f.repeat_pairs for f in figures):>5}  "
                f"{third:>4}  {spread:>5}/{minimum:<5} {seconds:>8.3f} s  {slowest:.3f} s"
            )
        out.write("  (total: pairs seated together who had met before, summed over sessions; "
                  "3rd+: pairs that met three times or more; spread: the sum over tables of "
                  "the rank of a table's last player minus its leader's, against the least "
                  "possible)")

    # --- 2. in a throwaway database ---------------------------------------------------------

    def database(self, *, players: int, sessions: int, requests: int, seed: int) -> None:
        out = self.stdout
        if connection.vendor != "sqlite":
            # A name of its own, so a test run on the same server is never disturbed.
            connection.settings_dict.setdefault("TEST", {})["NAME"] = (
                f"test_{connection.settings_dict['NAME']}_running_bench"
            )
        old_config = setup_databases(verbosity=0, interactive=False)
        try:
            vendor = connection.vendor
            started = time.perf_counter()
            tournament = build_tournament(players=players, sessions=sessions, seed=seed)
            out.write(f"\nDatabase ({vendor}, throwaway): {players} players, {sessions} sessions "
                      f"seated by the service and confirmed in "
                      f"{time.perf_counter() - started:.1f} s")

            result = standings(tournament=tournament)
            assert result.confirmed_matches == sessions * len(table_sizes(players))
            host = next((h for h in settings.ALLOWED_HOSTS if h not in ("*", "")), "localhost")
            client = Client(HTTP_HOST=host.lstrip("."))
            url = f"/t/{tournament.slug}/standings/"
            count, timings, cpu, size = timed_get(client, url, requests=requests)
            selector = []
            for _request in range(requests):
                begun = time.perf_counter()
                standings(tournament=tournament)
                selector.append(time.perf_counter() - begun)
            out.write(
                f"  standings page {url}: {count} queries, server time {ms(timings)} "
                f"(CPU {ms(cpu)}; medians of {requests}, wall min {ms([min(timings)])}, max "
                f"{ms([max(timings)])}); of which the selector {ms(selector)}; "
                f"{size // 1024} KiB of HTML"
            )

            session = session_create(tournament=tournament, seed=seed + sessions + 1)
            begun, begun_cpu = time.perf_counter(), time.process_time()
            seating = session_seat(session=session)
            seconds, cpu_seconds = time.perf_counter() - begun, time.process_time() - begun_cpu
            out.write(
                f"  seating session {session.number} ({players} players, "
                f"{len(seating.tables)} tables) with the service: {seconds:.2f} s "
                f"(CPU {cpu_seconds:.2f} s); pairs meeting again: {seating.repeat_pairs}"
            )
            Session.objects.filter(pk=session.pk).update(status=Session.Status.PLAYING)
            player = Registration.objects.filter(tournament=tournament).first().player_id
            for url in (f"/t/{tournament.slug}/sessions/{session.number}/",
                        f"/t/{tournament.slug}/players/{player}/"):
                count, timings, cpu, size = timed_get(client, url, requests=requests)
                out.write(
                    f"  {url} (session {session.number} in play): {count} queries, server "
                    f"time {ms(timings)} (CPU {ms(cpu)}); {size // 1024} KiB of HTML"
                )
        finally:
            teardown_databases(old_config, verbosity=0)


def timed_get(client: Client, url: str, *, requests: int) -> tuple[int, list[float], list[float], int]:
    """GET ``url`` ``requests`` times after a warm-up: the queries of the last request, the
    wall times, the CPU times (this process's: less sensitive to a busy machine; on SQLite
    the database's work is in it too), and the response's size."""
    client.get(url)  # warm up: templates, translations
    timings = []
    cpu = []
    for _request in range(requests):
        with CaptureQueriesContext(connection) as queries:
            begun, begun_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            timings.append(time.perf_counter() - begun)
            cpu.append(time.process_time() - begun_cpu)
        assert response.status_code == 200, (url, response.status_code)
    return len(queries.captured_queries), timings, cpu, len(response.content)


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f} ms"


def seating_simulate_with_meetings(*, players: int, sessions: int, seed: int):
    """``seating_simulate``'s figures, and how many times each pair met over the sessions."""
    tables_seen: list[tuple[int, ...]] = []
    figures = seating_simulate(players=players, sessions=sessions, seed=seed,
                               on_tables=tables_seen.extend)
    meetings: Counter = Counter()
    for table in tables_seen:
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                meetings[pair(first, second)] += 1
    return figures, meetings


def build_tournament(*, players: int, sessions: int, seed: int) -> Tournament:
    """A tournament of ``players`` players (registered by the CSV import) and ``sessions``
    closed sessions, seated by the real service, every match confirmed with made-up totals."""
    rng = random.Random(seed)
    tournament = tournament_create(
        name=f"Benchmark {players}", slug=f"bench-{players}", start_date=datetime.date(2025, 6, 1)
    )
    players_import_csv(tournament=tournament, text="\n".join(
        f"Player {number:04d},Club {number % 24:02d}" for number in range(1, players + 1)
    ))
    for number in range(1, sessions + 1):
        session = session_create(tournament=tournament, seed=seed * 100 + number)
        session_seat(session=session)
        matches = list(
            Match.objects.filter(table__session=session).prefetch_related("table__seats")
        )
        for match in matches:
            totals = simulated_totals(len(match.table.seats.all()), rng)
            top = max(totals)
            match.totals = list(totals)
            match.winners = [seat for seat, total in enumerate(totals) if total == top]
            match.status = Match.Status.CONFIRMED
        Match.objects.bulk_update(matches, ["totals", "winners", "status"])
        Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED)
    return tournament
