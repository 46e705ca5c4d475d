"""The organiser's pages: the tournament's settings, its players, its sessions' lifecycle.

Views parse the request, call one service or selector, and render; a refused change shows the
service's message next to its field (forms) or as a message (buttons), and changes nothing.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from tournament.forms import add_service_errors
from tournament.matches.past_results import past_results_import
from tournament.mixins import ActionView, SessionActionMixin
from tournament.models import Registration, Session, default_ranking_criteria
from tournament.organiser import selectors, services
from tournament.organiser.forms import (
    CRITERIA_FIELDS,
    PlayerForm,
    PlayersImportForm,
    TournamentCreateForm,
    TournamentForm,
    TournamentImportForm,
)
from tournament.organiser.tables import (
    OrganiserRegistrationTable,
    OrganiserSessionTable,
)
from tournament.permissions import OrganiserRequiredMixin, PermissionMixin


class TournamentCreateView(PermissionMixin, FormView):
    """/tournaments/new/: superusers and organisers of another tournament create one."""

    template_name = "tournament/organiser/tournament_form.html"
    form_class = TournamentCreateForm

    def has_permission(self) -> bool:
        user = self.request.user
        return user.is_authenticated and selectors.can_create_tournament(user)

    def get_initial(self):
        initial = {"start_date": datetime.date.today(), "is_public": True}
        initial.update(zip(CRITERIA_FIELDS, default_ranking_criteria(), strict=False))
        return initial

    def form_valid(self, form):
        try:
            tournament = services.tournament_set_up(organiser=self.request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("The tournament is created: now add its players."))
        return redirect("tournament:organise_players", slug=tournament.slug)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class TournamentImportView(PermissionMixin, FormView):
    """/tournaments/import/: a past tournament rebuilt from its records.zip (who may create a
    tournament may import one); the user becomes its organiser."""

    template_name = "tournament/organiser/tournament_import.html"
    form_class = TournamentImportForm

    def has_permission(self) -> bool:
        user = self.request.user
        return user.is_authenticated and selectors.can_create_tournament(user)

    def form_valid(self, form):
        try:
            imported = past_results_import(organiser=self.request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_import_error(error)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("“%(name)s” is imported. Sessions: %(sessions)s; matches: %(matches)s; new "
              "players: %(created)s; players already known here: %(found)s.")
            % {"name": imported.tournament.name, "sessions": imported.sessions,
               "matches": imported.matches, "created": imported.players_created,
               "found": imported.players_found},
            extra_tags="results-imported",
        )
        return redirect(imported.tournament)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class TournamentEditView(OrganiserRequiredMixin, FormView):
    """/t/<slug>/organise/settings/: name, dates, rule set, target, ranking criteria..."""

    template_name = "tournament/organiser/tournament_form.html"
    form_class = TournamentForm

    def get_initial(self):
        return TournamentForm.initial_from(self.tournament)

    def form_valid(self, form):
        try:
            services.tournament_update(tournament=self.tournament, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(self.request, _("The settings are saved."))
        return redirect("tournament:organise", slug=self.tournament.slug)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class OrganiseView(OrganiserRequiredMixin, TemplateView):
    """/t/<slug>/organise/: the sessions, and what to do next."""

    template_name = "tournament/organiser/organise.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        sessions = list(selectors.organiser_sessions(tournament=self.tournament))
        table = OrganiserSessionTable(sessions)
        RequestConfig(self.request, paginate=False).configure(table)
        last = sessions[-1] if sessions else None
        context.update(
            session_table=table,
            last_session=last,
            can_open_session=last is None or last.status == Session.Status.FINISHED,
            next_session_number=(last.number + 1) if last else 1,
            registration_counts=selectors.registration_counts(tournament=self.tournament),
        )
        return context


class PlayersPageMixin(OrganiserRequiredMixin):
    """The players page: the list, the form to add one, the form to import a file."""

    template_name = "tournament/organiser/players.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = OrganiserRegistrationTable(
            selectors.organiser_registrations(tournament=self.tournament)
        )
        RequestConfig(self.request, paginate=False).configure(table)
        context["player_table"] = table
        context["registration_counts"] = selectors.registration_counts(tournament=self.tournament)
        context["next_session"] = services.next_session_to_seat(tournament=self.tournament)
        context.setdefault("player_form", PlayerForm())
        context.setdefault("import_form", PlayersImportForm())
        return context


class PlayersView(PlayersPageMixin, TemplateView):
    """/t/<slug>/organise/players/: GET the page, POST one player."""

    def post(self, request, *args, **kwargs):
        form = PlayerForm(request.POST)
        if form.is_valid():
            try:
                registration = services.player_add(tournament=self.tournament, **form.cleaned_data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request, _("%(player)s is registered.") % {"player": registration.player.name}
                )
                return redirect("tournament:organise_players", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(player_form=form), status=400)


class PlayersImportView(PlayersPageMixin, TemplateView):
    """POST /t/<slug>/organise/players/import/: every player of a CSV file, or none."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = PlayersImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                registrations = services.players_import_csv(
                    tournament=self.tournament, text=form.cleaned_data["file"]
                )
            except ValidationError as error:
                form.add_error("file", error)
            else:
                messages.success(
                    request,
                    _("Players imported: %(count)s.") % {"count": len(registrations)},
                )
                return redirect("tournament:organise_players", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(import_form=form), status=400)


