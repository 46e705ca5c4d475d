"""Helpers of the printing tests: PDFs read back as text, tournaments with accented names.

- ``pdf_pages(content)``: the text of each page of a PDF (bytes), read back by pypdf.
- ``assert_pdf(response)``: the response is a PDF; returns its pages' text.
- ``accented_tournament(slug=..., is_public=True)``: a tournament of ``ACCENTED_NAMES``.
- ``first_match(tournament)``: table 1's match of session 1.
- ``filled_match(tournament, user, seed=3, confirm=True)``: that match, filled with a simulated
  whole match through the recording's import service, every round confirmed unless not asked.
"""

from __future__ import annotations

import datetime
import io

from pypdf import PdfReader

from tests.tournament.matches.helpers import start_session
from tournament import engine, services
from tournament.matches import selectors as match_selectors
from tournament.matches import services as match_services
from tournament.models import Match
from tournament.organiser.services import player_add, session_create
from tournament.seating.services import session_seat_players

#: Eight players, seated in this order at two tables of four.
ACCENTED_NAMES = [
    "Mads Sørensen", "Chloé Martin", "Łukasz Nowak", "Zoé Garnier",
    "Jürgen Weiß", "Élodie Faure", "Núria Puig", "Anaïs Morel",
]


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def assert_pdf(response) -> list[str]:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return pdf_pages(response.content)


def accented_tournament(*, slug: str = "open-de-lyon", is_public: bool = True):
    """A tournament of ``ACCENTED_NAMES``, session 1 seated at two tables of four."""
    tournament = services.tournament_create(
        name="Open de Lyon", slug=slug, start_date=datetime.date(2025, 5, 17),
        venue="Salle Pierre-Sémard", is_public=is_public,
    )
    players = [
        player_add(tournament=tournament, name=name, club="Club").player
        for name in ACCENTED_NAMES
    ]
    session = session_create(tournament=tournament)
    session_seat_players(session=session, tables=[players[:4], players[4:]])
    return tournament


def first_match(tournament) -> Match:
    return match_selectors.match_with_tournament(
        Match.objects.get(table__session__tournament=tournament, table__session__number=1,
                          table__number=1).pk
    ).get()


def filled_match(tournament, user, *, seed: int = 3, confirm: bool = True) -> Match:
    """Table 1's match of session 1 (the session started if it was only seated), a whole
    simulated match imported; its rounds confirmed (the match is then confirmed) unless
    ``confirm`` is False."""
    match = first_match(tournament)
    start_session(match)
    names = match_selectors.match_rows(match=match).names
    record = engine.simulated_match_record(names=names, seed=seed, rules=tournament.rules)
    if confirm:
        view = match_services.match_record_import_and_confirm(match=match, user=user, record=record)
    else:
        view = match_services.match_record_import(
            match=match, user=user, seen_revision=match.revision, record=record
        ).replay
    assert view.finished
    match.refresh_from_db()
    return match
