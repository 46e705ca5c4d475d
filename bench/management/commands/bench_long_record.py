"""``python manage.py bench_long_record``: what a long match record costs to upload and to
show, beside a short one.

In a throwaway site (in memory on SQLite; ``test_<name>_bench_long_record`` on PostgreSQL,
dropped at the end), a tournament of four-player matches whose target no one reaches
(``--target``) and whose matches last one round more than the longest record, so that each
record is a match still in play. For each count of ``--turns`` (100 and 15,000 by default),
the engine's simulator plays such a match and the record is cut at that turn, the round in
play left open (its rounds closed, none confirmed: as a referee uploads the record of a
match played elsewhere). Then, through the whole Django stack (``django.test.Client``):

- **upload**: the referee's POST of the record file to the upload form (the records view,
  ``match_record_import``: the engine's check, the rows written), once, on an empty match;
- **entry page**: the referee's match page (the entry screen), with its log of every round;
- **public page**: the public's match page, as a phone opens it;
- **live part**: the public's live part (``match_live``), made again at each request (no kept
  copy, no kept replay: as after a turn saved in another worker);
- **entry-kept**, **public-kept**: the two pages again, their closed rounds' log kept (made
  by a request before) and the match's revision raised, as a turn saved in the round in play
  raises it: the page made again, its closed rounds taken from the kept log;
- **save**, **save-kept**: the tablet's save of the round in play's next turn (htmx, as
  ``queue.js`` posts it), undone after each run: without a kept replay (the first save in a
  worker that did not keep the match's: the other worker's, or after a restart), then after
  a save of the turn before it in this process (its replay kept);
- **replayed turns**: the turns the engine replays for each request (``replay.REPLAYED``).

CPU time (``time.process_time``, this process's: the database's work included on SQLite), the
median of ``--requests`` for the pages; queries; the answer's size; and each figure's ratio,
the long record's to the short one's. ``--profile KIND`` prints cProfile's 40 costliest
functions (cumulative, then 25 by their own time) of that request at the longest record (one of ``KINDS``).
"""

from __future__ import annotations

import cProfile
import datetime
import io
import json
import pstats
import statistics

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.harness import bench_client, posted_turn, started_match, throwaway_site, timed
from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.kit.cached_pages import forget_kept_pages
from tournament.matches import services as match_services
from tournament.matches.reading import replay as replay_module
from tournament.matches.reading import replay_cache
from tournament.matches.reading.rows import match_with_tournament
from tournament.models import Match, StaffRole

#: The kinds of request measured, in the order printed.
KINDS = ("upload", "entry", "public", "live", "entry-kept", "public-kept", "save", "save-kept")
#: The pages measured again with the closed rounds' log kept.
KEPT = {"entry-kept": "entry", "public-kept": "public"}
#: The simulator plays this many turns a round, about, at four players: rounds to play.
TURNS_PER_ROUND = 30


def long_record(*, names: list[str], turns: int, target: int, rounds: int, seed: int) -> dict:
    """A record of the simulator's, cut after ``turns`` turns, the round in play left open."""
    record = engine.simulated_match_record(names=names, seed=seed, target=target, rounds=rounds)
    kept, seen = [], 0
    for round_ in record["rounds"]:
        if seen + len(round_["turns"]) >= turns:
            kept.append({"turns": round_["turns"][: turns - seen]})
            return {**record, "rounds": kept}
        kept.append(round_)
        seen += len(round_["turns"])
    raise ValueError(f"the simulated match has only {seen} turns; raise --rounds")


