"""The league pages: the list, a league's page with its ranking (CSV, XLSX, ODS, PDF), and
the organisers' pages (create, edit, add and remove a tournament).

Who may: everyone reads a public league; a private one is a 404 to all but its organisers
(and superusers). Its organisers change it; anonymous users go to the login page, others get a
403 (``tournament.core.permissions.PermissionMixin``).
"""

from __future__ import annotations

from functools import cached_property

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View
from django_tables2 import RequestConfig

from tournament.core.mixins import message_refusal
from tournament.core.permissions import (
    PermissionMixin,
    can_create_league,
    can_view_league,
    is_league_organiser,
)
from tournament.kit.forms import add_service_errors
from tournament.kit.pdf import PdfView, readers_key
from tournament.kit.spreadsheet import TABLE_FORMATS, csv_download, table_download
from tournament.kit.tables import RANKING_TEXT_COLUMNS
from tournament.leagues import selectors, services
from tournament.leagues.forms import LeagueCreateForm, LeagueForm, LeagueTournamentForm
from tournament.leagues.tables import (
    LeagueRankingTable,
    LeagueTable,
    ranking_csv,
    ranking_records,
    rule_words,
    tournament_column,
)
from tournament.models import League

#: Beyond this many tournaments, the printed ranking turns landscape.
PRINT_PORTRAIT_TOURNAMENTS = 4


class LeagueMixin(PermissionMixin):
    """Loads ``self.league`` from the ``slug`` in the URL; a private league is a 404 to
    whoever may not see it, then ``has_permission()``."""

    league: League

    def dispatch(self, request, *args, **kwargs):
        self.league = get_object_or_404(League, slug=kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)

    def access_refusal(self, request):
        if not can_view_league(request.user, self.league):
            raise Http404
        return super().access_refusal(request)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["league"] = self.league
        context["user_is_league_organiser"] = is_league_organiser(
            self.request.user, self.league
        )
        return context


class LeagueOrganiserMixin(LeagueMixin):
    def has_permission(self) -> bool:
        return is_league_organiser(self.request.user, self.league)


class LeagueListView(TemplateView):
    """/leagues/: the public leagues, and the user's own."""

    template_name = "tournament/leagues/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = LeagueTable(selectors.visible_leagues(user=self.request.user))
        RequestConfig(self.request, paginate=False).configure(table)
        context["league_table"] = table
        context["can_create_league"] = can_create_league(self.request.user)
        return context


class LeagueCreateView(PermissionMixin, FormView):
    """/leagues/new/: superusers and the organisers of a tournament create a league."""

    template_name = "tournament/leagues/league_form.html"
    form_class = LeagueCreateForm

    def has_permission(self) -> bool:
        return can_create_league(self.request.user)

    def get_initial(self):
        return {"is_public": True, "points_scale": League.PointsScale.LINEAR}

    def form_valid(self, form):
        try:
            league = services.league_create(user=self.request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("The league is created: now add its tournaments."))
        return redirect(league)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LeagueEditView(LeagueOrganiserMixin, FormView):
    """/leagues/<slug>/edit/: the name, the description, the rule, public or not."""

    template_name = "tournament/leagues/league_form.html"
    form_class = LeagueForm

    def get_initial(self):
        return LeagueForm.initial_from(self.league)

    def form_valid(self, form):
        try:
            league = services.league_update(
                league=self.league, user=self.request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("The league is saved."))
        return redirect(league)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LeaguePageMixin(LeagueMixin):
    """The league's page: its tournaments, its ranking, and for its organisers the form to
    add a tournament."""

    template_name = "tournament/leagues/league.html"

    @cached_property
    def standing(self) -> selectors.LeagueStanding:
        return selectors.league_standing(league=self.league, user=self.request.user)

    def ranking_table(self) -> LeagueRankingTable:
        tournaments = [item.tournament for item in self.standing.tournaments]
        records = ranking_records(self.standing.rows, [t.pk for t in tournaments])
        table = LeagueRankingTable.for_tournaments(records, tournaments)
        RequestConfig(self.request, paginate=False).configure(table)
        return table

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        standing = self.standing
        context.update(
            standing=standing,
            ranking_table=self.ranking_table(),
            rule_words=rule_words(standing.rule),
            period=selectors.league_period(standing.tournaments),
            ratings_url=reverse("tournament:league_ratings", kwargs={"slug": self.league.slug}),
        )
        if context["user_is_league_organiser"] and "tournament_form" not in context:
            context["tournament_form"] = LeagueTournamentForm(
                tournaments=selectors.addable_tournaments(user=self.request.user,
                                                          league=self.league)
            )
        return context


