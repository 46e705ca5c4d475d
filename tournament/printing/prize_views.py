"""The prize list as a PDF, one click from the standings (docs/guides/categories.md): whoever may
see the tournament reads it, as the standings."""

from __future__ import annotations

from tournament.core.permissions import TournamentMixin
from tournament.kit.pdf import PdfView
from tournament.printing import prizes


class PrizeListPdfView(TournamentMixin, PdfView):
    """/t/<slug>/prizes.pdf: the first places overall, in each category and among the clubs;
    kept while nothing it prints changes."""

    template_name = "printing/prize_list.html"

    def document_context(self):
        return prizes.prize_list_context(tournament=self.tournament)

    def cache_name(self) -> str:
        return f"prizes:{self.tournament.pk}"

    def filename(self) -> str:
        return f"{self.tournament.slug}-prizes.pdf"
