"""``python manage.py bench_printing``: how long printing takes, and how big the PDFs are.

Builds a tournament in a throwaway database (the test database Django would create: in memory
on SQLite), then times each document from the database to the PDF's bytes, the way the view
does it: the blank score sheets of a 64-table session (256 players), the seating of that
session, and the standings of 512 players. Your own database is not touched.
"""

from __future__ import annotations

import datetime
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import setup_databases, teardown_databases
from django.utils import translation
from pypdf import PdfReader

from tournament import services
from tournament.models import Session, Tournament
from tournament.printing import documents
from tournament.printing.pdf import DEFAULT_SITE_ROOT, render_pdf

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
        names.append(f"{first} {last}" + (f" {number // 288 + 1}" if number >= 288 else ""))
    return names


def build_tournament(*, slug: str, players: int, table_size: int = 4) -> tuple[Tournament, Session]:
    """A tournament with ``players`` players and session 1 seated at tables of ``table_size``."""
    tournament = services.tournament_create(
        name="Open international de Lyon", slug=slug, start_date=datetime.date(2025, 5, 17),
        venue="Salle Pierre-Sémard",
    )
    registered = [
        services.player_register(
            tournament=tournament, name=name, club=CLUBS[number % len(CLUBS)]
        ).player
        for number, name in enumerate(player_names(players))
    ]
    session = services.session_create(tournament=tournament)
    tables = [registered[i : i + table_size] for i in range(0, len(registered), table_size)]
    services.session_seat_players(session=session, tables=tables)
    session.refresh_from_db()
    return tournament, session


class Command(BaseCommand):
    help = (
        "Time the printed documents (blank score sheets of a 64-table session, its seating, "
        "the standings of 512 players) and report their size; uses a throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=64, help="tables of 4 for the sheets (64)")
        parser.add_argument("--players", type=int, default=512, help="players in the standings (512)")
        parser.add_argument("--repeat", type=int, default=3, help="runs of each document; the median is reported (3)")
        parser.add_argument("--out", type=Path, help="a folder to write the PDFs into, to look at them")
        parser.add_argument("--language", default="fr", help="language of the documents (fr)")

    def handle(self, *args, tables: int, players: int, repeat: int, out: Path | None,
               language: str, **options):
        self.repeat = max(1, repeat)
        self.out = out
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        self.stdout.write(f"throwaway database on {connection.vendor}; {self.repeat} run(s) each, median shown")
        old_config = setup_databases(verbosity=0, interactive=False)
        try:
            with translation.override(language):
                self.bench_sheets(tables=tables)
        finally:
            teardown_databases(old_config, verbosity=0)

    def bench_sheets(self, *, tables: int) -> None:
        started = time.perf_counter()
        _tournament, session = build_tournament(slug="bench-sheets", players=tables * 4)
        self.stdout.write(f"  setup: {tables * 4} players at {tables} tables ({time.perf_counter() - started:.1f} s)")

        def sheets() -> bytes:
            context = documents.score_sheets_context(session=session, site_root=DEFAULT_SITE_ROOT)
            return render_pdf("printing/score_sheets.html", context)

        self.measure(f"blank score sheets, {tables} tables", "score-sheets.pdf", sheets)

    def measure(self, label: str, filename: str, build: Callable[[], bytes]) -> None:
        times = []
        pdf = b""
        for _ in range(self.repeat):
            started = time.perf_counter()
            pdf = build()
            times.append(time.perf_counter() - started)
        pages = len(PdfReader_from(pdf).pages)
        self.stdout.write(
            f"{label}: {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}), "
            f"{pages} pages, {len(pdf) / 1024:.0f} KiB ({len(pdf) / 1024 / pages:.1f} KiB a page)"
        )
        if self.out is not None:
            (self.out / filename).write_bytes(pdf)


def PdfReader_from(pdf: bytes) -> PdfReader:
    import io

    return PdfReader(io.BytesIO(pdf))
