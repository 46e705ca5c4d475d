"""``python manage.py bench_printing``: how long printing takes, and how big the PDFs are.

Builds tournaments in a throwaway database (the test database Django would create: in memory
on SQLite, ``test_<name>_bench_printing`` on PostgreSQL, dropped at the end; your own database
is not touched) and times each document from the database to the PDF's bytes, as the views
make them:

1. the blank score sheets of a session of 64 tables of four (256 players);
2. the seating of that session, to pin on the wall;
3. the standings of 512 players after 8 sessions (seated by the seating service, their
   matches confirmed with made-up totals: ``bench_running``'s tournament);
4. the sheet of one whole match (a simulated match imported and confirmed through the
   recording's services).

Each document is made ``--repeat`` times; the median is shown with the fastest and slowest,
wall-clock and CPU time (on a shared machine, CPU time is the steadier figure). The first run
of the sheets also draws the form (once per process), shown apart.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.utils import translation

from bench.harness import build_tournament, throwaway_database, time_runs, timed
from tournament import engine
from tournament.core.tournaments import tournament_create
from tournament.kit.pdf import DEFAULT_SITE_ROOT, render_pdf
from tournament.matches import services as match_services
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.models import Match, Session, Tournament
from tournament.organiser.services import player_add
from tournament.printing import documents
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create, session_start

FIRST_NAMES = [
    "Chloé", "Élodie", "Théo", "Mads", "Søren", "Amélie", "Bruno", "Margaux", "Inès", "Zoé",
    "François", "Jürgen", "Łukasz", "Núria", "Anaïs", "Gaël",
]
LAST_NAMES = [
    "Martin", "Faure", "Girard", "Sørensen", "Holm", "Dupont", "Lefèvre", "Rousseau", "Benali",
    "Garnier", "Petit", "Weiß", "Nowak", "Puig", "Morel", "Le Goff", "Nguyễn", "Ødegaard",
]
CLUBS = ["Triominos Club de Lyon", "Cercle parisien", "Marseille Triominos", "Strasbourg Jeux",
         "Dansk Triomino Klub", "Perpignan Catalans", "Club de Nantes", "Lille Triominos"]


def player_names(count: int) -> list[str]:
    """``count`` distinct names with accents, like a real field."""
    names = []
    for number in range(count):
        first = FIRST_NAMES[number % len(FIRST_NAMES)]
        last = LAST_NAMES[(number // len(FIRST_NAMES)) % len(LAST_NAMES)]
        pairs = len(FIRST_NAMES) * len(LAST_NAMES)
        names.append(f"{first} {last}" + (f" {number // pairs + 1}" if number >= pairs else ""))
    return names


def build_seated(*, slug: str, players: int, table_size: int = 4) -> tuple[Tournament, Session]:
    """A tournament of ``players`` players, session 1 seated at tables of ``table_size``."""
    tournament = tournament_create(
        name="Open international de Lyon", slug=slug, start_date=datetime.date(2025, 5, 17),
        venue="Salle Pierre-Sémard",
    )
    registered = [
        player_add(tournament=tournament, name=name, club=CLUBS[number % len(CLUBS)]).player
        for number, name in enumerate(player_names(players))
    ]
    session = session_create(tournament=tournament)
    tables = [registered[i : i + table_size] for i in range(0, len(registered), table_size)]
    session_seat_players(session=session, tables=tables)
    session_start(session=session)
    session.refresh_from_db()
    return tournament, session


def played_match(session: Session, *, seed: int) -> Match:
    """Table 1's match, a whole simulated match imported and every round confirmed."""
    referee = get_user_model().objects.create_user("bench-referee")
    match = match_with_tournament(
        Match.objects.get(table__session=session, table__number=1).pk
    ).get()
    names = match_rows(match=match).names
    record = engine.simulated_match_record(names=names, seed=seed)
    match_services.match_record_import_and_confirm(match=match, user=referee, record=record)
    match.refresh_from_db()
    return match


