"""What every benchmark shares: a throwaway database, the timing of an action, the timing of a
request through Django's test client, and the tournaments they measure.

- ``throwaway_database(command)``: the test database Django would create, for the length of a
  ``with`` block: in memory on SQLite, ``test_<name>_<command>`` on PostgreSQL (a name of its
  own, so that a test run on the same server is never disturbed), dropped at the end. The
  database of ``DATABASE_URL`` is not touched.
- ``timed(action)`` and ``time_runs(action, repeat=...)``: wall-clock (``time.perf_counter``)
  and CPU time (``time.process_time``: this process only, the steadier figure on a shared
  machine) of one run, or of several, with their medians.
- ``timed_get(client, url, ...)``: GET requests through the whole Django stack (middleware,
  compression, the kept copies), with their times, the last one's queries and its answer.
- ``bench_client()``: a test client that sends a host the settings allow.
- ``build_tournament(players=..., sessions=..., seed=...)``: a tournament played through the
  services (registration, seating), its matches confirmed with made-up totals.
- ``history_build(...)``: players and confirmed matches by bulk inserts, for the ratings.
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases
from django.utils import timezone

from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.matches.services import TurnInput, match_record_import
from tournament.models import Match, Player, Seat, Session, Table, Tournament
from tournament.organiser.services import player_add, players_import_csv
from tournament.seating.services import session_seat, session_seat_players
from tournament.seating.simulation import simulated_totals
from tournament.sessions.services import session_create, session_start

T = TypeVar("T")


# --- the throwaway database ----------------------------------------------------------------


@contextmanager
def throwaway_database(command: str) -> Iterator[None]:
    """Create the test database (in memory on SQLite, named after ``command`` on PostgreSQL),
    drop it at the end."""
    test_settings = connection.settings_dict.setdefault("TEST", {})
    test_name = test_settings.get("NAME")
    if connection.vendor == "sqlite":
        # in memory, whatever the caller's: the test suite's own database may be a file (its
        # browser tests), which the teardown would delete under the tests that follow
        test_settings["NAME"] = None
    else:
        test_settings["NAME"] = f"test_{connection.settings_dict['NAME']}_{command}"
    old_config = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        yield
    finally:
        teardown_databases(old_config, verbosity=0)
        test_settings["NAME"] = test_name


@contextmanager
def throwaway_site(command: str) -> Iterator[None]:
    """``throwaway_database``, with the test client's host (``testserver``) allowed: for the
    commands that ask the pages through ``django.test.Client``."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    with throwaway_database(command):
        yield


class PollsCommand(BaseCommand):
    """A benchmark of polls at ``--players`` players over ``--sessions`` closed sessions, each
    figure the median of ``--requests``: ``measure`` runs in a throwaway site named after the
    command's module."""

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=512)
        parser.add_argument("--sessions", type=int, default=8)
        parser.add_argument("--requests", type=int, default=15)

    def handle(self, *args, players, sessions, requests, **options):
        with throwaway_site(type(self).__module__.rsplit(".", 1)[-1]):
            self.measure(players=players, sessions=sessions, requests=requests)

    def measure(self, *, players: int, sessions: int, requests: int) -> None:
        raise NotImplementedError


# --- timing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run(Generic[T]):
    """One run of an action: its wall-clock and CPU seconds, and what it returned."""

    wall: float
    cpu: float
    result: T


@dataclass(frozen=True)
class Timings:
    """The wall-clock and CPU seconds of several runs."""

    wall: list[float]
    cpu: list[float]

    @classmethod
    def of(cls, runs: list[Run[Any]]) -> Timings:
        return cls(wall=[run.wall for run in runs], cpu=[run.cpu for run in runs])

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def timed(action: Callable[[], T]) -> Run[T]:
    """Run ``action`` once, timed."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return Run(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu, result=result)


def time_runs(action: Callable[[], T], *, repeat: int) -> tuple[Timings, T]:
    """Run ``action`` ``repeat`` times (at least once): the timings, and the last result."""
    runs = [timed(action) for _run in range(max(1, repeat))]
    return Timings.of(runs), runs[-1].result


def ms(seconds: list[float]) -> str:
    """The median of ``seconds``, in whole milliseconds: ``"12 ms"``."""
    return f"{statistics.median(seconds) * 1000:.0f} ms"


#: A phone's poll as htmx asks it, compression accepted.
POLL_HEADERS = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_ENCODING": "gzip"}


# --- requests --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fetched:
    """Requests of one address: their times, the last one's queries and its answer."""

    timings: Timings
    queries: int
    response: HttpResponse

    @property
    def size(self) -> int:
        return len(self.response.content)


def timed_get(client: Client, url: str, *, requests: int = 1, warm_up: bool = False,
              statuses: tuple[int, ...] = (200,), **headers: Any) -> Fetched:
    """GET ``url`` ``requests`` times (after one untimed request with ``warm_up``: templates,
    translations); each request's wall-clock and CPU time (this process's: on SQLite the
    database's work is in it too), the queries of the last one and its answer. An answer whose
    status is not in ``statuses`` stops the benchmark."""
    if warm_up:
        client.get(url, **headers)
    runs = []
    for _request in range(max(1, requests)):
        with CaptureQueriesContext(connection) as queries:
            run = timed(lambda: client.get(url, **headers))
        if run.result.status_code not in statuses:
            raise RuntimeError(f"{url}: {run.result.status_code}")
        runs.append(run)
    return Fetched(timings=Timings.of(runs), queries=len(queries.captured_queries),
                   response=runs[-1].result)


