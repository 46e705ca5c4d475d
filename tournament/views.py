"""Views: parse the request, call one service or selector, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View
from django_tables2 import RequestConfig

from tournament import selectors, services
from tournament.forms import StaffGrantForm, add_service_errors
from tournament.models import StaffRole
from tournament.permissions import OrganiserRequiredMixin, TournamentMixin
from tournament.tables import RegistrationTable, SessionTable, StaffRoleTable, TournamentTable


class HomeView(TemplateView):
    """The tournaments: public ones, plus the private ones of the user's staff roles."""

    template_name = "tournament/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = TournamentTable(selectors.tournaments_visible_to(self.request.user))
        RequestConfig(self.request, paginate=False).configure(table)
        context["tournament_table"] = table
        return context


class MyTablesView(LoginRequiredMixin, TemplateView):
    """/my-tables/: where a referee lands after logging in: the tables they may enter, the
    sessions in play first."""

    template_name = "tournament/my_tables.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(groups=selectors.staff_tables(user=self.request.user),
                                        **kwargs)


class TournamentDetailView(TournamentMixin, TemplateView):
    """A tournament: its settings, sessions and players."""

    template_name = "tournament/detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        session_table = SessionTable(
            selectors.tournament_sessions(tournament=self.tournament), prefix="session-"
        )
        player_table = RegistrationTable(
            selectors.tournament_registrations(tournament=self.tournament), prefix="player-"
        )
        config = RequestConfig(self.request, paginate=False)
        config.configure(session_table)
        config.configure(player_table)
        context["session_table"] = session_table
        context["player_table"] = player_table
        return context


class StaffView(OrganiserRequiredMixin, TemplateView):
    """The organisers and referees of a tournament; an organiser adds or changes them here."""

    template_name = "tournament/staff.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = StaffRoleTable(selectors.tournament_staff(tournament=self.tournament))
        RequestConfig(self.request, paginate=False).configure(table)
        context["staff_table"] = table
        context.setdefault("form", StaffGrantForm())
        return context

    def post(self, request, *args, **kwargs):
        form = StaffGrantForm(request.POST)
        if form.is_valid():
            try:
                staff_role = services.staff_account_grant(tournament=self.tournament, **form.cleaned_data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    _("%(username)s is now %(role)s of this tournament.")
                    % {"username": staff_role.user.get_username(), "role": staff_role.get_role_display()},
                )
                return redirect("tournament:staff", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=400)


class StaffRevokeView(OrganiserRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        staff_role = get_object_or_404(StaffRole, pk=kwargs["role_id"], tournament=self.tournament)
        try:
            services.staff_role_revoke(staff_role=staff_role)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(
                request,
                _("%(username)s no longer has a role in this tournament.")
                % {"username": staff_role.user.get_username()},
            )
        return redirect("tournament:staff", slug=self.tournament.slug)

