"""``python manage.py bench_polls``: the server's CPU time of a public page and its poll, made,
kept, and unchanged (304), at 512 players.

In a throwaway database (in memory on SQLite; ``test_<name>_bench_polls`` on PostgreSQL,
dropped at the end), builds ``--players`` players over ``--sessions`` closed sessions with
made-up results and one more session in play with a turn at every table, then asks each
public page (standings, session, player, match) through the whole Django stack
(``django.test.Client``: middleware, compression, the kept copies in the database cache) as
the room's phones do: the fragment made after a write (the first phone), the same fragment
for another phone (the kept copy, 200), and the poll of a phone that has it already (304).
Each figure is the median CPU time (``time.process_time``) over ``--requests`` requests; the
ratio to the made fragment is in the same run.
"""

from __future__ import annotations

import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases

from tournament import engine
from tournament.core import freshness
from tournament.core.tournaments import staff_role_grant
from tournament.management.commands.running_bench import build_tournament
from tournament.matches import services as match_services
from tournament.matches.records import match_rows, match_with_tournament
from tournament.models import Match
from tournament.seating.services import session_seat
from tournament.sessions.services import session_create, session_start

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_ENCODING": "gzip"}


class Command(BaseCommand):
    help = "CPU time of the public pages' polls: made, kept, unchanged (304)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=512)
        parser.add_argument("--sessions", type=int, default=8)
        parser.add_argument("--requests", type=int, default=15)

    def handle(self, *args, players, sessions, requests, **options):
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        test_settings = connection.settings_dict.setdefault("TEST", {})
        test_name = test_settings.get("NAME")
        if connection.vendor != "sqlite":
            # A name of its own, so that a test run on the same server is never disturbed.
            test_settings["NAME"] = f"test_{connection.settings_dict['NAME']}_bench_polls"
        old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            self.measure(players=players, sessions=sessions, requests=requests)
        finally:
            teardown_databases(old, verbosity=0)
            test_settings["NAME"] = test_name

    def measure(self, *, players: int, sessions: int, requests: int) -> None:
        tournament = build_tournament(players=players, sessions=sessions, seed=1)
        session = session_create(tournament=tournament, seed=sessions + 1)
        session_seat(session=session)
        session_start(session=session)
        match = Match.objects.filter(table__session=session).order_by("table__number").first()
        referee = _referee(tournament)
        record = engine.simulated_match_record(
            names=match_rows(match=match).names, seed=1, rules=tournament.rules)
        match_services.match_record_import(match=match_with_tournament(
            match.pk).get(), user=referee, seen_revision=0, record=record)
        player = match.table.seats.order_by("order").first().player_id
        slug = tournament.slug
        pages = {
            "standings": f"/t/{slug}/standings/",
            "session": f"/t/{slug}/sessions/{session.number}/",
            "player": f"/t/{slug}/players/{player}/",
            "match": f"/t/{slug}/matches/{match.pk}/",
        }
        self.stdout.write(
            f"{players} players, {sessions} sessions closed, session {session.number} in play "
            f"({session.tables.count()} tables), {connection.vendor}; CPU per request, median "
            f"of {requests} (time.process_time), through the whole Django stack:")
        self.stdout.write(f"{'page':<10} {'made':>9} {'kept 200':>9} {'304':>9} "
                          f"{'queries made/kept/304':>22} {'made/304':>9}")
        for name, url in pages.items():
            made, made_queries = [], 0
            for _ in range(requests):
                freshness.touch(tournament_id=tournament.pk)  # a write: the copy is made again
                cpu, made_queries, _response = _timed(Client(), url)
                made.append(cpu)
            kept = []
            for _ in range(requests):
                cpu, kept_queries, response = _timed(Client(), url)
                kept.append(cpu)
            etag = response["ETag"]
            unchanged = []
            for _ in range(requests):
                cpu, unchanged_queries, response = _timed(Client(), url, HTTP_IF_NONE_MATCH=etag)
                assert response.status_code == 304
                unchanged.append(cpu)
            m, k, u = (statistics.median(values) * 1000 for values in (made, kept, unchanged))
            self.stdout.write(
                f"{name:<10} {m:>7.1f}ms {k:>7.2f}ms {u:>7.2f}ms "
                f"{f'{made_queries}/{kept_queries}/{unchanged_queries}':>22} {m / u:>8.0f}x")


def _timed(client: Client, url: str, **headers) -> tuple[float, int, object]:
    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        response = client.get(url, **HTMX, **headers)
        cpu = time.process_time() - start
    assert response.status_code in (200, 304), (url, response.status_code)
    return cpu, len(queries), response


def _referee(tournament):
    from django.contrib.auth import get_user_model


    user = get_user_model().objects.create_user("bench-polls-referee")
    staff_role_grant(tournament=tournament, user=user, role="referee")
    return user
