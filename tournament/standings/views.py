"""The public standings page: live (htmx polling while a session is in play), sortable,
CSV, XLSX and ODS."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from tournament.permissions import TournamentMixin
from tournament.standings.selectors import standings
from tournament.standings.tables import StandingsTable, standings_csv

POLL_SECONDS = 15


def poll_seconds() -> int:
    """How often the live pages refresh themselves: every 15 seconds
    (``TRIOMINOS_POLL_SECONDS`` in the settings overrides it, e.g. for the browser tests)."""
    return getattr(settings, "TRIOMINOS_POLL_SECONDS", POLL_SECONDS)


#: ``?_export=`` formats: CSV written from the rows, the others through django-tables2.
EXPORT_FORMATS = ("csv", TableExport.XLSX, TableExport.ODS)


def export_response(result, table, *, export_format: str, slug: str) -> HttpResponse:
    """The standings as a download: CSV (UTF-8 with a BOM, for spreadsheets) written straight
    from the rows; XLSX and ODS through django-tables2's ``TableExport`` (tablib), whose
    numbers a spreadsheet reads in its own language (a French one too: a CSV's commas are
    not its separator)."""
    filename = f"{slug}-standings.{export_format}"
    if export_format != "csv":
        export = TableExport(export_format, table, dataset_kwargs={"title": str(_("Standings"))})
        return export.response(filename=filename)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff" + standings_csv(rows=result.rows, criteria=result.criteria))
    return response


class PublicStandingsView(TournamentMixin, TemplateView):
    """/t/<slug>/standings/: everyone reads it; ``?_export=csv`` (or ``xlsx``, ``ods``)
    downloads it.

    An htmx request (the page polling itself) gets only the live fragment.
    """

    template_name = "tournament/standings/standings.html"
    fragment_template_name = "tournament/standings/_live.html"
    http_method_names = ["get", "head"]

    def get(self, request, *args, **kwargs):
        result = standings(tournament=self.tournament)
        table = StandingsTable.for_criteria(result.rows, result.criteria)
        RequestConfig(request, paginate=False).configure(table)
        if (export_format := request.GET.get("_export")) in EXPORT_FORMATS:
            return export_response(
                result, table, export_format=export_format, slug=self.tournament.slug
            )
        context = self.get_context_data(
            standings=result, standings_table=table, poll_seconds=poll_seconds()
        )
        if request.htmx:
            return self.response_class(request, self.fragment_template_name, context)
        return self.render_to_response(context)
