"""``python manage.py bench_federation``: what one turn saved and one poll cost the app server
and PostgreSQL, each apart, for sizing a site of several app servers.

In a throwaway database on PostgreSQL (``test_<name>_bench_federation``, dropped at the end),
a match of four is started and ``--saves`` consecutive turns of a simulated match are saved
through the entry screen's address, as a tablet saves them; then ``--polls`` polls of the
match's live part are asked as the phones ask: a 304 (a phone that has it), a kept copy (a
phone that has not). For each kind: the app's CPU per request (``time.process_time``: this
process, the whole Django stack, the cache's client), the queries per request, and
PostgreSQL's own CPU per request: the CPU time of the server process serving this process's
connection (``pg_backend_pid()``, read from ``/proc/<pid>/stat``: PostgreSQL on this machine),
over all the requests of a kind, divided by their number (the kernel counts in 10 ms ticks:
hence many requests). The shared cache is the settings' (the database cache; Redis with
``TRIOMINOS_CACHE_URL``): on the database cache, a kept copy's read is PostgreSQL's work too.
"""

from __future__ import annotations

import datetime
import os
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.harness import POLL_HEADERS, bench_client, posted_turn, started_match, throwaway_site
from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.models import StaffRole

TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu(pid: int) -> float:
    """The CPU seconds (user and system) of the PostgreSQL server process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Command(BaseCommand):
    help = "App and PostgreSQL CPU, and queries, per turn saved and per poll."

    def add_arguments(self, parser):
        parser.add_argument("--saves", type=int, default=200)
        parser.add_argument("--polls", type=int, default=1000)

    def handle(self, *args, saves, polls, **options):
        if connection.vendor != "postgresql":
            raise CommandError("PostgreSQL only: set DATABASE_URL=postgres://...")
        with throwaway_site("bench_federation"):
            self.measure(saves=saves, polls=polls)

    def measure(self, *, saves: int, polls: int) -> None:
        referee = get_user_model().objects.create_user("bench-federation-referee")
        tournament = tournament_create(name="Bench federation", slug="bench-federation",
                                       start_date=datetime.date(2025, 5, 17), target=4000)
        staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
        # the first round's turns of a simulated match, match after match: no round's end
        per_match = None
        matches: list[tuple[dict, list[dict], dict]] = []
        while per_match is None or len(matches) * per_match < saves:
            match, names = started_match(tournament, label=f"Federation {len(matches)}")
            record = engine.simulated_match_record(names=names, seed=3, target=4000)
            turns = record["rounds"][0]["turns"][:-1]
            per_match = len(turns)
            matches.append(({"slug": tournament.slug, "match_id": match.pk}, turns,
                            {"revision": match.revision}))
        kwargs = matches[0][0]
        tablet = bench_client()
        tablet.force_login(referee)
        poll_url = reverse("tournament:match_live", kwargs=kwargs)
        cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
        self.stdout.write(f"PostgreSQL, cache {cache}; per request, the mean over the run:")
        self.stdout.write(f"{'request':<16} {'n':>5} {'app CPU':>9} {'PG CPU':>9} "
                          f"{'queries':>8}")

        def run(kind: str, count: int, request) -> None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid = cursor.fetchone()[0]
            pg_before, app_before = backend_cpu(pid), time.process_time()
            queries = 0
            for number in range(count):
                with CaptureQueriesContext(connection) as captured:
                    request(number)
                queries += len(captured.captured_queries)
            app, pg = time.process_time() - app_before, backend_cpu(pid) - pg_before
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                if cursor.fetchone()[0] != pid:
                    raise CommandError("the connection changed during the run")
            self.stdout.write(f"{kind:<16} {count:>5} {app / count * 1000:>7.2f}ms "
                              f"{pg / count * 1000:>7.2f}ms {queries / count:>8.1f}")

        def save(number: int) -> None:
            address, turns, shown = matches[number // per_match]
            revision = str(shown["revision"])  # as the tablet has it: its last answer's
            data = {**posted_turn(turns[number % per_match]), "revision": revision}
            answer = tablet.post(reverse("tournament:match_turn_add", kwargs=address), data,
                                 HTTP_HX_REQUEST="true", HTTP_X_MATCH_SHOWN=revision)
            if answer.get("X-Submission") != "saved":
                raise CommandError(f"save {number + 1}: {answer.status_code}")
            shown["revision"] = int(answer["X-Match-Revision"])

        run("save", saves, save)
        phone = bench_client()
        etag = phone.get(poll_url, **POLL_HEADERS)["ETag"]

        def unchanged(_number: int) -> None:
            if phone.get(poll_url, HTTP_IF_NONE_MATCH=etag, **POLL_HEADERS).status_code != 304:
                raise CommandError("the poll was not a 304")

        def kept(_number: int) -> None:
            if bench_client().get(poll_url, **POLL_HEADERS).status_code != 200:
                raise CommandError("the kept copy was not a 200")

        run("poll, 304", polls, unchanged)
        run("poll, kept 200", polls, kept)
