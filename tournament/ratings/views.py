"""The ratings' pages: every rated player (``/ratings/``) and a league's players
(``/leagues/<slug>/ratings/``), each as a page, a CSV, XLSX or ODS download
(``?_export=csv``, ``xlsx``, ``ods``, as the standings) and a PDF.

A league's ratings are read by everyone when the league is public, by its organisers and
the superusers otherwise; a private or unknown league is a 404 to the others.
"""

from __future__ import annotations

from functools import cached_property

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.core.permissions import visible_tournament_ids
from tournament.kit.pdf import PdfView, readers_key
from tournament.kit.spreadsheet import TABLE_FORMATS, csv_download, table_download
from tournament.kit.tables import RANKING_TEXT_COLUMNS
from tournament.models import League
from tournament.ratings.model import PROVISIONAL_MATCHES
from tournament.ratings.selectors import league_for_ratings, ratings_rows
from tournament.ratings.tables import PROVISIONAL, RatingsTable, print_rows, ratings_csv

#: The printed ratings' columns (``printing/_ranking_table.html``), keys of ``print_rows``.
PRINT_COLUMNS = (
    ("rank", gettext_lazy("rank")),
    ("name", gettext_lazy("player")),
    ("club", gettext_lazy("club")),
    ("conservative", gettext_lazy("rating")),
    ("mu", gettext_lazy("mean")),
    ("sigma", gettext_lazy("uncertainty")),
    ("matches", gettext_lazy("matches")),
    ("change", gettext_lazy("change at the last event")),
)
PRINT_TEXT_COLUMNS = RANKING_TEXT_COLUMNS | {"change"}
#: The printed mark of a provisional rating (``printing/_ranking_table.html``'s ``tag``): after
#: the player's name, as "withdrawn" in the standings, whose column wraps (the rating's is
#: a figure's, too narrow for it).
PROVISIONAL_TAG = {"column": "name", "name": "provisional", "text": PROVISIONAL}


class RatingsMixin:
    """The league of the address (None for every rated player), and the rows."""

    @cached_property
    def league(self) -> League | None:
        slug = self.kwargs.get("slug")
        return None if slug is None else league_for_ratings(slug=slug, user=self.request.user)

    def rows(self) -> list[dict]:
        return ratings_rows(league=self.league, user=self.request.user)

    def file_stem(self) -> str:
        return f"{self.league.slug}-ratings" if self.league else "ratings"

    def pdf_url(self) -> str:
        if self.league is None:
            return reverse("tournament:ratings_pdf")
        return reverse("tournament:league_ratings_pdf", kwargs={"slug": self.league.slug})


class RatingsView(RatingsMixin, TemplateView):
    """/ratings/ and /leagues/<slug>/ratings/: the players' ratings, best first."""

    template_name = "tournament/ratings/ratings.html"

    def get(self, request, *args, **kwargs):
        rows = self.rows()
        export_format = request.GET.get("_export")
        if export_format == "csv":
            return csv_download(ratings_csv(rows=rows), filename=f"{self.file_stem()}.csv")
        table = RatingsTable(rows)
        RequestConfig(request, paginate=False).configure(table)
        if export_format in TABLE_FORMATS:
            return table_download(table, export_format=export_format, title=str(_("Ratings")),
                                  stem=self.file_stem())
        return self.render_to_response(self.get_context_data(
            league=self.league, ratings_table=table, player_count=len(rows),
            pdf_url=self.pdf_url(), provisional_matches=PROVISIONAL_MATCHES,
        ))


class RatingsPdfView(RatingsMixin, PdfView):
    """/ratings.pdf and /leagues/<slug>/ratings.pdf: the ratings, printable. They follow every
    confirmation of every tournament, which no one data version does: kept once made and
    compared by what they show (``PdfView.data_version`` None), made again by one worker at a
    time when that changed, the others sending the copy before meanwhile."""

    template_name = "printing/ratings.html"

    def cache_name(self) -> str:
        if self.league is None:
            return "ratings"
        visible = visible_tournament_ids(user=self.request.user,
                                         tournaments=self.league.tournaments.all())
        return f"ratings:league:{self.league.pk}:{readers_key(visible)}"

    def data_version(self) -> None:
        return None

    def document_context(self) -> dict:
        rows = self.rows()
        return {
            "league": self.league,
            "columns": PRINT_COLUMNS,
            "text_columns": PRINT_TEXT_COLUMNS,
            "rows": [
                {"cells": [(name, row[name]) for name, _header in PRINT_COLUMNS],
                 "tag": PROVISIONAL_TAG if row["provisional"] else None}
                for row in print_rows(rows)
            ],
            "player_count": len(rows),
            "provisional_matches": PROVISIONAL_MATCHES,
        }

    def filename(self) -> str:
        return f"{self.file_stem()}.pdf"
