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


class Command(PollsCommand):
    help = "CPU time of the public pages' polls: made, kept, unchanged (304)."

    def measure(self, *, players: int, sessions: int, requests: int) -> None:
        room = session_in_play(players=players, sessions=sessions, referee="bench-polls-referee")
        tournament, session, match = room.tournament, room.session, room.match
        player = match.table.seats.order_by("order").first().player_id
        slug = tournament.slug
        pages = {
            "standings": f"/t/{slug}/standings/",
            "session": f"/t/{slug}/sessions/{session.number}/",
            "player": f"/t/{slug}/players/{player}/",
            "match": f"/t/{slug}/matches/{match.pk}/live/",  # what its page polls
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
                with tournament_write(tournament_id=tournament.pk):
                    pass  # a write that changes nothing but the versions: the copy is made again
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
    return timed_get(Client(), url, statuses=statuses, **POLL_HEADERS, **headers)

