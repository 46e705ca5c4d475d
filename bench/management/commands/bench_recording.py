"""``python manage.py bench_recording``: how long the referee waits at the table.

Builds a tournament in a throwaway database (the test database Django would create: in memory
on SQLite, ``test_<name>_bench_recording`` on PostgreSQL, dropped at the end; your own database
is not touched), fills one four-player match with a simulated match up to the start of its last round
through the record import, then enters that last round turn by turn, as the entry screen does,
and times:

1. saving one turn (``match_turns_add``: the revision claimed, the record rebuilt from the
   rows, the whole match replayed by the engine, the rows and the figures written);
2. the engine's preview of a turn (the request the board makes when a cell is tapped);
3. the match page of the referee (GET, the whole page), at the end of the match.

Each figure is the median of every turn of the last round (or of ``--repeat`` page loads),
with the slowest; wall-clock and CPU time. The match has ``--seed``'s number of turns.

Then the tablet's POST, early and late in a match (``--late``, 300 by default): a match of
the same kind (four players, the target raised so that it lasts that long) is filled by the
record import up to the turn before (its rounds confirmed, as a referee confirms each round
at its end), then the turn is posted to the entry screen's address as
the tablet posts it (htmx), ``--repeat`` times (each one undone before the next, not timed):
the CPU time of the whole request (``time.process_time``), early and late, their ratio, and
the size of the answer.
"""

from __future__ import annotations

import datetime
import statistics

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bench.harness import (
    Run,
    Timings,
    posted_turn,
    record_cut,
    record_turn_input,
    started_match,
    throwaway_database,
    timed,
)
from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.matches import services as match_services
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.rows import match_with_tournament
from tournament.models import StaffRole


def _line(label: str, samples: list[Run[object]]) -> str:
    timings = Timings.of(samples)
    return (f"{label}: median {timings.wall_median * 1000:.1f} ms, slowest "
            f"{max(timings.wall) * 1000:.1f} ms (CPU median {timings.cpu_median * 1000:.1f} ms; "
            f"{len(samples)} samples)")


class Command(BaseCommand):
    help = "Time a turn's save, the turn preview and the match page on a whole simulated match."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=3, help="simulated match (default 3)")
        parser.add_argument("--repeat", type=int, default=20, help="page loads timed (20)")
        parser.add_argument("--late", type=int, default=300, help="the late turn posted (300)")

    def handle(self, *args, seed: int, repeat: int, late: int, **options):
        with throwaway_database("bench_recording"), translation.override("fr"):
            self.bench(seed=seed, repeat=repeat)
            self.bench_post(seed=seed, repeat=repeat, late=late)

    def bench(self, *, seed: int, repeat: int) -> None:
        out = self.stdout
        user = get_user_model().objects.create_user("bench-referee", password="bench-referee-pw")
        tournament = tournament_create(
            name="Bench", slug="bench", start_date=datetime.date(2025, 5, 17))
        staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        match, names = started_match(tournament, label="Player")
        record = engine.simulated_match_record(names=names, seed=seed)
        rounds = record["rounds"]
        head = {**record, "rounds": rounds[:-1]}
        match_services.match_record_import(match=match, user=user, seen_revision=0, record=head)
        earlier = sum(len(r["turns"]) for r in rounds[:-1])
        out.write(f"{connection.vendor}; simulated match {seed}: {len(rounds)} rounds, "
                  f"{earlier + len(rounds[-1]['turns'])} turns; the last round "
                  f"({len(rounds[-1]['turns'])} turns) entered turn by turn")

        saves: list[Run[object]] = []
        previews: list[Run[object]] = []
        for turn in rounds[-1]["turns"]:
            match = match_with_tournament(match.pk).get()
            data = record_turn_input(turn)
            if turn.get("place"):
                def preview(match=match, data=data):
                    view = match_replay(match=match)
                    view.live.replay.preview(engine.TurnRecord(
                        player=data.player, draws=data.draws,
                        place=engine.PlaceRecord(cell=data.cell, corners=data.corners)))
                previews.append(timed(preview))
            saves.append(timed(lambda match=match, data=data: match_services.match_turns_add(
                match=match, user=user, seen_revision=match.revision, turns=[data])))
        out.write(_line("save a turn (board mode)", saves))
        out.write(_line("preview a turn (replay + engine)", previews))

        client = Client(HTTP_HOST="localhost")
        client.force_login(user)
        url = reverse("tournament:match", kwargs={"slug": "bench", "match_id": match.pk})
        assert client.get(url).status_code == 200
        pages = [timed(lambda: client.get(url)) for _ in range(repeat)]
        size = len(client.get(url).content)
        out.write(_line(f"the referee's match page ({size // 1024} kB)", pages))

    def bench_post(self, *, seed: int, repeat: int, late: int) -> None:
        """The tablet's POST of a turn at turn 5 and at turn ``late`` of the same match."""
        user = get_user_model().objects.get(username="bench-referee")
        tournament = tournament_create(
            name="Bench late", slug="bench-late", start_date=datetime.date(2025, 5, 17),
            target=4000)
        staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        client = Client(HTTP_HOST="localhost")
        client.force_login(user)
        figures = {}
        for label, number in (("early", 5), ("late", late)):
            match, names = started_match(tournament, label=label)
            record = engine.simulated_match_record(names=names, seed=seed, target=4000)
            head, turn = record_cut(record, before=number)
            replay = match_services.match_record_import(match=match, user=user, seen_revision=0,
                                                        record=head).replay
            for round_view in replay.rounds:  # the referee confirms each round as it ends
                if round_view.closed:
                    match.refresh_from_db(fields=["revision"])
                    match_services.match_round_confirm(
                        match=match, user=user, seen_revision=match.revision,
                        round_index=round_view.index)
            url = reverse("tournament:match_turn_add",
                          kwargs={"slug": tournament.slug, "match_id": match.pk})
            data = posted_turn(turn)
            cpus, sizes = [], []
            for _ in range(repeat):
                match = match_with_tournament(match.pk).get()
                data["revision"] = str(match.revision)
                posted = timed(lambda url=url, data=data: client.post(url, data, HTTP_HX_REQUEST="true"))
                response = posted.result
                cpus.append(posted.cpu)
                assert response.status_code == 200, response.status_code
                sizes.append(len(response.content))
                match.refresh_from_db()
                match_services.match_turn_undo(match=match, user=user,
                                               seen_revision=match.revision)
            figures[label] = (statistics.median(cpus) * 1000, max(sizes))
            self.stdout.write(
                f"POST a turn at turn {number}: CPU median {figures[label][0]:.1f} ms, "
                f"answer {figures[label][1] / 1024:.1f} KiB ({repeat} samples)")
        ratio = figures["late"][0] / figures["early"][0]
        self.stdout.write(f"turn {late} / turn 5 CPU ratio: {ratio:.2f}")

