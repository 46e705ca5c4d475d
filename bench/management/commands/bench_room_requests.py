"""``python manage.py bench_room_requests``: the server's CPU per request of each kind the
room asks (``bench/locustfile.py``), through the whole Django stack.

In a throwaway site (in memory on SQLite; ``test_<name>_bench_room_requests`` on PostgreSQL,
dropped at the end), ``bench_polls``' tournament (``--players`` players over ``--sessions``
closed sessions, one more session in play, table 1's match filled with a simulated match),
its session clock set and running, a referee's tablet logged in. Then ``--requests`` times
each request of the room, as its pages' scripts ask it (``django.test.Client``: every
middleware, compression, the kept copies in the database cache):

- **clock 304, phone / tablet**: a table's ``clock.json`` asked again with the ETag of its
  last answer, by the public and by the table's referee (every 20 s on each match page);
- **poll 304, standings / session / player / match**: each public page's live part polled
  with the ETag of its last answer (``HX-Request``, gzip accepted);
- **poll kept, match**: the match's live part as another phone takes the kept copy (200);
- **save: turn**: the tablet posts a turn (htmx, with ``X-Match-Shown``); the turn is then
  undone, untimed.

Each line: the median and mean CPU time (``time.process_time``: this process's, so on SQLite
the database's work too) and the queries of the last request. ``--profile KIND`` prints
cProfile's costliest functions over that kind's requests.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
from collections.abc import Callable

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.harness import (
    POLL_HEADERS,
    PollsCommand,
    bench_client,
    posted_turn,
    session_in_play,
    throwaway_site,
    timed,
)
from tournament import engine
from tournament.matches import services as match_services
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.room import services as room_services

#: The kinds of request measured, in the order printed.
KINDS = ("clock 304, phone", "clock 304, tablet", "poll 304, standings", "poll 304, session",
         "poll 304, player", "poll 304, match", "poll kept, match", "save: turn")


class Command(PollsCommand):
    help = "CPU time of each request of the room: clock, polls, a turn's save."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(sessions=3)
        parser.add_argument("--profile", choices=KINDS, default=None)

    def handle(self, *args, players, sessions, requests, profile, **options):
        self.profile = profile
        with throwaway_site("bench_room_requests"):
            self.measure(players=players, sessions=sessions, requests=max(1, requests))

    def measure(self, *, players: int, sessions: int, requests: int) -> None:
        room = session_in_play(players=players, sessions=sessions,
                               referee="bench-room-requests-referee", recorded=False)
        tournament, session, referee = room.tournament, room.session, room.referee
        room_services.clock_set(session=session, minutes=120, user=referee)
        room_services.clock_start(session=session, user=referee)
        match = match_with_tournament(room.match.pk).get()
        record = engine.simulated_match_record(
            names=match_rows(match=match).names, seed=1, rules=tournament.rules)
        turns = record["rounds"][0]["turns"]
        head = {**record, "rounds": [{"turns": turns[:3]}]}
        match_services.match_record_import(match=match, user=referee, seen_revision=0,
                                           record=head)
        posted = next(turn for turn in turns[3:] if turn.get("place"))
        slug, number = tournament.slug, session.number
        table = match.table.number
        player = match.table.seats.order_by("order").first().player_id
        kwargs = {"slug": slug, "match_id": match.pk}
        clock = reverse("tournament:table_clock_json",
                        kwargs={"slug": slug, "number": number, "table": table})
        polls = {
            "standings": f"/t/{slug}/standings/",
            "session": f"/t/{slug}/sessions/{number}/",
            "player": f"/t/{slug}/players/{player}/",
            "match": reverse("tournament:match_live", kwargs=kwargs),
        }
        phone, tablet = Client(), bench_client()
        tablet.force_login(referee)
        asks: dict[str, Callable[[], object]] = {
            "clock 304, phone": self.again(phone, clock),
            "clock 304, tablet": self.again(tablet, clock),
        }
        for name, url in polls.items():
            asks[f"poll 304, {name}"] = self.again(phone, url, **POLL_HEADERS)
        # a phone without the ETag (a stream's event, a page opened): the kept copy, a 200; one
        # client (a new one would load the middleware again: WhiteNoise scans the static files)
        other = Client()
        asks["poll kept, match"] = lambda: other.get(polls["match"], **POLL_HEADERS)
        data = posted_turn(posted)

        def save():
            match.refresh_from_db(fields=["revision"])
            data["revision"] = str(match.revision)
            return tablet.post(reverse("tournament:match_turn_add", kwargs=kwargs), data,
                               HTTP_HX_REQUEST="true", HTTP_X_MATCH_SHOWN=data["revision"])

        def undo():
            match.refresh_from_db(fields=["revision"])
            match_services.match_turn_undo(match=match_with_tournament(match.pk).get(),
                                           user=referee, seen_revision=match.revision)

        asks["save: turn"] = save
        expected = {kind: 304 for kind in KINDS if "304" in kind}
        self.stdout.write(
            f"{players} players, session {number} in play ({session.tables.count()} tables, "
            f"its clock running), {connection.vendor}; CPU per request (time.process_time), "
            f"{requests} requests each, through the whole Django stack:")
        self.stdout.write(f"{'request':<20} {'median':>9} {'mean':>9} {'queries':>8}")
        for kind in KINDS:
            ask = asks[kind]
            ask()  # warm: templates, translations, the kept copy
            if kind == "save: turn":
                undo()
            cpu: list[float] = []
            profiler = cProfile.Profile() if kind == self.profile else None
            for _request in range(requests):
                with CaptureQueriesContext(connection) as queries:
                    if profiler is not None:
                        profiler.enable()
                    run = timed(ask)
                    if profiler is not None:
                        profiler.disable()
                status = run.result.status_code
                if status != expected.get(kind, 200):
                    raise RuntimeError(f"{kind}: {status}")
                cpu.append(run.cpu * 1000)
                if kind == "save: turn":
                    undo()
            self.stdout.write(f"{kind:<20} {statistics.median(cpu):>7.2f}ms "
                              f"{statistics.mean(cpu):>7.2f}ms "
                              f"{len(queries.captured_queries):>8}")
            if profiler is not None:
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
                self.stdout.write(out.getvalue())

    @staticmethod
    def again(client: Client, url: str, **headers) -> Callable[[], object]:
        """A request of ``url`` with the ETag of the client's last answer (the first without)."""
        seen: dict[str, str] = {}

        def ask():
            sent = {**headers, **({"HTTP_IF_NONE_MATCH": seen["etag"]} if seen else {})}
            response = client.get(url, **sent)
            if response.has_header("ETag"):
                seen["etag"] = response["ETag"]
            return response

        return ask
