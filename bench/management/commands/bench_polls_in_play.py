"""``python manage.py bench_polls_in_play``: how many of the room's polls are 304s while the
tables play, and what each kind of answer costs.

In a throwaway database (in memory on SQLite; ``test_<name>_bench_polls_in_play`` on
PostgreSQL, dropped at the end), ``--tables`` tables of 4 play their first round turn by turn
(a turn every ``--turn-seconds`` at each table, the tables started at spread-out moments),
while 4 phones per table poll, every ``--poll-seconds``, the four pages a player follows (the
standings, their table's match, their own page, the session), each with the ETag of its last
answer and as htmx asks (the live fragment). The room's time is simulated: the writes and the
polls run one after the other in the order the room would make them, through the whole Django
stack (``django.test.Client``), for ``--seconds`` of the room's time; the polls of the first
``--warm-up`` seconds (each phone's first answer, the tables' first turns) are not counted.

It prints, per page, the share of polls answered 304 and the median CPU time
(``time.process_time``) of a 304 and of a 200, and the same for every poll together.
"""

from __future__ import annotations

import heapq
import math
import statistics
from collections import defaultdict

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client

from bench.harness import (
    POLL_HEADERS,
    record_turn_input,
    session_in_play,
    throwaway_site,
    timed,
)
from tournament import engine
from tournament.matches import services as match_services
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.models import Match

PAGES = ("standings", "match", "player", "session")


class Command(BaseCommand):
    help = "Share of 304s among the phones' polls while the tables play, and their CPU."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--seconds", type=float, default=60.0)
        parser.add_argument("--turn-seconds", type=float, default=11.5)
        parser.add_argument("--poll-seconds", type=float, default=15.0)
        parser.add_argument("--warm-up", type=float, default=30.0,
                            help="seconds of the room whose polls are made but not counted")

    def handle(self, *args, tables, seconds, turn_seconds, poll_seconds, warm_up, **options):
        with throwaway_site("bench_polls_in_play"):
            self.measure(tables=tables, seconds=seconds, turn_seconds=turn_seconds,
                         poll_seconds=poll_seconds, warm_up=warm_up)

    def measure(self, *, tables: int, seconds: float, turn_seconds: float,
                poll_seconds: float, warm_up: float) -> None:
        room = session_in_play(players=4 * tables, sessions=0,
                               referee="bench-polls-in-play-referee", recorded=False)
        tournament, session, referee = room.tournament, room.session, room.referee
        slug = tournament.slug
        matches = list(Match.objects.filter(table__session=session)
                       .select_related("table").order_by("table__number"))
        turns = {}
        for match in matches:
            record = engine.simulated_match_record(
                names=match_rows(match=match).names, seed=match.table.number,
                rules=tournament.rules)
            turns[match.pk] = list(record["rounds"][0]["turns"])

        # The room's events, in time order: (time, order, kind, what).
        events: list[tuple[float, int, str, object]] = []
        count = len(matches)
        for index, match in enumerate(matches):
            start = turn_seconds * index / count
            for step in range(math.ceil((seconds - start) / turn_seconds)):
                if step < len(turns[match.pk]):
                    events.append((start + step * turn_seconds, len(events), "turn",
                                   (match.pk, step)))
            players = list(match.table.seats.order_by("order").values_list("player_id", flat=True))
            for phone, player in enumerate(players):
                offset = poll_seconds * (4 * index + phone) / (4 * count)
                urls = {
                    "standings": f"/t/{slug}/standings/",
                    "match": f"/t/{slug}/matches/{match.pk}/live/",  # what its page polls
                    "player": f"/t/{slug}/players/{player}/",
                    "session": f"/t/{slug}/sessions/{session.number}/",
                }
                for poll in range(math.ceil((seconds - offset) / poll_seconds)):
                    events.append((offset + poll * poll_seconds, len(events), "poll",
                                   (phone + 4 * index, urls)))
        heapq.heapify(events)

        etags: dict[tuple[int, str], str] = {}
        cpu: dict[tuple[str, int], list[float]] = defaultdict(list)
        written = 0
        while events:
            at, _order, kind, what = heapq.heappop(events)
            if kind == "turn":
                match_id, step = what
                match = match_with_tournament(match_id).get()
                turn = turns[match_id][step]
                match_services.match_turns_add(
                    match=match, user=referee, seen_revision=match.revision,
                    turns=[record_turn_input(turn)])
                written += 1
                continue
            phone, urls = what
            for page in PAGES:
                headers = dict(POLL_HEADERS)
                if (phone, page) in etags:
                    headers["HTTP_IF_NONE_MATCH"] = etags[(phone, page)]
                run = timed(lambda url=urls[page], h=headers: Client().get(url, **h))
                status = run.result.status_code
                if status not in (200, 304):
                    raise RuntimeError(f"{urls[page]}: {status}")
                if status == 200:
                    etags[(phone, page)] = run.result["ETag"]
                if at >= warm_up:
                    cpu[(page, status)].append(run.cpu)

        self.stdout.write(
            f"{count} tables of 4 in play, {4 * count} phones, {seconds:.0f} s of the room "
            f"(a turn every {turn_seconds:g} s at each table: {written} turns; each phone polls "
            f"its four pages every {poll_seconds:g} s; the polls of the first {warm_up:g} s not "
            f"counted), {connection.vendor}; CPU per poll, median (time.process_time), through "
            f"the whole Django stack:")
        self.stdout.write(f"{'page':<10} {'polls':>6} {'304':>6} {'CPU 304':>9} {'CPU 200':>9}")
        for page in (*PAGES, "all"):
            kinds = PAGES if page == "all" else (page,)
            not_modified = [c for k in kinds for c in cpu[(k, 304)]]
            made = [c for k in kinds for c in cpu[(k, 200)]]
            polls = len(not_modified) + len(made)
            self.stdout.write(
                f"{page:<10} {polls:>6} {len(not_modified) / polls:>6.0%} "
                f"{_ms(not_modified):>9} {_ms(made):>9}")


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.1f}ms" if seconds else "-"

