"""``python manage.py bench_match_answers``: what each answer of a match in play weighs and
costs, early in a match and late in a long one, early and late in a round.

In a throwaway site (in memory on SQLite; ``test_<name>_bench_match_answers`` on PostgreSQL,
dropped at the end), matches of four players (the target raised to 4000 so that a match
lasts) are filled by the record import up to each turn of ``--turns``, each round
confirmed as it ends, as a referee confirms it. Then, ``--requests`` times at each match, as
the room asks them, through the whole Django stack (``django.test.Client``):

- **preview**: the referee's tablet asks the engine's word on the next turn's tile and cell;
- **save**: the tablet posts that turn (htmx), as the entry screen does (saying which
  revision its page shows: the answer leaves out what the page shows as it is);
- **poll, changed**: the first phone of the public to poll the match after the save (the
  answer made again), with the ETag it had before;
- **poll, kept**: another phone of the public, after it (the copy kept);
- **poll, unchanged**: a phone polling again with the ETag of its last answer (a 304);

the turn is then undone (not timed) for the next request. Each phone polls what the public
match page polls (its ``hx-get``), as htmx asks it (``HX-Request``, gzip accepted).

It prints, per kind and match, the median CPU time (``time.process_time``: this process's,
the database's work included on SQLite) and the answer's size, as the view wrote it and as
sent compressed.
"""

from __future__ import annotations

import datetime
import gzip
import statistics

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.urls import reverse

from bench.harness import (
    POLL_HEADERS,
    bench_client,
    posted_turn,
    record_cut,
    started_match,
    throwaway_site,
    timed,
)
from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.matches import services as match_services
from tournament.matches.reading.rows import match_with_tournament
from tournament.models import Match, StaffRole

#: The kinds of request measured, in the order printed.
KINDS = ("preview", "save", "poll, changed", "poll, kept", "poll, unchanged")
#: The target that makes a simulated match long enough for ``--late``.
LONG_TARGET = 4000


class Command(BaseCommand):
    help = "Bytes and CPU of a match's preview, save and polls, early and late in a match."

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=15)
        parser.add_argument("--turns", default="5,300,570",
                            help="the turns posted, one match each (5: early in a match; 300: "
                                 "a long match, early in a round; 570: late in its round of 53)")
        parser.add_argument("--seed", type=int, default=3, help="simulated match (default 3)")

    def handle(self, *args, requests, turns, seed, **options):
        with throwaway_site("bench_match_answers"):
            self.measure(requests=max(1, requests), turns=[int(t) for t in turns.split(",")],
                         seed=seed)

    def measure(self, *, requests: int, turns: list[int], seed: int) -> None:
        referee = get_user_model().objects.create_user("bench-match-answers-referee")
        tournament = tournament_create(name="Bench answers", slug="bench-answers",
                                       start_date=datetime.date(2025, 5, 17), target=LONG_TARGET)
        staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
        tablet = bench_client()
        tablet.force_login(referee)
        self.stdout.write(
            f"{connection.vendor}; a match of 4 (target {LONG_TARGET}, seed {seed}), the turn "
            f"posted at turn {', '.join(map(str, turns))}; median of {requests} requests through "
            f"the whole Django stack; CPU time (time.process_time), size as written / gzip:")
        self.stdout.write(f"{'request':<16} {'turn':>5} {'CPU':>9} {'bytes':>8} {'gzip':>7}")
        for number in turns:
            match = self.match_at(tournament, referee, turn=number, seed=seed)
            for kind, (cpu, size, zipped) in self.requests_at(
                    tablet, referee, tournament, match, requests=requests).items():
                self.stdout.write(f"{kind:<16} {number:>5} {cpu * 1000:>7.2f}ms "
                                  f"{size:>8} {zipped:>7}")

    def match_at(self, tournament, referee, *, turn: int, seed: int) -> tuple[Match, dict]:
        """A match filled up to the turn before ``turn`` (or before the first turn after it
        that places a tile), its closed rounds confirmed; and the turn to post."""
        match, names = started_match(tournament, label=f"Turn {turn}")
        record = engine.simulated_match_record(names=names, seed=seed, target=LONG_TARGET)
        head, posted = record_cut(record, before=turn)
        while not posted.get("place"):  # a tile placed: what the preview is asked for
            turn += 1
            head, posted = record_cut(record, before=turn)
        replay = match_services.match_record_import(
            match=match, user=referee, seen_revision=0, record=head).replay
        for round_view in replay.rounds:
            if round_view.closed:
                match.refresh_from_db(fields=["revision"])
                match_services.match_round_confirm(
                    match=match, user=referee, seen_revision=match.revision,
                    round_index=round_view.index)
        return match_with_tournament(match.pk).get(), posted

    def requests_at(self, tablet: Client, referee, tournament, at: tuple[Match, dict], *,
                    requests: int) -> dict[str, tuple[float, int, int]]:
        match, turn = at
        kwargs = {"slug": tournament.slug, "match_id": match.pk}
        poll_url = reverse("tournament:match_live", kwargs=kwargs)
        data = posted_turn(turn)
        samples: dict[str, list] = {kind: [] for kind in KINDS}
        first, other = bench_client(), bench_client()
        etag = first.get(poll_url, **POLL_HEADERS)["ETag"]
        for _request in range(requests):
            match.refresh_from_db(fields=["revision"])
            data["revision"] = str(match.revision)
            runs = {
                "preview": timed(lambda: tablet.post(
                    reverse("tournament:match_turn_preview", kwargs=kwargs), data,
                    HTTP_HX_REQUEST="true")),
                "save": timed(lambda: tablet.post(
                    reverse("tournament:match_turn_add", kwargs=kwargs), data,
                    HTTP_HX_REQUEST="true", HTTP_X_MATCH_SHOWN=data["revision"])),
                "poll, changed": timed(lambda seen=etag: first.get(
                    poll_url, HTTP_IF_NONE_MATCH=seen, **POLL_HEADERS)),
                "poll, kept": timed(lambda: other.get(poll_url, **POLL_HEADERS)),
            }
            etag = runs["poll, changed"].result["ETag"]
            runs["poll, unchanged"] = timed(lambda seen=etag: first.get(
                poll_url, HTTP_IF_NONE_MATCH=seen, **POLL_HEADERS))
            for kind, run in runs.items():
                expected = 304 if kind == "poll, unchanged" else 200
                if run.result.status_code != expected:
                    raise RuntimeError(f"{kind}: {run.result.status_code}")
                samples[kind].append(run)
            match.refresh_from_db(fields=["revision"])
            match_services.match_turn_undo(match=match_with_tournament(match.pk).get(),
                                           user=referee, seen_revision=match.revision)
            etag = first.get(poll_url, **POLL_HEADERS)["ETag"]
        return {kind: (statistics.median(run.cpu for run in runs),
                       max(answer_size(run.result) for run in runs),
                       max(len(run.result.content) for run in runs))
                for kind, runs in samples.items()}


def answer_size(response) -> int:
    """The answer's body as the view wrote it (before the compression)."""
    if response.get("Content-Encoding") == "gzip":
        return len(gzip.decompress(response.content))
    return len(response.content)
