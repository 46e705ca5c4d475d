"""The public standings page: live (htmx polling while a session is in play), sortable, CSV."""

from __future__ import annotations

import csv

from django.conf import settings
from django.http import HttpResponse
from django.utils.text import capfirst
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.permissions import TournamentMixin
from tournament.public.kept_pages import KeptPageMixin
from tournament.standings.selectors import standings
from tournament.standings.tables import StandingsTable

POLL_SECONDS = 15


def poll_seconds() -> int:
    """How often the live pages refresh themselves: every 15 seconds
    (``TRIOMINOS_POLL_SECONDS`` in the settings overrides it, e.g. for the browser tests)."""
    return getattr(settings, "TRIOMINOS_POLL_SECONDS", POLL_SECONDS)


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


class PublicStandingsView(TournamentMixin, KeptPageMixin, TemplateView):
    """/t/<slug>/standings/: everyone reads it; ``?_export=csv`` downloads it.

    An htmx request (the page polling itself) gets only the live fragment. The public's page
    and fragment are kept until the next write (``KeptPageMixin``).
    """

    template_name = "tournament/standings/standings.html"
    fragment_template_name = "tournament/standings/_live.html"
    def page(self, request, *args, **kwargs):
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
