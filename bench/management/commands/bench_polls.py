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

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client

from bench.harness import Fetched, build_tournament, throwaway_database, timed_get
from tournament import engine
from tournament.core import freshness
from tournament.core.tournaments import staff_role_grant
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
        with throwaway_database("bench_polls"):
            self.measure(players=players, sessions=sessions, requests=requests)

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
            made: list[Fetched] = []
            for _ in range(requests):
                freshness.touch(tournament_id=tournament.pk)  # a write: the copy is made again
                made.append(_poll(url))
            kept = [_poll(url) for _ in range(requests)]
            etag = kept[-1].response["ETag"]
            unchanged = [_poll(url, statuses=(304,), HTTP_IF_NONE_MATCH=etag)
                         for _ in range(requests)]
            m, k, u = (statistics.median(poll.timings.cpu[0] for poll in polls) * 1000
                       for polls in (made, kept, unchanged))
            queries = f"{made[-1].queries}/{kept[-1].queries}/{unchanged[-1].queries}"
            self.stdout.write(
                f"{name:<10} {m:>7.1f}ms {k:>7.2f}ms {u:>7.2f}ms {queries:>22} {m / u:>8.0f}x")


def _poll(url: str, *, statuses: tuple[int, ...] = (200,), **headers) -> Fetched:
    """One phone's poll (a client of its own, as htmx asks, gzip accepted), timed."""
    return timed_get(Client(), url, statuses=statuses, **HTMX, **headers)


def _referee(tournament):
    user = get_user_model().objects.create_user("bench-polls-referee")
    staff_role_grant(tournament=tournament, user=user, role="referee")
    return user