class LeagueView(LeaguePageMixin, TemplateView):
    """/leagues/<slug>/: ``?_export=csv`` downloads the ranking written from the rows,
    ``?_export=xlsx`` or ``ods`` through django-tables2's ``TableExport``."""

    def get(self, request, *args, **kwargs):
        export_format = request.GET.get("_export")
        if export_format == "csv":
            tournaments = [item.tournament for item in self.standing.tournaments]
            records = ranking_records(self.standing.rows, [t.pk for t in tournaments])
            return csv_download(ranking_csv(records=records, tournaments=tournaments),
                                filename=f"{self.league.slug}-ranking.csv")
        if export_format in TABLE_FORMATS:
            return table_download(self.ranking_table(), export_format=export_format,
                                  title=str(_("Ranking")), stem=f"{self.league.slug}-ranking")
        return super().get(request, *args, **kwargs)


class LeagueTournamentAddView(LeagueOrganiserMixin, LeaguePageMixin, TemplateView):
    """POST /leagues/<slug>/tournaments/add/: a tournament the user organises joins the
    league; a refusal shows the page again with the message next to the field (400)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = LeagueTournamentForm(
            request.POST,
            tournaments=selectors.addable_tournaments(user=request.user, league=self.league),
        )
        if form.is_valid():
            try:
                tournament = services.league_tournament_add(
                    league=self.league, tournament=form.cleaned_data["tournament"],
                    user=request.user,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, _("%(tournament)s is now in the league.")
                                 % {"tournament": tournament.name})
                return redirect(self.league)
        return self.render_to_response(self.get_context_data(tournament_form=form), status=400)


class LeagueTournamentRemoveView(LeagueOrganiserMixin, View):
    """POST /leagues/<slug>/tournaments/remove/ (``tournament``: its slug): the tournament
    leaves the league (its results leave the ranking); a refusal is a message; a tournament
    not in the league, a 404."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = LeagueTournamentForm(request.POST, tournaments=self.league.tournaments.all())
        if not form.is_valid():
            raise Http404
        tournament = form.cleaned_data["tournament"]
        try:
            services.league_tournament_remove(
                league=self.league, tournament=tournament, user=request.user
            )
        except ValidationError as error:
            message_refusal(request, error)
        else:
            messages.success(request, _("%(tournament)s is no longer in the league.")
                             % {"tournament": tournament.name})
        return redirect(self.league)


class LeagueRankingPdfView(LeagueMixin, PdfView):
    """/leagues/<slug>/ranking.pdf: the ranking, printable, as the reader may see it (the
    public: its public tournaments). Kept once made and compared by what it shows
    (``PdfView.data_version`` None: the league spans tournaments), made again by one worker
    at a time when that changed."""

    template_name = "printing/league_ranking.html"

    @cached_property
    def standing(self) -> selectors.LeagueStanding:
        return selectors.league_standing(league=self.league, user=self.request.user)

    def cache_name(self) -> str:
        shown = readers_key(item.id for item in self.standing.tournaments)
        return f"league:{self.league.pk}:{shown}"

    def data_version(self) -> None:
        return None

    def document_context(self):
        standing = self.standing
        tournaments = [
            # Translators: short for the n-th tournament of a league, in the printed ranking.
            (tournament_column(item.id), _("T%(number)s") % {"number": number}, item)
            for number, item in enumerate(standing.tournaments, start=1)
        ]
        columns = [
            ("rank", _("rank")), ("name", _("player")), ("club", _("club")),
            *[(name, short) for name, short, _item in tournaments],
            ("total", _("points")),
        ]
        records = ranking_records(standing.rows, [item.id for item in standing.tournaments])
        rows = [
            {
                "podium": record["rank"] <= 3,
                "cells": [(name, record["rank_label" if name == "rank" else name])
                          for name, _header in columns],
            }
            for record in records
        ]
        return {
            "league": self.league,
            "standing": standing,
            "tournaments": [(short, item) for _name, short, item in tournaments],
            "columns": columns,
            "text_columns": RANKING_TEXT_COLUMNS,
            "rows": rows,
            "rule_words": rule_words(standing.rule),
            "period": selectors.league_period(standing.tournaments),
            "wide": len(tournaments) > PRINT_PORTRAIT_TOURNAMENTS,
        }

    def filename(self) -> str:
        return f"{self.league.slug}-ranking.pdf"
