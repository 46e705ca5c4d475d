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

import datetime
import random
import statistics
import time

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from tournament.models import (
    League,
    Match,
    Player,
    PlayerRating,
    Registration,
    Seat,
    Session,
    Table,
    Tournament,
)
from tournament.ratings.services import HistoryPoint, ratings_rebuild, ratings_refresh

SLUG_PREFIX = "bench-ratings-"
LEAGUE_SLUG = "bench-ratings-season"
PLAYER_PREFIX = "Bench rating player "


def _table_sizes(players: int, rng: random.Random) -> list[int]:
    """Tables of 2, 3 or 4 seating ``players`` players, drawn at random."""
    sizes: list[int] = []
    left = players
    while left > 4:
        size = rng.choice([size for size in (2, 3, 4) if left - size != 1])
        sizes.append(size)
        left -= size
    return [*sizes, left] if left >= 2 else sizes


def bench_data_delete() -> None:
    """The bench's earlier tournaments and players, and every rating (derived data)."""
    with transaction.atomic():
        League.objects.filter(slug=LEAGUE_SLUG).delete()
        Tournament.objects.filter(slug__startswith=SLUG_PREFIX).delete()
        PlayerRating.objects.all().delete()
        Player.objects.filter(name__startswith=PLAYER_PREFIX).delete()


@transaction.atomic
def bench_history_build(*, players: int, matches: int, sessions_per_event: int, seed: int,
                        status: str = Match.Status.CONFIRMED) -> list[Match]:
    """``players`` players and ``matches`` matches of ``status`` confirmed a second apart, by
    bulk inserts; returns the matches in the order of their confirmation."""
    rng = random.Random(seed)
    roster = Player.objects.bulk_create(
        [Player(name=f"{PLAYER_PREFIX}{n:04d}", club=f"Club {n % 37}") for n in range(players)],
        batch_size=2000,
    )
    start = timezone.now() - datetime.timedelta(days=365)
    made: list[Match] = []
    event = 0
    while len(made) < matches:
        event += 1
        tournament = Tournament.objects.create(
            name=f"Bench rating event {event}", slug=f"{SLUG_PREFIX}{event}",
            start_date=(start + datetime.timedelta(days=event)).date(), is_rated=True,
        )
        sessions = Session.objects.bulk_create([
            Session(tournament=tournament, number=number, status=Session.Status.FINISHED)
            for number in range(1, sessions_per_event + 1)
        ])
        for session in sessions:
            if len(made) >= matches:
                break
            ids = [player.pk for player in roster]
            rng.shuffle(ids)
            sizes = _table_sizes(len(ids), rng)[: matches - len(made)]
            tables = Table.objects.bulk_create(
                [Table(session=session, number=n) for n in range(1, len(sizes) + 1)]
            )
            seats, new_matches, seated = [], [], 0
            for table, size in zip(tables, sizes):
                for order, player_id in enumerate(ids[seated:seated + size]):
                    seats.append(Seat(table=table, session=session, player_id=player_id,
                                      order=order))
                seated += size
                at = start + datetime.timedelta(seconds=len(made) + len(new_matches))
                totals = [rng.randint(0, 450) for _seat in range(size)]
                top = max(totals)
                new_matches.append(Match(
                    table=table, status=status, finished_at=at, confirmed_at=at, totals=totals,
                    winners=[seat for seat, total in enumerate(totals) if total == top],
                ))
            Seat.objects.bulk_create(seats, batch_size=2000)
            made.extend(Match.objects.bulk_create(new_matches, batch_size=2000))
    return made


def _median_refresh(match: Match, repeat: int) -> tuple[float, float]:
    """Median CPU and wall seconds of the refresh from ``match`` (a confirmation's cost)."""
    cpu, wall = [], []
    for _run in range(repeat):
        begun, begun_wall = time.process_time(), time.perf_counter()
        ratings_refresh(since=HistoryPoint.of(match))
        cpu.append(time.process_time() - begun)
        wall.append(time.perf_counter() - begun_wall)
    return statistics.median(cpu), statistics.median(wall)


def league_build() -> int:
    """Register every player in the bench's tournaments they played and group those
    tournaments into one league; returns the number of tournaments."""
    seated = set(
        Seat.objects.filter(session__tournament__slug__startswith=SLUG_PREFIX)
        .values_list("session__tournament", "player")
    )
    Registration.objects.bulk_create(
        [Registration(tournament_id=tournament, player_id=player) for tournament, player in seated],
        batch_size=2000, ignore_conflicts=True,
    )
    league = League.objects.create(name="Bench season", slug=LEAGUE_SLUG)
    return Tournament.objects.filter(slug__startswith=SLUG_PREFIX).update(league=league)


def _request_measured(client: Client, label: str, address: str, repeat: int) -> str:
    """The median CPU and wall time of ``repeat`` requests of ``address``, and its queries."""
    queries, cpu_runs, wall_runs = 0, [], []
    for _run in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            begun, begun_wall = time.process_time(), time.perf_counter()
            response = client.get(address)
            cpu_runs.append(time.process_time() - begun)
            wall_runs.append(time.perf_counter() - begun_wall)
        if response.status_code != 200:
            raise RuntimeError(f"{address}: {response.status_code}")
        queries = len(captured)
    return (f"{label}: {queries} queries, {statistics.median(cpu_runs) * 1000:.0f} ms CPU, "
            f"{statistics.median(wall_runs) * 1000:.0f} ms wall "
            f"({len(response.content) // 1024} KiB)")


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
            begun = time.perf_counter()
            made = bench_history_build(players=players, matches=matches,
                                       sessions_per_event=sessions_per_event, seed=seed,
                                       status=Match.Status.FINISHED)
            out.write(f"{connection.vendor}: {players} players, {len(made)} matches built in "
                      f"{time.perf_counter() - begun:.1f} s (wall)")

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
            begun, begun_wall = time.process_time(), time.perf_counter()
            changes = ratings_rebuild()
            cpu, wall = time.process_time() - begun, time.perf_counter() - begun_wall
            out.write(f"ratings_rebuild(): {changes} rating changes of "
                      f"{PlayerRating.objects.count()} players in {cpu:.2f} s CPU, "
                      f"{wall:.2f} s wall")

            cpu, wall = _median_refresh(made[-1], repeat)
            out.write(f"a confirmation's refresh with {len(made)} matches in the history: "
                      f"{cpu * 1000:.1f} ms CPU, {wall * 1000:.1f} ms wall")

            host = next((h for h in settings.ALLOWED_HOSTS if h not in ("*", "")), "localhost")
            client = Client(HTTP_HOST=host.lstrip("."))
            rated = PlayerRating.objects.count()
            for label, address in ((f"the ratings page ({rated} players)", "/ratings/"),
                                   (f"its CSV ({rated} players)", "/ratings/?_export=csv")):
                out.write(_request_measured(client, label, address, repeat))

            tournaments = league_build()
            out.write(_request_measured(
                client, f"the league's page ({tournaments} tournaments, {players} players)",
                f"/leagues/{LEAGUE_SLUG}/", repeat))
            busiest = (Seat.objects.filter(player__name__startswith=PLAYER_PREFIX)
                       .values("player").annotate(seats=Count("pk")).order_by("-seats")
                       .first())
            address = f"/players/{busiest['player']}/"
            cache.clear()
            out.write(_request_measured(
                client, f"a career page ({busiest['seats']} matches), charts drawn", address, 1))
            out.write(_request_measured(
                client, f"a career page ({busiest['seats']} matches), charts kept", address,
                repeat))
