"""The printed documents as PDF (and, with ``?html``, as the HTML they are made from).

Who may print what:
- blank score sheets and the table cards: the tournament's organisers and referees;
- the sheet of a match: everyone once the match is confirmed, its staff before that;
- the seating of a session and the standings: whoever may see the tournament.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import get_language
from django.views.generic import View

from tournament.kept import Made, etag, kept
from tournament.models import Match, Session
from tournament.permissions import (
    RefereeRequiredMixin,
    TournamentMixin,
    is_referee,
    refereed_tables,
)
from tournament.printing import documents, pdf, selectors
from tournament.printing.forms import ScoreSheetOptionsForm, TableCardOptionsForm
from tournament.printing.pdf import render_pdf
from tournament.templatetags.dates import long_datetime

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


#: Stands for the time a kept document is printed at, in its HTML (``printed_at``): the
#: HTML without it says what the document shows, whenever it is printed.
PRINTED_AT_MARKER = "printed-at-time-marker"
#: How long a reader waits for the first copy of a document another worker is making.
PDF_WAIT_SECONDS = 60.0


class PdfView(View):
    """Renders ``template_name`` with :meth:`document_context` as a PDF; ``?html`` shows the
    HTML instead (a preview in the browser, with the same stylesheet).

    A document asked for again and again (a confirmed match's sheet, the seating as a session
    starts, the standings as it ends: every phone of the room) names itself in
    :meth:`kept_name` and is kept once made (:func:`tournament.kept.kept`, shared by every
    worker): until the tournament's next write, the kept PDF is sent as it is; after a write,
    the document's HTML is made again (milliseconds) and, when it says the same, the kept PDF
    stays; when it differs, one worker makes the new PDF (seconds) while the others send the
    one before, which prints the time it was made (``printed_at``; ``Last-Modified`` too).
    Nothing in the key or the document comes from the request but the language: the kept
    documents print no address (their stylesheet is read from disk whatever the site's root).
    """

    http_method_names = ("get", "head")
    template_name = ""

    def document_context(self) -> dict | HttpResponse:
        """The template's context, or a response that refuses (a bad option, say)."""
        raise NotImplementedError

    @cached_property
    def context(self) -> dict | HttpResponse:
        """:meth:`document_context`, made once a request."""
        return self.document_context()

    def kept_name(self) -> str | None:
        """What this document is (e.g. ``standings:<tournament>``), to keep it under; None:
        made at each request. The language is added to it."""
        return None

    def filename(self) -> str:
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        if "html" not in request.GET and (name := self.kept_name()) is not None:
            return self.kept_response(request, f"printing:{name}:{get_language()}")
        context = self.context
        if isinstance(context, HttpResponse):
            return context
        context = {**context, "printed_at": self.printed_at()}
        if "html" in request.GET:
            return TemplateResponse(request, self.template_name, context)
        return self.pdf_response(render_pdf(self.template_name, context, request=request))

    def kept_response(self, request, key: str) -> HttpResponse:
        version = self.tournament.data_version
        copy_etag = etag(key, version)
        not_modified = get_conditional_response(request, etag=copy_etag)
        if not_modified is not None:
            not_modified["ETag"] = copy_etag
            return not_modified
        html: list[str] = []

        def shown() -> str:
            html.append(render_to_string(
                self.template_name, {**self.context, "printed_at": PRINTED_AT_MARKER},
                request=request,
            ))
            return hashlib.sha256(html[0].encode()).hexdigest()

        def make() -> bytes:
            printed = html[0].replace(PRINTED_AT_MARKER, self.printed_at())
            return pdf.html_to_pdf(printed, site_root=pdf.DEFAULT_SITE_ROOT)

        made: Made = kept(
            key=key, version=version, make=make, digest=shown, wait_seconds=PDF_WAIT_SECONDS
        )
        response = self.pdf_response(made.content)
        response["Last-Modified"] = http_date(made.made_at.timestamp())
        if made.version >= version:
            response["ETag"] = copy_etag
        return response

    @staticmethod
    def printed_at() -> str:
        """Now, as the documents print it (the venue's time zone, ``long_datetime``)."""
        return long_datetime(timezone.now())

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
    it does not change (``kept_name``: everyone looks for their table as a session starts)."""

    template_name = "printing/seating.html"

    def document_context(self):
        self.session = self.get_session()
        return documents.seating_context(session=self.session)

    def kept_name(self) -> str:
        return f"seating:{self.tournament.pk}:{self.kwargs['number']}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.kwargs['number']}-seating.pdf"


class MatchSheetPdfView(TournamentMixin, PdfView):
    """The sheet of a match as played: public once the match is confirmed, staff before.

    A match's PDF takes seconds to make (a whole match is some 200 turns and 5 boards): it is
    kept (``kept_name``), and made again only when what it shows changes.
    """

    template_name = "printing/match_sheet.html"

    def get(self, request, *args, **kwargs):
        self.match = get_object_or_404(
            Match.objects.select_related("table__session__tournament"),
            pk=self.kwargs["match_id"],
            table__session__tournament=self.tournament,
        )
        if self.match.status != Match.Status.CONFIRMED and not is_referee(
            request.user, self.tournament
        ):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        return super().get(request, *args, **kwargs)

    def kept_name(self) -> str:
        return f"match-sheet:{self.tournament.pk}:{self.match.pk}"

    def document_context(self):
        return documents.match_sheet_context(match=self.match)

    def filename(self) -> str:
        table = self.match.table
        return (
            f"{self.tournament.slug}-session-{table.session.number}-table-{table.number}"
            "-match-sheet.pdf"
        )


class StandingsPdfView(TournamentMixin, PdfView):
    """The standings, printable; kept while they do not change (``kept_name``)."""

    template_name = "printing/standings.html"

    def document_context(self):
        return documents.standings_context(tournament=self.tournament)

    def kept_name(self) -> str:
        return f"standings:{self.tournament.pk}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-standings.pdf"
