"""The organiser's page of a session: draw the seating, see the repeats, swap, start, close."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.forms import add_service_errors
from tournament.models import Player, Session
from tournament.organiser.views import ActionView, SessionActionMixin
from tournament.permissions import OrganiserRequiredMixin
from tournament.seating import selectors, services
from tournament.seating.forms import SwapForm
from tournament.seating.tables import SeatingTable


class SessionOrganiseView(SessionActionMixin, OrganiserRequiredMixin, TemplateView):
    """/t/<slug>/organise/sessions/<n>/: the session's seating as the organiser works on it."""

    template_name = "tournament/seating/session_organise.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        session = self.get_session()
        tables = selectors.session_seating(session=session)
        seating_table = SeatingTable(tables)
        RequestConfig(self.request, paginate=False).configure(seating_table)
        seated = [
            (player["player_id"], f"{player['name']} — {player['table']}.{player['seat']}")
            for player in selectors.seating_by_player(tables)
        ]
        context.update(
            session=session,
            seating_table=seating_table,
            to_seat=selectors.registrations_to_seat(session=session).count(),
            repeats=selectors.session_repeat_pairs(session=session) if tables else [],
            seated_but_withdrawn=selectors.seated_but_withdrawn(session=session),
            can_change_seating=session.status in (Session.Status.DRAFT, Session.Status.SEATED),
        )
        context.setdefault("swap_form", SwapForm(seated=seated))
        return context

    def post_swap(self, request):
        """POST …/swap/: swap two seated players; errors next to the fields."""
        session = self.get_session()
        context = self.get_context_data()
        form = SwapForm(request.POST, seated=context["swap_form"].fields["player_a"].choices[1:])
        if form.is_valid():
            players = Player.objects.in_bulk([form.cleaned_data["player_a"],
                                             form.cleaned_data["player_b"]])
            player_a = players[form.cleaned_data["player_a"]]
            player_b = players[form.cleaned_data["player_b"]]
            try:
                services.seating_swap(session=session, player_a=player_a, player_b=player_b)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    _("%(a)s and %(b)s have swapped seats.") % {"a": player_a.name, "b": player_b.name},
                )
                return redirect(self.next_url())
        context["swap_form"] = form
        return self.render_to_response(context, status=400)


class SeatingSwapView(SessionOrganiseView):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        return self.post_swap(request)


class SessionSeatView(SessionActionMixin, ActionView):
    """POST …/seat/: draw the seating (again, with a fresh seed, if it is already drawn)."""

    def act(self):
        session = self.get_session()
        seed = services.new_seed() if session.status != Session.Status.DRAFT else None
        return services.session_seat(session=session, seed=seed)

    def success_message(self, seating):
        return _("Seating drawn at %(tables)s tables; pairs meeting again: %(repeats)s.") % {
            "tables": len(seating.tables), "repeats": seating.repeat_pairs
        }
