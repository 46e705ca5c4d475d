"""The public pages of the categories' standings and of the club teams (docs/guides/categories.md):
whoever may see the tournament reads them, as the standings."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.core import freshness
from tournament.core.permissions import TournamentMixin
from tournament.kit.cached_pages import CachedPageMixin
from tournament.kit.spreadsheet import TABLE_FORMATS, csv_download, table_download
from tournament.standings.categories import category_standings
from tournament.standings.category_tables import (
    CategoryStandingsTable,
    ClubTeamsTable,
    category_csv,
)
from tournament.standings.selectors import standings
from tournament.standings.tables import csv_choices, csv_dialect
from tournament.standings.teams import club_ranking


class CategoryStandingsView(TournamentMixin, CachedPageMixin, TemplateView):
    """/t/<slug>/standings/categories/<id>/: a category's standings, with the downloads of
    the standings (``?_export=csv``, ``xlsx``, ``ods``); a category of another tournament is
    a 404."""

    template_name = "tournament/standings/category.html"

    def page_version(self) -> int:
        return freshness.page_version(tournament=self.tournament)

    def page(self, request, *args, **kwargs):
        result = standings(tournament=self.tournament)
        categories = category_standings(tournament=self.tournament, result=result)
        category = next((c for c in categories if c.id == kwargs["category_id"]), None)
        if category is None:
            raise Http404
        export_format = request.GET.get("_export")
        stem = f"{self.tournament.slug}-standings-category-{category.id}"
        if export_format == "csv":
            return csv_download(category_csv(rows=category.rows, criteria=result.criteria,
                                             dialect=csv_dialect(request.GET.get("csv"))),
                                filename=f"{stem}.csv")
        table = CategoryStandingsTable.for_criteria(category.rows, result.criteria)
        RequestConfig(request, paginate=False).configure(table)
        if export_format in TABLE_FORMATS:
            return table_download(table, export_format=export_format,
                                  title=str(_("Standings"))[:31], stem=stem)
        return self.render_to_response(self.get_context_data(
            category=category, categories=categories, standings_table=table,
            csv_choices=csv_choices()))


class ClubTeamsView(TournamentMixin, CachedPageMixin, TemplateView):
    """/t/<slug>/standings/clubs/: the clubs ranked by their best N players; a 404 when the
    organiser asked for no club ranking."""

    template_name = "tournament/standings/clubs.html"

    def page_version(self) -> int:
        return freshness.page_version(tournament=self.tournament)

    def page(self, request, *args, **kwargs):
        teams = club_ranking(tournament=self.tournament)
        if teams is None:
            raise Http404
        table = ClubTeamsTable(teams)
        return self.render_to_response(self.get_context_data(teams_table=table))
