"""``python manage.py bench_room_screens``: the server's CPU time of a poll of the projector
screen and of the head referee's board, made again after a write and answered 304 when
nothing changed.

In a throwaway database (in memory on SQLite; ``test_<name>_bench_room_screens`` on
PostgreSQL, dropped at the end), builds ``--players`` players over ``--sessions`` closed
sessions with made-up results and one more session in play (a match recorded at its first
table, a call for a referee at its second, the session clock running), then polls the
screen's region (``/t/<slug>/screen/``, as the public: the kept copy) and the board's
(``/t/<slug>/room/``, as a referee) through the whole Django stack (``django.test.Client``:
middleware, compression, the kept copies in the database cache): the region made again after
a write, and the poll of a screen that has it already (304). Each figure is the median CPU
time (``time.process_time``) over ``--requests`` requests; the ratio is in the same run.
"""

from __future__ import annotations

import statistics

from django.db import connection
from django.test import Client

from bench.harness import (
    POLL_HEADERS,
    Fetched,
    PollsCommand,
    session_in_play,
    timed_get,
)
from tournament.core.freshness import tournament_write
from tournament.kit.table_codes import table_code
from tournament.models import Table
from tournament.room import services as room_services


class Command(PollsCommand):
    help = "CPU time of a poll of the projector screen and of the board: made, unchanged (304)."

    def measure(self, *, players: int, sessions: int, requests: int) -> None:
        room = session_in_play(players=players, sessions=sessions, referee="bench-room-referee")
        tournament, session, referee = room.tournament, room.session, room.referee
        second = Table.objects.get(session=session, number=2)
        room_services.call_make(table=second, reason="dispute",
                                code=table_code(tournament.pk, 2))
        room_services.clock_set(session=session, minutes=120, user=referee)
        room_services.clock_start(session=session, user=referee)
        slug = tournament.slug
        board_client = Client()
        board_client.force_login(referee)
        screens = {
            "screen": (f"/t/{slug}/screen/", Client),
            "board": (f"/t/{slug}/room/", lambda: board_client),
        }
        self.stdout.write(
            f"{players} players, {sessions} sessions closed, session {session.number} in play "
            f"({session.tables.count()} tables), {connection.vendor}; CPU per request, median "
            f"of {requests} (time.process_time), through the whole Django stack:")
        self.stdout.write(f"{'poll':<8} {'made':>9} {'304':>9} {'queries made/304':>17} "
                          f"{'made/304':>9}")
        for name, (url, client) in screens.items():
            made: list[Fetched] = []
            for _ in range(requests):
                with tournament_write(tournament_id=tournament.pk):
                    pass  # a write that changes nothing but the versions: made again
                made.append(timed_get(client(), url, **POLL_HEADERS))
            etag = made[-1].response["ETag"]
            unchanged: list[Fetched] = []
            while len(unchanged) < requests:
                poll = timed_get(client(), url, statuses=(200, 304), HTTP_IF_NONE_MATCH=etag,
                                 **POLL_HEADERS)
                if poll.response.status_code == 304:
                    unchanged.append(poll)
                elif name == "board":  # its copy is kept per minute too: the minute turned
                    etag = poll.response["ETag"]
                else:
                    raise RuntimeError(f"{url}: 200 with nothing written")
            m, u = (statistics.median(poll.timings.cpu[0] for poll in polls) * 1000
                    for polls in (made, unchanged))
            queries = f"{made[-1].queries}/{unchanged[-1].queries}"
            self.stdout.write(f"{name:<8} {m:>7.1f}ms {u:>7.2f}ms {queries:>17} {m / u:>8.0f}x")
