"""The printed documents as PDF (and, with ``?html``, as the HTML they are made from).

Who may print what:
- blank score sheets and the table cards: the tournament's organisers and referees;
- the sheet of a match: everyone once the match is confirmed, its staff before that;
- the seating of a session and the standings: whoever may see the tournament.
"""

from __future__ import annotations

from functools import cached_property

from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse

from tournament.core.permissions import (
    RefereeRequiredMixin,
    TournamentMixin,
    is_referee,
    refereed_tables,
)
from tournament.kit.addresses import public_site_root
from tournament.kit.pdf import PdfView
from tournament.models import Match, Session
from tournament.printing import documents, prizes, selectors
from tournament.printing.forms import ScoreSheetOptionsForm, TableCardOptionsForm


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
    it does not change (``cache_name``: everyone looks for their table as a session starts)."""

    template_name = "printing/seating.html"

    def document_context(self):
        self.session = self.get_session()
        return documents.seating_context(session=self.session)

    def cache_name(self) -> str:
        return f"seating:{self.tournament.pk}:{self.kwargs['number']}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-session-{self.kwargs['number']}-seating.pdf"


class MatchReportPdfView(TournamentMixin, PdfView):
    """The sheet of a match as played: public once the match is confirmed, staff before.

    A match's PDF takes seconds to make (a whole match is some 200 turns and 5 boards): it is
    kept (``cache_name``), and made again only when what it shows changes.
    """

    template_name = "printing/match_report.html"

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

    def cache_name(self) -> str:
        return f"match-sheet:{self.tournament.pk}:{self.match.pk}"

    def document_context(self):
        return documents.match_report_context(match=self.match)

    def filename(self) -> str:
        table = self.match.table
        return (
            f"{self.tournament.slug}-session-{table.session.number}-table-{table.number}"
            "-match-sheet.pdf"
        )


class StandingsPdfView(TournamentMixin, PdfView):
    """The standings, printable; kept while they do not change (``cache_name``)."""

    template_name = "printing/standings.html"

    def document_context(self):
        context = documents.standings_context(tournament=self.tournament)
        return {**context, **prizes.standings_sections(tournament=self.tournament,
                                                       result=context["standings"])}

    def cache_name(self) -> str:
        return f"standings:{self.tournament.pk}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-standings.pdf"