def bench_client() -> Client:
    """A test client whose requests carry the first host of ``ALLOWED_HOSTS``."""
    host = next((h for h in settings.ALLOWED_HOSTS if h not in ("*", "")), "localhost")
    return Client(HTTP_HOST=host.lstrip("."))


def record_turn_input(turn: dict[str, Any]) -> TurnInput:
    """A turn of a match record (the engine's simulator writes them) as the recording's
    services take it, as a referee enters it in board mode."""
    place = turn.get("place") or {}
    cell = place.get("cell")
    return TurnInput(
        player=turn["player"],
        draws=turn.get("draws", 0),
        tile=place.get("tile", ""),
        cell=engine.Cell(*cell) if cell else None,
        corners=tuple(place["corners"]) if "corners" in place else None,
        bonus_claimed=turn.get("bonus", "") or "",
        points_claimed=turn.get("claimed"),
    )


def started_match(tournament, *, label: str) -> tuple[Match, list[str]]:
    """A session of one table of four new players (``label 0`` to ``label 3``), seated and
    started: its match and the players' names in seat order."""
    players = [player_add(tournament=tournament, name=f"{label} {i}").player for i in range(4)]
    session = session_create(tournament=tournament)
    session_seat_players(session=session, tables=[players])
    session_start(session=session)
    match = Match.objects.get(table__session=session)
    return match, match_rows(match=match).names


def record_cut(record: dict, *, before: int) -> tuple[dict, dict]:
    """The record up to the turn numbered ``before`` (from 1, over the whole match) left out,
    the last round kept open; and that turn."""
    rounds = []
    seen = 0
    for round_ in record["rounds"]:
        turns = round_["turns"]
        if seen + len(turns) >= before:
            kept = turns[: before - 1 - seen]
            rounds.append({"turns": kept})
            return {**record, "rounds": rounds}, turns[before - 1 - seen]
        rounds.append(round_)
        seen += len(turns)
    raise ValueError(f"the simulated match has only {seen} turns")


def posted_turn(turn: dict) -> dict[str, str]:
    """The entry screen's POST of a record turn (board mode)."""
    place = turn.get("place")
    if not place:
        return {"pass": "1", "draws": str(turn.get("draws", 0)), "player": str(turn["player"])}
    x, y, o = place["cell"]
    corners = place["corners"]
    data = {"tile": "".join(map(str, sorted(corners))), "cell": f"{o}({x},{y})",
            "corners": "-".join(map(str, corners)), "draws": str(turn.get("draws", 0)),
            "player": str(turn["player"])}
    if turn.get("claimed") is not None:
        data["claimed"] = str(turn["claimed"])
    return data


# --- the tournaments measured ----------------------------------------------------------------


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


@dataclass(frozen=True)
class SessionInPlay:
    """A tournament with a session in play: its referee, and table 1's match."""

    tournament: Tournament
    session: Session
    match: Match
    referee: Any


def session_in_play(*, players: int, sessions: int, referee: str,
                    recorded: bool = True) -> SessionInPlay:
    """``build_tournament``, then one more session seated and started by the real services, a
    referee of every table (the account ``referee``), and with ``recorded`` table 1's match
    filled with a simulated match (the engine's own) through the recording's write path."""
    tournament = build_tournament(players=players, sessions=sessions, seed=1)
    session = session_create(tournament=tournament, seed=sessions + 1)
    session_seat(session=session)
    session_start(session=session)
    user = get_user_model().objects.create_user(referee)
    staff_role_grant(tournament=tournament, user=user, role="referee")
    match = (Match.objects.filter(table__session=session).select_related("table")
             .order_by("table__number").first())
    if recorded:
        record = engine.simulated_match_record(
            names=match_rows(match=match).names, seed=1, rules=tournament.rules)
        match_record_import(match=match_with_tournament(match.pk).get(), user=user,
                            seen_revision=0, record=record)
    return SessionInPlay(tournament=tournament, session=session, match=match, referee=user)


#: The tournaments and players of ``history_build``: ``bench_ratings`` deletes them first.
HISTORY_SLUG_PREFIX = "bench-ratings-"
HISTORY_PLAYER_PREFIX = "Bench rating player "


def _table_sizes(players: int, rng: random.Random) -> list[int]:
    """Tables of 2, 3 or 4 seating ``players`` players, drawn at random."""
    sizes: list[int] = []
    left = players
    while left > 4:
        size = rng.choice([size for size in (2, 3, 4) if left - size != 1])
        sizes.append(size)
        left -= size
    return [*sizes, left] if left >= 2 else sizes


@transaction.atomic
def history_build(*, players: int, matches: int, sessions_per_event: int, seed: int,
                  status: str = Match.Status.CONFIRMED) -> list[Match]:
    """``players`` players and ``matches`` matches of ``status`` at tables of 2, 3 or 4,
    confirmed a second apart, by bulk inserts (tournaments of ``sessions_per_event`` sessions,
    each session seating every player; each match its totals, no turns); returns the matches
    in the order of their confirmation."""
    rng = random.Random(seed)
    roster = Player.objects.bulk_create(
        [Player(name=f"{HISTORY_PLAYER_PREFIX}{n:04d}", club=f"Club {n % 37}")
         for n in range(players)],
        batch_size=2000,
    )
    start = timezone.now() - datetime.timedelta(days=365)
    made: list[Match] = []
    event = 0
    while len(made) < matches:
        event += 1
        tournament = Tournament.objects.create(
            name=f"Bench rating event {event}", slug=f"{HISTORY_SLUG_PREFIX}{event}",
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