def page_count(pdf: bytes) -> int | None:
    """The PDF's pages, read back by pypdf (a test dependency: None without it)."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return None
    return len(PdfReader(io.BytesIO(pdf)).pages)


class Command(BaseCommand):
    help = (
        "Time the printed documents (blank score sheets of a 64-table session, its seating, "
        "the standings of 512 players, a match sheet) and report their size; uses a "
        "throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=64, help="tables of four (64)")
        parser.add_argument("--players", type=int, default=512,
                            help="players in the standings (512)")
        parser.add_argument("--sessions", type=int, default=8,
                            help="sessions played before the standings (8)")
        parser.add_argument("--repeat", type=int, default=3,
                            help="runs of each document; the median is shown (3)")
        parser.add_argument("--out", type=Path, help="a folder to write the PDFs into")
        parser.add_argument("--language", default="fr", help="the documents' language (fr)")

    def handle(self, *args, tables: int, players: int, sessions: int, repeat: int,
               out: Path | None, language: str, **options):
        self.repeat = max(1, repeat)
        self.out = out
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        with throwaway_database("bench_printing"):
            self.stdout.write(
                f"Throwaway database on {connection.vendor}; each document made {self.repeat} "
                "time(s): median (fastest–slowest), wall clock and CPU"
            )
            with translation.override(language):
                self.bench(tables=tables, players=players, sessions=sessions)

    def bench(self, *, tables: int, players: int, sessions: int) -> None:
        seated = timed(lambda: build_seated(slug="bench-sheets", players=tables * 4))
        _tournament, session = seated.result
        self.stdout.write(f"  setup: {tables * 4} players at {tables} tables "
                          f"({seated.wall:.1f} s)")

        def sheets() -> bytes:
            context = documents.score_sheets_context(session=session, site_root=DEFAULT_SITE_ROOT)
            return render_pdf("printing/score_sheets.html", context)

        def draw_forms() -> None:
            context = documents.score_sheets_context(session=session, site_root=DEFAULT_SITE_ROOT)
            for layout in context["layouts"]:
                layout.png()

        self.stdout.write(f"  the form drawn (once per process and language): "
                          f"{timed(draw_forms).wall:.2f} s")
        self.measure(f"blank score sheets, {tables} tables", "score-sheets.pdf", sheets)

        def seating() -> bytes:
            return render_pdf("printing/seating.html", documents.seating_context(session=session))

        self.measure(f"seating, {tables * 4} players", "seating.pdf", seating)

        built = timed(lambda: build_tournament(players=players, sessions=sessions, seed=0))
        played = built.result
        self.stdout.write(f"  setup: {players} players, {sessions} sessions confirmed "
                          f"({built.wall:.1f} s)")

        def standings() -> bytes:
            return render_pdf("printing/standings.html",
                              documents.standings_context(tournament=played))

        self.measure(f"standings, {players} players", "standings.pdf", standings)

        match = played_match(session, seed=7)
        turns = match_replay(match=match).turn_count

        def match_sheet() -> bytes:
            return render_pdf("printing/match_report.html",
                              documents.match_report_context(match=match))

        self.measure(f"match sheet, {turns} turns", "match-sheet.pdf", match_sheet)

    def measure(self, label: str, filename: str, build: Callable[[], bytes]) -> None:
        timings, pdf = time_runs(build, repeat=self.repeat)
        walls = timings.wall
        pages = page_count(pdf)
        size = f"{len(pdf) / 1024:.0f} KiB"
        if pages:
            size = f"{pages} pages, {size} ({len(pdf) / 1024 / pages:.1f} KiB a page)"
        self.stdout.write(
            f"{label}: {timings.wall_median:.2f} s ({min(walls):.2f}–{max(walls):.2f}), "
            f"CPU {timings.cpu_median:.2f} s; {size}"
        )
        if self.out is not None:
            (self.out / filename).write_bytes(pdf)
