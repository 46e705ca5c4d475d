"""The organiser's buttons of a session's lifecycle: open the next session, start a seated one,
close one whose matches are all confirmed (reopening is a form of the session's page,
``tournament.seating.views``); and the check-in at the door, on a phone (docs/guides/check-in.md)."""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournament.core.mixins import ActionView, SessionActionMixin, message_refusal
from tournament.core.permissions import RefereeRequiredMixin, is_organiser
from tournament.models import Player, Session
from tournament.names import FOLDED_LETTERS
from tournament.sessions import selectors, services
from tournament.sessions.forms import CheckInForm


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


class CheckInView(SessionActionMixin, RefereeRequiredMixin, TemplateView):
    """/t/<slug>/sessions/<n>/check-in/: the players expected at the session, searched by
    name (``?q=``; the page's script filters as one types), each marked present or not with
    one tap: the organiser and the tournament's referees. A tap answers with its row alone
    to htmx; without a script, the page again, the search kept."""

    template_name = "tournament/sessions/check_in.html"
    row_template = "tournament/sessions/_check_in_tap.html"
    login_required = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        session = self.session
        query = self.request.GET.get("q", "")[:120]
        players = selectors.check_in_list(session=session)
        shown = selectors.check_in_list(session=session, query=query) if query else players
        context.update(
            session=session,
            query=query,
            players=shown,
            present_count=sum(player.present for player in players),
            expected_count=len(players),
            can_check_in=self.tournament.uses_check_in and session.status in (
                Session.Status.DRAFT, Session.Status.SEATED),
            fold_letters=json.dumps(FOLDED_LETTERS, ensure_ascii=False),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = CheckInForm(request.POST)
        query = request.POST.get("q", "")[:120]
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=400)
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        refusal = None
        try:
            services.check_in_mark(session=self.session, player=player,
                                   present=form.cleaned_data["present"], user=request.user)
        except ValidationError as error:
            refusal = error
            if not request.htmx:
                message_refusal(request, error)
        if request.htmx:
            return self.row(player, refusal=refusal, query=query)
        address = reverse("tournament:session_check_in", kwargs={
            "slug": self.tournament.slug, "number": self.session.number})
        return redirect(f"{address}?{urlencode({'q': query})}" if query else address)

    def row(self, player: Player, *, refusal: ValidationError | None, query: str):
        """The player's row as it now is, with the refusal next to its button (400)."""
        players = selectors.check_in_list(session=self.session)
        row = next((item for item in players if item.player_id == player.pk), None)
        if row is None:
            raise Http404
        return self.response_class(
            request=self.request, template=[self.row_template], status=400 if refusal else 200,
            context={"player": row, "tournament": self.tournament, "session": self.session,
                     "can_check_in": True, "query": query,
                     "present_count": sum(item.present for item in players),
                     "expected_count": len(players),
                     "user_is_organiser": is_organiser(self.request.user, self.tournament),
                     "refusal": refusal.error_list[0] if refusal else None})
