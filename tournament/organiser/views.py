"""The organiser's pages: the tournament's settings, its players, its sessions' lifecycle.

Views parse the request, call one service or selector, and render; a refused change shows the
service's message next to its field (forms) or as a message (buttons), and changes nothing.
"""

from __future__ import annotations

import datetime

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View
from django_tables2 import RequestConfig

from tournament.core.mixins import ActionView, message_refusal
from tournament.core.permissions import (
    OrganiserRequiredMixin,
    PermissionMixin,
    can_create_tournament,
    may_edit_person,
)
from tournament.kit.forms import add_service_errors
from tournament.models import (
    Registration,
    Session,
    StaffInvitation,
    StaffRole,
    default_ranking_criteria,
)
from tournament.organiser import selectors, services
from tournament.organiser.forms import (
    CRITERIA_FIELDS,
    PlayerAddForm,
    PlayerForm,
    PlayersImportForm,
    StaffGrantForm,
    StaffUnlockForm,
    TournamentCreateForm,
    TournamentForm,
)
from tournament.organiser.tables import (
    OrganiserRegistrationTable,
    OrganiserSessionTable,
    StaffRoleTable,
)
from tournament.sessions import services as sessions


class TournamentCreateView(PermissionMixin, FormView):
    """/tournaments/new/: superusers and organisers of another tournament create one."""

    template_name = "tournament/organiser/tournament_form.html"
    form_class = TournamentCreateForm

    def has_permission(self) -> bool:
        user = self.request.user
        return user.is_authenticated and can_create_tournament(user)

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


