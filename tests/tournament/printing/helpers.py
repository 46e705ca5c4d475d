"""Helpers of the printing tests: PDFs read back as text, tournaments with accented names.

- ``pdf_pages(content)``: the text of each page of a PDF (bytes), read back by pypdf.
- ``assert_pdf(response)``: the response is a PDF; returns its pages' text.
- ``assert_document_footer(pages, owner=..., label=..., printed_since=...)``: every page ends
  with the footer of ``printing/base_print.html``: whose document, its label and when it was
  printed, the page's number.
- ``cells_overflowing(html)``: WeasyPrint's layout of a printed ranking: what wraps or overflows.
- ``accented_tournament(slug=..., is_public=True)``: a tournament of ``ACCENTED_NAMES``.
- ``first_match(tournament)``: table 1's match of session 1.
- ``filled_match(tournament, user, seed=3, confirm=True)``: that match, filled with a simulated
  whole match through the recording's import service, every round confirmed unless not asked.
"""

from __future__ import annotations

import datetime
import io

from django.utils import timezone, translation
from pypdf import PdfReader
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from tests.tournament.matches.helpers import start_session
from tournament import engine
from tournament.core.formats import long_datetime
from tournament.core.pdf import DEFAULT_SITE_ROOT, StaticFilesFetcher
from tournament.core.tournaments import tournament_create
from tournament.matches import services as match_services
from tournament.matches.records import match_rows, match_with_tournament
from tournament.models import Match
from tournament.organiser.services import player_add
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create

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


def assert_document_footer(
    pages: list[str], *, owner: str, label: str, printed_since: datetime.datetime,
    language: str = "en",
) -> None:
    """Each page's last line is "<owner> <label> · <printed at> page <n> / <pages>", printed
    between ``printed_since`` and now (to the minute, as the documents print it in
    ``language``)."""
    with translation.override(language):
        printed = {long_datetime(printed_since), long_datetime(timezone.now())}
    for number, page in enumerate(pages, start=1):
        footer = page.rstrip().splitlines()[-1]
        assert footer in {
            f"{owner} {label} · {at} page {number} / {len(pages)}" for at in printed
        }, footer


def cells_overflowing(html: str) -> list[str]:
    """WeasyPrint's own layout of a ranking's HTML: every figure and its header on one line
    (words may wrap), and no text past its cell's edges or the page's. Returns what does not
    hold."""
    fetcher = StaticFilesFetcher(fail_on_errors=True)
    document = HTML(string=html, base_url=DEFAULT_SITE_ROOT, url_fetcher=fetcher).render()
    wrong = []
    for page in document.pages:
        page_box = page._page_box
        page_right = page_box.content_box_x() + page_box.width
        for box in page_box.descendants():
            if not isinstance(box, boxes.TableCellBox):
                continue
            classes = box.element.get("class", "")
            texts = [text for text in box.descendants() if isinstance(text, boxes.TextBox)]
            words = " ".join(text.text for text in texts)
            lines = [line for line in box.descendants() if isinstance(line, boxes.LineBox)]
            if "number" in classes and len(lines) > 1:
                wrong.append(f"{words!r} on {len(lines)} lines")
            left, right = box.content_box_x(), box.content_box_x() + box.width
            for text in texts:
                if text.position_x < left - 0.01 or text.position_x + text.width > right + 0.01:
                    wrong.append(f"{text.text!r} out of its cell")
                if text.position_x + text.width > page_right + 0.01:
                    wrong.append(f"{text.text!r} past the page's edge")
    return wrong


def accented_tournament(*, slug: str = "open-de-lyon", is_public: bool = True):
    """A tournament of ``ACCENTED_NAMES``, session 1 seated at two tables of four."""
    tournament = tournament_create(
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
    return match_with_tournament(
        Match.objects.get(table__session__tournament=tournament, table__session__number=1,
                          table__number=1).pk
    ).get()


def filled_match(tournament, user, *, seed: int = 3, confirm: bool = True) -> Match:
    """Table 1's match of session 1 (the session started if it was only seated), a whole
    simulated match imported; its rounds confirmed (the match is then confirmed) unless
    ``confirm`` is False."""
    match = first_match(tournament)
    start_session(match)
    names = match_rows(match=match).names
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
