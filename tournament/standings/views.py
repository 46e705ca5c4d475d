"""The public standings page: live (htmx polling while a session is in play), sortable,
CSV, XLSX and ODS."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.core import freshness
from tournament.core.mixins import poll_seconds
from tournament.core.permissions import TournamentMixin
from tournament.kit.cached_pages import CachedPageMixin
from tournament.kit.spreadsheet import TABLE_FORMATS, csv_download, table_download
from tournament.standings.categories import tournament_categories
from tournament.standings.selectors import standings
from tournament.standings.tables import StandingsTable, csv_choices, csv_dialect, standings_csv


def csv_response(result, *, slug: str, dialect: str, check_in: bool = False) -> HttpResponse:
    """The standings as a CSV download, written straight from the rows: no table is built for
    it."""
    return csv_download(standings_csv(rows=result.rows, criteria=result.criteria,
                                      dialect=dialect, final=result.final_decided,
                                      check_in=check_in),
                        filename=f"{slug}-standings.csv")


def final_standings_table(result, *, request) -> StandingsTable | None:
    """The final's places as a table of their own (sorted apart: ``final-`` parameters), or
    None while the final is not decided (docs/guides/final.md)."""
    if not result.final_decided:
        return None
    table = StandingsTable.for_criteria(
        result.final_rows, result.criteria, prefix="final-",
        attrs={**StandingsTable.Meta.attrs, "id": "standings-final"})
    RequestConfig(request, paginate=False).configure(table)
    return table


class PublicStandingsView(TournamentMixin, CachedPageMixin, TemplateView):
    """/t/<slug>/standings/: everyone reads it; ``?_export=csv`` downloads it written from the
    rows (``&csv=semicolon`` or ``comma``; by default the one the page's language opens in
    columns), ``?_export=xlsx`` or ``ods`` through django-tables2's ``TableExport`` (tablib), whose
    numbers a spreadsheet reads in its own language (a French one too, where a CSV's commas are
    not the separator).

    An htmx request (the page polling itself) gets only the live fragment. The public's page
    and fragment are kept until the next write (``CachedPageMixin``).
    """

    template_name = "tournament/standings/standings.html"
    fragment_template_name = "tournament/standings/_live.html"

    #: A poll with nothing new is one read.
    version_read = freshness.results_version_read

    def page_version(self) -> int:
        """The results only: a turn that changes no match's state leaves the page as it is."""
        return freshness.page_version(tournament=self.tournament)

    def page(self, request, *args, **kwargs):
        result = standings(tournament=self.tournament)
        export_format = request.GET.get("_export")
        if export_format == "csv":
            return csv_response(result, slug=self.tournament.slug,
                                dialect=csv_dialect(request.GET.get("csv")),
                                check_in=self.tournament.uses_check_in)
        exporting = export_format in TABLE_FORMATS
        # The page shows the final's places in a table of their own (docs/guides/final.md); the
        # exports hold every row in one, with a column saying which part placed it.
        table = StandingsTable.for_criteria(
            result.rows if exporting else result.qualifying_rows, result.criteria,
            final=exporting and result.final_decided, check_in=self.tournament.uses_check_in)
        RequestConfig(request, paginate=False).configure(table)
        if exporting:
            return table_download(table, export_format=export_format, title=str(_("Standings")),
                                  stem=f"{self.tournament.slug}-standings")
        final_table = final_standings_table(result, request=request)
        context = self.get_context_data(
            standings=result, standings_table=table, final_table=final_table,
            ranked_count=result.ranked_count,
            poll_seconds=poll_seconds(), csv_choices=csv_choices(),
            categories=tournament_categories(tournament=self.tournament),
        )
        if request.htmx:
            return self.response_class(request, self.fragment_template_name, context)
        return self.render_to_response(context)