class TournamentEditView(OrganiserRequiredMixin, FormView):
    """/t/<slug>/organise/settings/: name, dates, rule set, target, ranking criteria..."""

    template_name = "tournament/organiser/tournament_form.html"
    form_class = TournamentForm

    def get_initial(self):
        return TournamentForm.initial_from(self.tournament)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "tournament": self.tournament,
                "locked": services.tournament_settings_locked(tournament=self.tournament)}

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
        closed = last is None or last.status == Session.Status.FINISHED
        final_opened = any(session.is_final for session in sessions)
        context.update(
            session_table=table,
            last_session=last,
            can_open_session=closed and not final_opened,
            can_open_final=bool(self.tournament.final_size) and last is not None and closed
            and not final_opened,
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
        context["next_session"] = sessions.next_session_to_seat(tournament=self.tournament)
        context.setdefault("player_form", PlayerAddForm())
        context.setdefault("import_form", PlayersImportForm())
        return context


class PlayersView(PlayersPageMixin, TemplateView):
    """/t/<slug>/organise/players/: GET the page, POST one player."""

    def post(self, request, *args, **kwargs):
        form = PlayerAddForm(request.POST)
        if form.is_valid():
            try:
                registration = services.player_add(tournament=self.tournament,
                                                   user=request.user, **form.cleaned_data)
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
                    tournament=self.tournament, text=form.cleaned_data["file"],
                    user=request.user, same_people=form.cleaned_data["same_people"],
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
            "categories": ", ".join(
                selectors.registration_category_names(registration=registration)),
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        registration = self.get_registration()
        context["registration"] = registration
        context["shared_elsewhere"] = not may_edit_person(user=self.request.user,
                                                          player=registration.player)
        return context

    def form_valid(self, form):
        before = self.get_registration()
        try:
            registration = services.registration_update(
                registration=before, user=self.request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
            return self.form_invalid(form)
        if registration.player_id != before.player_id:
            messages.success(self.request, _(
                "%(player)s is saved for this tournament: their record is shared with "
                "tournaments you do not organise, so this tournament now has a record of its "
                "own (number %(id)s), and the others keep theirs as it was. An organiser of all "
                "of them, or a superuser, can merge the two records."
            ) % {"player": registration.player.name, "id": registration.player_id},
                extra_tags="player-split")
        else:
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


class StaffView(OrganiserRequiredMixin, TemplateView):
    """The organisers and referees of a tournament; an organiser adds or changes them here."""

    template_name = "tournament/staff.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = StaffRoleTable(selectors.tournament_staff(tournament=self.tournament))
        RequestConfig(self.request, paginate=False).configure(table)
        context["staff_table"] = table
        context["invitations"] = selectors.tournament_invitations(tournament=self.tournament)
        context["locked_out"] = selectors.locked_out_staff(tournament=self.tournament)
        context.setdefault("form", StaffGrantForm())
        return context

    def post(self, request, *args, **kwargs):
        form = StaffGrantForm(request.POST)
        if form.is_valid():
            try:
                granted = services.staff_account_grant(
                    tournament=self.tournament, by=request.user, **form.cleaned_data)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                if isinstance(granted, StaffInvitation):
                    messages.success(request, _(
                        "%(username)s is invited as %(role)s: the role starts once the account "
                        "accepts it, after logging in."
                    ) % {"username": granted.username, "role": granted.get_role_display()},
                        extra_tags="staff-invited")
                else:
                    messages.success(
                        request,
                        _("%(username)s is now %(role)s of this tournament.")
                        % {"username": granted.user.get_username(),
                           "role": granted.get_role_display()},
                        extra_tags="staff-granted",
                    )
                return redirect("tournament:staff", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form), status=400)


class StaffInvitationCancelView(OrganiserRequiredMixin, View):
    """POST …/staff/invitations/<id>/cancel/: an invitation taken back."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        invitation = get_object_or_404(StaffInvitation, pk=kwargs["invitation_id"],
                                       tournament=self.tournament)
        services.staff_invitation_cancel(invitation=invitation)
        messages.success(request, _("The invitation of %(username)s is taken back.")
                         % {"username": invitation.username})
        return redirect("tournament:staff", slug=self.tournament.slug)


class InvitationAnswerView(LoginRequiredMixin, View):
    """POST /invitations/<id>/accept/ or …/decline/: the invited account answers (its own
    invitations only: any other is a 404, as one that does not exist)."""

    http_method_names = ["post"]
    accept = True

    def post(self, request, *args, **kwargs):
        invitation = get_object_or_404(
            selectors.invitations_for(user=request.user), pk=kwargs["invitation_id"])
        if self.accept:
            try:
                staff_role = services.staff_invitation_accept(invitation=invitation,
                                                              user=request.user)
            except ValidationError as error:
                message_refusal(request, error)
                return redirect("tournament:my_tables")
            messages.success(request, _("You are now %(role)s of %(tournament)s.") % {
                "role": staff_role.get_role_display(), "tournament": staff_role.tournament.name})
        else:
            services.staff_invitation_decline(invitation=invitation, user=request.user)
            messages.success(request, _("The invitation to %(tournament)s is declined.")
                             % {"tournament": invitation.tournament.name})
        return redirect("tournament:my_tables")


class StaffRevokeView(OrganiserRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        staff_role = get_object_or_404(StaffRole, pk=kwargs["role_id"], tournament=self.tournament)
        try:
            services.staff_role_revoke(staff_role=staff_role)
        except ValidationError as error:
            message_refusal(request, error)
        else:
            messages.success(
                request,
                _("%(username)s no longer has a role in this tournament.")
                % {"username": staff_role.user.get_username()},
            )
        return redirect("tournament:staff", slug=self.tournament.slug)


class StaffUnlockView(OrganiserRequiredMixin, View):
    """POST …/staff/unlock/: a staff account locked out after wrong passwords may log in again."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = StaffUnlockForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest()
        username, address = form.cleaned_data["username"], form.cleaned_data["address"]
        try:
            services.staff_lockout_lift(tournament=self.tournament, username=username,
                                        address=address,
                                        from_address=get_client_ip_address(request))
        except ValidationError as error:
            message_refusal(request, error)
        else:
            messages.success(
                request, _("%(username)s may log in again from %(address)s.")
                % {"username": username, "address": address}
            )
        return redirect("tournament:staff", slug=self.tournament.slug)
