"""The public standings page: live (htmx polling while a session is in play), sortable, CSV."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.utils.text import capfirst
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.mixins import poll_seconds
from tournament.permissions import TournamentMixin
from tournament.standings.selectors import standings
from tournament.standings.tables import StandingsTable


def csv_response(table, *, filename: str) -> HttpResponse:
    """A django-tables2 table as a CSV download (UTF-8 with a BOM, for spreadsheets)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    rows = iter(table.as_values())
    writer.writerow([capfirst(str(header)) for header in next(rows)])
    writer.writerows(rows)
    return response


class PublicStandingsView(TournamentMixin, TemplateView):
    """/t/<slug>/standings/: everyone reads it; ``?_export=csv`` downloads it.

    An htmx request (the page polling itself) gets only the live fragment.
    """

    template_name = "tournament/standings/standings.html"
    fragment_template_name = "tournament/standings/_live.html"
    http_method_names = ["get", "head"]

    def get(self, request, *args, **kwargs):
        result = standings(tournament=self.tournament)
        table = StandingsTable.for_criteria(result.rows, result.criteria)
        RequestConfig(request, paginate=False).configure(table)
        if request.GET.get("_export") == "csv":
            return csv_response(table, filename=f"{self.tournament.slug}-standings.csv")
        context = self.get_context_data(
            standings=result, standings_table=table, poll_seconds=poll_seconds()
        )
        if request.htmx:
            return self.response_class(request, self.fragment_template_name, context)
        return self.render_to_response(context)
