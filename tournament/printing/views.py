"""The printed documents as PDF (and, with ``?html``, as the HTML they are made from).

Who may print what:
- blank score sheets and the table cards: the tournament's organisers and referees;
- the sheet of a match: everyone once the match is confirmed, its staff before that;
- the seating of a session and the standings: whoever may see the tournament.
"""

from __future__ import annotations

from functools import cached_property
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.translation import get_language
from django.views.generic import View

from tournament.models import Match, Session
from tournament.permissions import (
    RefereeRequiredMixin,
    TournamentMixin,
    is_referee,
    refereed_tables,
)
from tournament.printing import documents, selectors
from tournament.printing.forms import ScoreSheetOptionsForm, TableCardOptionsForm
from tournament.printing.pdf import render_pdf

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def public_site_root(request) -> str:
    """The site's root as the players' phones and the tablets reach it, for QR codes.

    The request's own root, unless it came from the laptop itself (``localhost``): a QR code
    of ``http://localhost:8000/`` would lead a phone nowhere, so the first other address of
    ``ALLOWED_HOSTS`` (``TRIOMINOS_ALLOWED_HOSTS``) is used instead, with the same port.
    """
    root = urlsplit(request.build_absolute_uri("/"))
    if root.hostname not in LOCAL_HOSTS:
        return root.geturl()
    for host in settings.ALLOWED_HOSTS:
        if host in ("*", "") or host.startswith(".") or host.strip("[]") in LOCAL_HOSTS:
            continue
        port = f":{root.port}" if root.port else ""
        return f"{root.scheme}://{host}{port}/"
    return root.geturl()


#: How long a PDF made is kept (it is also dropped as soon as what it shows changes: its key
#: names its content).
PDF_KEPT_SECONDS = 24 * 3600


class PdfView(View):
    """Renders ``template_name`` with :meth:`document_context` as a PDF; ``?html`` shows the
    HTML instead (a preview in the browser, with the same stylesheet).

    A document asked for again and again (a confirmed match's sheet, the standings once a
    session ends: every phone of the room) is kept in the cache when :meth:`cache_key` names
    its content; the key changes with what the document shows, so a kept PDF is never stale.
    """

    http_method_names = ("get", "head")
    template_name = ""

    def document_context(self) -> dict | HttpResponse:
        """The template's context, or a response that refuses (a bad option, say)."""
        raise NotImplementedError

    @cached_property
    def context(self) -> dict | HttpResponse:
        """:meth:`document_context`, made once a request (``cache_key`` may read it)."""
        return self.document_context()

    def cache_key(self) -> str | None:
        """A key that changes whenever the document's content does, or None: made each time.
        The language and the address the PDF's links start from are added to it."""
        return None

    def filename(self) -> str:
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        if "html" not in request.GET and (key := self.cache_key()) is not None:
            site_root = request.build_absolute_uri("/")
            pdf = cache.get_or_set(
                f"printing:{key}:{get_language()}:{site_root}",
                lambda: render_pdf(self.template_name, self.context, request=request),
                timeout=PDF_KEPT_SECONDS,
            )
            return self.pdf_response(pdf)
        context = self.context
        if isinstance(context, HttpResponse):
            return context
        if "html" in request.GET:
            return TemplateResponse(request, self.template_name, context)
        return self.pdf_response(render_pdf(self.template_name, context, request=request))

    def pdf_response(self, pdf: bytes) -> HttpResponse:
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{self.filename()}"'
        return response


def bad_options_response(request, tournament, form) -> TemplateResponse:
    """A document's options refused: each message next to its option (400)."""
    return TemplateResponse(
        request, "printing/bad_options.html", {"tournament": tournament, "form": form}, status=400
    )


class SessionMixin:
    def get_session(self) -> Session:
        return get_object_or_404(
            Session.objects.select_related("tournament"),
            tournament=self.tournament,
            number=self.kwargs["number"],
        )


class ScoreSheetsPdfView(RefereeRequiredMixin, SessionMixin, PdfView):
    """Blank score sheets of a session: one page per table (``?rounds=N``: N per table)."""

    template_name = "printing/score_sheets.html"

    def document_context(self):
        self.session = self.get_session()
        form = ScoreSheetOptionsForm(
            self.request.GET,
            session_tables=frozenset(self.session.tables.values_list("number", flat=True)),
            refereed=refereed_tables(self.request.user, self.tournament),
        )
        if not form.is_valid():
            return bad_options_response(self.request, self.tournament, form)
        return documents.score_sheets_context(
            session=self.session,
            site_root=public_site_root(self.request),
            rounds=form.rounds_wanted(),
            tables=form.tables_wanted(),
        )

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.session.number}-score-sheets.pdf"


class TableCardsPdfView(RefereeRequiredMixin, PdfView):
    """A card per physical table, to fold or pin up: its number, and the QR code of its
    address for the whole event (``/t/<slug>/tables/<n>/``). ``?tables=1-4,7``: those only;
    by default every table of the largest session seated."""

    template_name = "printing/table_cards.html"

    def document_context(self):
        form = TableCardOptionsForm(
            self.request.GET,
            table_count=selectors.tournament_table_count(tournament=self.tournament),
        )
        if not form.is_valid():
            return bad_options_response(self.request, self.tournament, form)
        return documents.table_cards_context(
            tournament=self.tournament,
            site_root=public_site_root(self.request),
            tables=form.tables_wanted(),
        )

    def filename(self) -> str:
        return f"{self.tournament.slug}-table-cards.pdf"


class SeatingPdfView(TournamentMixin, SessionMixin, PdfView):
    """The seating of a session in large type, by player name, to pin on the wall; kept while
    it does not change (``cache_key``: everyone looks for their table as a session starts)."""

    template_name = "printing/seating.html"

    def document_context(self):
        self.session = self.get_session()
        return documents.seating_context(session=self.session)

    def cache_key(self) -> str:
        return f"seating:{self.tournament.pk}:{documents.seating_fingerprint(self.context)}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.session.number}-seating.pdf"


class MatchSheetPdfView(TournamentMixin, PdfView):
    """The sheet of a match as played: public once the match is confirmed, staff before.

    A match's PDF takes seconds to make (a whole match is some 200 turns and 5 boards); it is
    kept under the match's revision, which every write to the match changes.
    """

    template_name = "printing/match_sheet.html"

    @cached_property
    def match(self) -> Match:
        return get_object_or_404(
            Match.objects.select_related("table__session__tournament"),
            pk=self.kwargs["match_id"],
            table__session__tournament=self.tournament,
        )

    def has_permission(self) -> bool:
        return self.match.status == Match.Status.CONFIRMED or is_referee(
            self.request.user, self.tournament
        )

    def cache_key(self) -> str:
        return f"match-sheet:{self.match.pk}:{self.match.revision}:{self.match.status}"

    def document_context(self):
        return documents.match_sheet_context(match=self.match)

    def filename(self) -> str:
        table = self.match.table
        return (
            f"{self.tournament.slug}-session-{table.session.number}-table-{table.number}"
            "-match-sheet.pdf"
        )


class StandingsPdfView(TournamentMixin, PdfView):
    """The standings, printable; kept while they do not change (``cache_key``)."""

    template_name = "printing/standings.html"

    def document_context(self):
        return documents.standings_context(tournament=self.tournament)

    def cache_key(self) -> str:
        """The standings as printed (every row's cells, the tables in play, the tournament's
        name and criteria), hashed: reading them takes milliseconds, the PDF seconds."""
        return f"standings:{self.tournament.pk}:{documents.standings_fingerprint(self.context)}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-standings.pdf"
