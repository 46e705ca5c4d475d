"""``python manage.py bench_running``: the seating's repeats and time, the standings' queries and time.

1. Repeats: whole tournaments of 8 sessions seated in memory (``seating_simulate``: session 1
   at random, each later session from the standings of made-up results) for 16, 64 and 512
   players: the pairs that meet again in each session, the pairs that meet three times or
   more, the standing spread at the tables against its minimum, and the seating's time.
2. The database: a tournament of 512 players in a throwaway database (in memory on SQLite,
   ``test_<name>_bench_running`` on PostgreSQL, dropped at the end; your own database is not
   touched). Eight sessions are seated by the real service (``session_seat``), their matches
   confirmed with made-up totals and the sessions closed; then the standings page is fetched
   (queries counted, server time: the median of several requests through the whole Django
   stack), and session 9 is seated (the service's time: reading the standings and the
   meetings, drawing, writing 128 tables).
"""

from __future__ import annotations

from collections import Counter

from django.core.management.base import BaseCommand
from django.db import connection
from django.utils import translation

from bench.harness import (
    bench_client,
    build_tournament,
    ms,
    throwaway_database,
    time_runs,
    timed,
    timed_get,
)
from tournament.models import Registration, Session
from tournament.seating.algorithm import pair, table_sizes
from tournament.seating.services import session_seat
from tournament.seating.simulation import seating_simulate
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
        with throwaway_database("bench_running"):
            built = timed(lambda: build_tournament(players=players, sessions=sessions, seed=seed))
            tournament = built.result
            out.write(f"\nDatabase ({connection.vendor}, throwaway): {players} players, "
                      f"{sessions} sessions seated by the service and confirmed in "
                      f"{built.wall:.1f} s")

            result = standings(tournament=tournament)
            assert result.confirmed_matches == sessions * len(table_sizes(players))
            client = bench_client()
            url = f"/t/{tournament.slug}/standings/"
            page = timed_get(client, url, requests=requests, warm_up=True)
            selector, _rows = time_runs(lambda: standings(tournament=tournament), repeat=requests)
            out.write(
                f"  standings page {url}: {page.queries} queries, server time "
                f"{ms(page.timings.wall)} (CPU {ms(page.timings.cpu)}; medians of {requests}, "
                f"wall min {ms([min(page.timings.wall)])}, max {ms([max(page.timings.wall)])}); "
                f"of which the selector {ms(selector.wall)}; {page.size // 1024} KiB of HTML"
            )

            session = session_create(tournament=tournament, seed=seed + sessions + 1)
            seated = timed(lambda: session_seat(session=session))
            out.write(
                f"  seating session {session.number} ({players} players, "
                f"{len(seated.result.tables)} tables) with the service: {seated.wall:.2f} s "
                f"(CPU {seated.cpu:.2f} s); pairs meeting again: {seated.result.repeat_pairs}"
            )
            Session.objects.filter(pk=session.pk).update(status=Session.Status.PLAYING)
            player = Registration.objects.filter(tournament=tournament).first().player_id
            for url in (f"/t/{tournament.slug}/sessions/{session.number}/",
                        f"/t/{tournament.slug}/players/{player}/"):
                page = timed_get(client, url, requests=requests, warm_up=True)
                out.write(
                    f"  {url} (session {session.number} in play): {page.queries} queries, "
                    f"server time {ms(page.timings.wall)} (CPU {ms(page.timings.cpu)}); "
                    f"{page.size // 1024} KiB of HTML"
                )


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

