"""The organiser's page of a session: draw the seating, see the repeats, swap, start, see the
tables awaiting a referee, close."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.core.mixins import SessionActionMixin, message_refusal
from tournament.core.permissions import OrganiserRequiredMixin
from tournament.kit.forms import add_service_errors
from tournament.models import Player, Session
from tournament.seating import selectors, services
from tournament.seating.forms import SeatingMethodForm, SwapForm
from tournament.seating.tables import SeatingTable
from tournament.sessions import services as sessions
from tournament.sessions.forms import SessionReopenForm


def swap_choices(tables: list[dict]) -> list[tuple[int, str]]:
    """The seated players as the swap form lists them: "name — table.seat", by name."""
    return [
        (player["player_id"], f"{player['name']} — {player['table']}.{player['seat']}")
        for player in selectors.seating_by_player(tables)
    ]


class SessionOrganiseView(SessionActionMixin, OrganiserRequiredMixin, TemplateView):
    """/t/<slug>/organise/sessions/<n>/: the session's seating as the organiser works on it."""

    template_name = "tournament/seating/session_organise.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        session = self.session
        tables = selectors.session_seating(session=session)
        attention = selectors.session_attention(session=session) if tables else {}
        seating_table = SeatingTable(tables, attention=attention)
        RequestConfig(self.request, paginate=False).configure(seating_table)
        context.update(
            session=session,
            seating_table=seating_table,
            waiting_tables=[table for table in tables if table["match_id"] in attention],
            to_seat=selectors.to_seat_count(session=session),
            repeats=selectors.session_repeat_pairs(session=session, tables=tables) if tables else [],
            seated_but_withdrawn=selectors.seated_but_withdrawn(session=session),
            missing=selectors.session_missing(session=session),
            can_change_seating=session.status in (Session.Status.DRAFT, Session.Status.SEATED),
            session_log=selectors.session_log(session=session),
        )
        context.setdefault("swap_form", SwapForm(seated=swap_choices(tables)))
        context.setdefault("method_form", SeatingMethodForm(initial={"method": session.seating}))
        context["seating_method_label"] = session.get_seating_display()
        if session.status == Session.Status.FINISHED:
            context.setdefault("reopen_form", SessionReopenForm())
        return context


class SeatingSwapView(SessionOrganiseView):
    """POST …/swap/: swap two seated players; errors next to the fields."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        tables = selectors.session_seating(session=self.session)
        form = SwapForm(request.POST, seated=swap_choices(tables))
        if form.is_valid():
            players = Player.objects.in_bulk([form.cleaned_data["player_a"],
                                             form.cleaned_data["player_b"]])
            player_a = players[form.cleaned_data["player_a"]]
            player_b = players[form.cleaned_data["player_b"]]
            try:
                services.seating_swap(session=self.session, player_a=player_a, player_b=player_b)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    _("%(a)s and %(b)s have swapped seats.") % {"a": player_a.name, "b": player_b.name},
                )
                return redirect(self.next_url())
        return self.render_to_response(self.get_context_data(swap_form=form), status=400)


class SessionSeatView(SessionOrganiseView):
    """POST …/seat/: draw the seating (again, with a fresh seed, if it is already drawn), at
    random or, for session 1, by rating (``method``). A method refused shows next to its
    field; the session's refusals (started, an earlier session open...) as messages."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = SeatingMethodForm(request.POST)
        if form.is_valid():
            session = self.session
            seed = sessions.new_seed() if session.status != Session.Status.DRAFT else None
            try:
                seating = services.session_seat(
                    session=session, seed=seed, method=form.cleaned_data["method"] or None
                )
            except ValidationError as error:
                if not (hasattr(error, "error_dict") and "method" in error.error_dict):
                    message_refusal(request, error)
                    return redirect(self.next_url())
                add_service_errors(form, error)
            else:
                messages.success(request, self.success_message(seating))
                return redirect(self.next_url())
        return self.render_to_response(self.get_context_data(method_form=form), status=400)

    def success_message(self, seating):
        return _("Seating drawn at %(tables)s tables; pairs meeting again: %(repeats)s.") % {
            "tables": len(seating.tables), "repeats": seating.repeat_pairs
        }


class SessionReopenView(SessionOrganiseView):
    """POST …/reopen/: reopen a closed session with a reason (kept in its audit log), to
    correct a match; it is then closed again as usual. A refusal shows next to the reason."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = SessionReopenForm(request.POST)
        if form.is_valid():
            try:
                sessions.session_reopen(
                    session=self.session, user=request.user, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    _("Session %(number)s is reopened: correct its matches, then close it again.")
                    % {"number": self.session.number},
                )
                return redirect(self.next_url())
        return self.render_to_response(self.get_context_data(reopen_form=form), status=400)