class Command(BaseCommand):
    help = "CPU of a long match record's upload and pages, beside a short one's."

    def add_arguments(self, parser):
        parser.add_argument("--turns", default="100,15000",
                            help="the records' lengths in turns (the first is the reference)")
        parser.add_argument("--requests", type=int, default=5)
        parser.add_argument("--target", type=int, default=10_000_000)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--profile", choices=KINDS, default=None)
        parser.add_argument("--kinds", default=",".join(KINDS),
                            help="the requests measured, comma-separated (the upload always runs)")

    def handle(self, *args, turns, requests, target, seed, profile, kinds, **options):
        chosen = [kind for kind in KINDS if kind in kinds.split(",") or kind == "upload"]
        with throwaway_site("bench_long_record"):
            self.measure(turns=[int(t) for t in turns.split(",")], requests=max(1, requests),
                         target=target, seed=seed, profile=profile, kinds=chosen)

    def measure(self, *, turns: list[int], requests: int, target: int, seed: int,
                profile: str | None, kinds: list[str]) -> None:
        rounds = max(turns) // TURNS_PER_ROUND + 20
        referee = get_user_model().objects.create_user("bench-long-record-referee")
        tournament = tournament_create(name="Bench long record", slug="bench-long-record",
                                       start_date=datetime.date(2025, 5, 17), target=target,
                                       match_rounds=rounds)
        staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
        tablet, phone = bench_client(), bench_client()
        tablet.force_login(referee)
        figures: dict[int, dict[str, tuple[float, int, int, int]]] = {}
        for count in turns:
            match, names = started_match(tournament, label=f"Long {count}")
            longer = long_record(names=names, turns=count + 2, target=target, rounds=rounds,
                                 seed=seed)
            *closed, last = longer["rounds"]
            if len(last["turns"]) < 3:
                raise CommandError(f"the turns after the first {count} open a round: "
                                   "choose another count")
            # the record uploaded, and the two turns after it that the tablet saves
            record = {**longer, "rounds": [*closed, {"turns": last["turns"][:-2]}]}
            following = [posted_turn(turn) for turn in last["turns"][-2:]]
            data = json.dumps(record).encode()
            urls = {
                "entry": reverse("tournament:match", args=[tournament.slug, match.pk]),
                "live": reverse("tournament:match_live", args=[tournament.slug, match.pk]),
            }
            urls["public"] = urls["entry"]
            profiled = profile if count == max(turns) else None

            upload_url = reverse("tournament:match_record_upload",
                                 args=[tournament.slug, match.pk])

            def upload(address=upload_url, body=data):
                return tablet.post(
                    address, {"revision": "0", "record": SimpleUploadedFile("record.json", body)})

            rows = {"upload": self.request(upload, requests=1, profiled=profiled == "upload",
                                           status=302)}
            for kind in ("entry", "public", "live"):
                if kind not in kinds:
                    continue
                client = tablet if kind == "entry" else phone
                rows[kind] = self.request(lambda c=client, u=urls[kind]: c.get(u),
                                          requests=requests, profiled=profiled == kind)
            for kind, page in KEPT.items():
                if kind not in kinds:
                    continue
                client = tablet if page == "entry" else phone

                def moved(c=client, u=urls[page], pk=match.pk):
                    # the log made and kept, then the match's revision raised, as a turn
                    # saved in the round in play raises it (the closed rounds as they were):
                    # the page is made again, the kept page and replay no help
                    c.get(u)
                    Match.objects.filter(pk=pk).update(revision=F("revision") + 1)

                rows[kind] = self.request(lambda c=client, u=urls[page]: c.get(u),
                                          requests=requests, profiled=profiled == kind,
                                          before=moved)
            saves = self.saves(tablet, tournament=tournament, match=match, referee=referee,
                               following=following)
            for kind in ("save", "save-kept"):
                if kind not in kinds:
                    continue
                rows[kind] = self.request(saves[kind], requests=requests,
                                          profiled=profiled == kind, before=saves[f"{kind} before"],
                                          keep_replays=kind == "save-kept")
            saves["undo"]()
            figures[count] = {kind: (cpu, queries, size, replayed)
                              for kind, (cpu, queries, size, replayed) in rows.items()}
            match.refresh_from_db()
            self.stdout.write(
                f"{count:,} turns, {len(record['rounds'])} rounds, record {len(data) / 1024:,.0f} KiB,"
                f" match {match.status} at revision {match.revision}")
        reference = turns[0]
        self.stdout.write(f"{'request':<11} {'turns':>7} {'CPU':>10} {'queries':>8} "
                          f"{'bytes':>10} {'replayed':>9}  ratio to {reference:,} turns (CPU)")
        for kind in kinds:
            for count in turns:
                cpu, queries, size, replayed = figures[count][kind]
                ratio = cpu / figures[reference][kind][0] if figures[reference][kind][0] else 0
                self.stdout.write(f"{kind:<11} {count:>7,} {cpu * 1000:>8.1f} ms {queries:>8} "
                                  f"{size:>10,} {replayed:>9,}  {ratio:.2f}")

    @staticmethod
    def saves(tablet, *, tournament, match: Match, referee, following: list[dict]) -> dict:
        """The tablet's saves of the ``following`` turns (htmx), each undone before the next
        run; by kind, and what runs before each ("KIND before")."""
        url = reverse("tournament:match_turn_add", args=[tournament.slug, match.pk])
        saved = []

        def save(data: dict):
            revision = str(Match.objects.get(pk=match.pk).revision)
            answer = tablet.post(url, {**data, "revision": revision}, HTTP_HX_REQUEST="true",
                                 HTTP_X_MATCH_SHOWN=revision)
            if answer.get("X-Submission") != "saved":
                raise RuntimeError(f"the turn was not saved: {answer.content[:2000]!r}")
            saved.append(data)
            return answer

        def undo():
            while saved:
                revision = Match.objects.get(pk=match.pk).revision
                match_services.match_turn_undo(match=match_with_tournament(match.pk).get(),
                                               user=referee, seen_revision=revision)
                saved.pop()

        def after_one_saved():
            undo()
            save(following[0])

        return {"save": lambda: save(following[0]), "save before": undo,
                "save-kept": lambda: save(following[1]), "save-kept before": after_one_saved,
                "undo": undo}

    def request(self, action, *, requests: int, profiled: bool, status: int = 200,
                before=None, keep_replays: bool = False):
        """The median CPU time of ``requests`` runs of ``action`` (each on a cleared cache:
        no kept page, no kept log, no kept replay; or after ``before``, untimed, the cache as
        it left it but the replays, those too with ``keep_replays``), the last one's queries,
        size and turns replayed."""
        cpus = []
        counter = getattr(replay_module, "REPLAYED", None)  # none in code before it: -1 shown
        for _run in range(requests):
            if before is None:
                for cache in caches.all():
                    cache.clear()
                forget_kept_pages()
            else:
                before()
            if counter is not None:
                counter.clear()
            if not keep_replays:
                replay_cache.forget_replays()
            with CaptureQueriesContext(connection) as queries:
                if profiled:
                    profiler = cProfile.Profile()
                    run = timed(lambda p=profiler: p.runcall(action))
                else:
                    run = timed(action)
            if run.result.status_code != status:
                raise RuntimeError(f"{run.result.status_code}: {run.result.content[:2000]!r}")
            cpus.append(run.cpu)
            if profiled:
                out = io.StringIO()
                stats = pstats.Stats(profiler, stream=out)
                stats.sort_stats("cumulative").print_stats(40)
                stats.sort_stats("tottime").print_stats(25)
                self.stdout.write(out.getvalue())
                profiled = False
        replayed = counter.turns if counter is not None else -1
        return statistics.median(cpus), len(queries.captured_queries), len(
            run.result.content), replayed
