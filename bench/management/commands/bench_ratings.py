"""``python manage.py bench_ratings``: what the ratings cost, in the current database.

Builds ``--players`` players (1,000) and ``--matches`` confirmed matches (10,000) at tables of
2, 3 or 4, by bulk inserts (tournaments of ``--sessions-per-event`` sessions, each session
seating every player; each match its totals and a confirmation time, no turns), then measures:

- the per-confirmation cost at the start of the history: with only the first
  ``--start`` matches (100) confirmed, the refresh from the last of them
  (``ratings_refresh(since=...)``, what a confirmation runs), median of ``--repeat`` runs;
- ``ratings_rebuild()`` over the whole history: CPU time of this process
  (``time.process_time``) and wall time (with the database's own work);
- the per-confirmation cost at the end of the history: the refresh from the last match;
- the ratings page ``/ratings/`` for every player (Django's test client): its queries
  (``CaptureQueriesContext``), CPU and wall time, and the CSV download's;
- with every player registered in the tournaments they played and the tournaments grouped
  into one league: the league's page (its ranking ranks every tournament), and the career
  page of the player with the most matches, the first time (its charts drawn) and again
  (its charts kept).

The bench's earlier data (tournaments ``bench-ratings-*`` and their players) is deleted
first; what it builds stays, to be looked at. Run it on a scratch database: the rebuild
rates every match of the database.
"""

from __future__ import annotations

from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.models import Count
from django.test import Client
from django.utils import translation

from bench.harness import (
    HISTORY_PLAYER_PREFIX,
    HISTORY_SLUG_PREFIX,
    bench_client,
    history_build,
    time_runs,
    timed,
    timed_get,
)
from tournament.models import League, Match, Player, PlayerRating, Registration, Seat, Tournament
from tournament.ratings.services import HistoryPoint, ratings_rebuild, ratings_refresh

LEAGUE_SLUG = "bench-ratings-season"


def bench_data_delete() -> None:
    """The bench's earlier tournaments and players, and every rating (derived data)."""
    with transaction.atomic():
        League.objects.filter(slug=LEAGUE_SLUG).delete()
        Tournament.objects.filter(slug__startswith=HISTORY_SLUG_PREFIX).delete()
        PlayerRating.objects.all().delete()
        Player.objects.filter(name__startswith=HISTORY_PLAYER_PREFIX).delete()


def _median_refresh(match: Match, repeat: int) -> tuple[float, float]:
    """Median CPU and wall seconds of the refresh from ``match`` (a confirmation's cost)."""
    timings, _changes = time_runs(lambda: ratings_refresh(since=HistoryPoint.of(match)),
                                  repeat=repeat)
    return timings.cpu_median, timings.wall_median


def league_build() -> int:
    """Register every player in the bench's tournaments they played and group those
    tournaments into one league; returns the number of tournaments."""
    seated = set(
        Seat.objects.filter(session__tournament__slug__startswith=HISTORY_SLUG_PREFIX)
        .values_list("session__tournament", "player")
    )
    Registration.objects.bulk_create(
        [Registration(tournament_id=tournament, player_id=player) for tournament, player in seated],
        batch_size=2000, ignore_conflicts=True,
    )
    league = League.objects.create(name="Bench season", slug=LEAGUE_SLUG)
    return Tournament.objects.filter(slug__startswith=HISTORY_SLUG_PREFIX).update(league=league)


def _request_measured(client: Client, label: str, address: str, repeat: int) -> str:
    """The median CPU and wall time of ``repeat`` requests of ``address``, and its queries."""
    fetched = timed_get(client, address, requests=repeat)
    return (f"{label}: {fetched.queries} queries, {fetched.timings.cpu_median * 1000:.0f} ms "
            f"CPU, {fetched.timings.wall_median * 1000:.0f} ms wall "
            f"({fetched.size // 1024} KiB)")


class Command(BaseCommand):
    help = ("Build players and confirmed matches in the current database, then time the "
            "ratings' rebuild, a confirmation's refresh and the ratings page.")

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=1000, help="Players (1000).")
        parser.add_argument("--matches", type=int, default=10_000, help="Matches (10000).")
        parser.add_argument("--sessions-per-event", type=int, default=3,
                            help="Sessions of each tournament (3).")
        parser.add_argument("--start", type=int, default=100,
                            help="Matches confirmed when the first refresh is timed (100).")
        parser.add_argument("--repeat", type=int, default=5,
                            help="Runs of each refresh and request; the median is shown (5).")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, players, matches, sessions_per_event, start, repeat, seed,
               **options):
        out = self.stdout
        with translation.override("en"):
            bench_data_delete()
            built = timed(lambda: history_build(players=players, matches=matches,
                                                sessions_per_event=sessions_per_event, seed=seed,
                                                status=Match.Status.FINISHED))
            made = built.result
            out.write(f"{connection.vendor}: {players} players, {len(made)} matches built in "
                      f"{built.wall:.1f} s (wall)")

            # The start of the history: the first matches confirmed only.
            first = made[:start]
            Match.objects.filter(pk__in=[m.pk for m in first]).update(
                status=Match.Status.CONFIRMED)
            ratings_rebuild()
            cpu, wall = _median_refresh(first[-1], repeat)
            out.write(f"a confirmation's refresh with {len(first)} matches in the history: "
                      f"{cpu * 1000:.1f} ms CPU, {wall * 1000:.1f} ms wall")

            Match.objects.filter(pk__in=[m.pk for m in made]).update(
                status=Match.Status.CONFIRMED)
            rebuilt = timed(ratings_rebuild)
            out.write(f"ratings_rebuild(): {rebuilt.result} rating changes of "
                      f"{PlayerRating.objects.count()} players in {rebuilt.cpu:.2f} s CPU, "
                      f"{rebuilt.wall:.2f} s wall")

            cpu, wall = _median_refresh(made[-1], repeat)
            out.write(f"a confirmation's refresh with {len(made)} matches in the history: "
                      f"{cpu * 1000:.1f} ms CPU, {wall * 1000:.1f} ms wall")

            client = bench_client()
            rated = PlayerRating.objects.count()
            for label, address in ((f"the ratings page ({rated} players)", "/ratings/"),
                                   (f"its CSV ({rated} players)", "/ratings/?_export=csv")):
                out.write(_request_measured(client, label, address, repeat))

            tournaments = league_build()
            out.write(_request_measured(
                client, f"the league's page ({tournaments} tournaments, {players} players)",
                f"/leagues/{LEAGUE_SLUG}/", repeat))
            busiest = (Seat.objects.filter(player__name__startswith=HISTORY_PLAYER_PREFIX)
                       .values("player").annotate(seats=Count("pk")).order_by("-seats")
                       .first())
            address = f"/players/{busiest['player']}/"
            cache.clear()
            out.write(_request_measured(
                client, f"a career page ({busiest['seats']} matches), charts drawn", address, 1))
            out.write(_request_measured(
                client, f"a career page ({busiest['seats']} matches), charts kept", address,
                repeat))