class RegistrationMixin(OrganiserRequiredMixin):
    def get_registration(self) -> Registration:
        return get_object_or_404(
            Registration.objects.select_related("player"),
            pk=self.kwargs["registration_id"],
            tournament=self.tournament,
        )


class RegistrationEditView(RegistrationMixin, FormView):
    """/t/<slug>/organise/players/<id>/: correct a player, or the session they start from."""

    template_name = "tournament/organiser/registration_form.html"
    form_class = PlayerForm

    def get_initial(self):
        registration = self.get_registration()
        return {
            "name": registration.player.name,
            "club": registration.player.club,
            "licence": registration.player.licence,
            "first_session": registration.first_session,
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["registration"] = self.get_registration()
        return context

    def form_valid(self, form):
        try:
            registration = services.registration_update(
                registration=self.get_registration(), **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        messages.success(
            self.request, _("%(player)s is saved.") % {"player": registration.player.name}
        )
        return redirect("tournament:organise_players", slug=self.tournament.slug)

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class RegistrationWithdrawView(RegistrationMixin, ActionView):
    def act(self):
        return services.registration_withdraw(registration=self.get_registration())

    def success_message(self, registration):
        return _("%(player)s has withdrawn: not seated from the next seating on.") % {
            "player": registration.player.name
        }

    def next_url(self, result=None):
        return reverse("tournament:organise_players", kwargs={"slug": self.tournament.slug})


class RegistrationReinstateView(RegistrationWithdrawView):
    def act(self):
        return services.registration_reinstate(registration=self.get_registration())

    def success_message(self, registration):
        return _("%(player)s is back: seated from the next seating on.") % {
            "player": registration.player.name
        }


class SessionOpenView(ActionView):
    def act(self):
        return services.session_open(tournament=self.tournament)

    def success_message(self, session):
        return _("Session %(number)s is open: seat the players.") % {"number": session.number}

    def next_url(self, result=None):
        if result is None:
            return reverse("tournament:organise", kwargs={"slug": self.tournament.slug})
        return reverse(
            "tournament:session_organise",
            kwargs={"slug": self.tournament.slug, "number": result.number},
        )


class SessionStartView(SessionActionMixin, ActionView):
    def act(self):
        return services.session_start(session=self.session)

    def success_message(self, session):
        return _("Session %(number)s has started: its seating is final.") % {
            "number": session.number
        }


class SessionCloseView(SessionActionMixin, ActionView):
    def act(self):
        return services.session_close(session=self.session, user=self.request.user)

    def success_message(self, session):
        return _("Session %(number)s is closed: its results are in the standings.") % {
            "number": session.number
        }
