"""A table's scorer link: a phone opening it (and saying so) becomes the table's scorer; the
table's referee, or the organiser, hands the sheet over to another phone or takes the table
over (``tournament.matches.scorers``, ``tournament.matches.services.scorers``)."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from tournament.core.permissions import can_referee
from tournament.matches.reading.rows import match_with_tournament
from tournament.matches.scorers import device_of, remember_binding, session_claims
from tournament.matches.services.scorers import (
    LinkRefused,
    scorer_bind,
    scorer_hand_over,
    scorer_link_checked,
    scorer_lock,
    scorer_refusal,
)
from tournament.matches.views.base import MatchMixin
from tournament.models import Match


class ScorerLinkView(View):
    """The link on a table's score sheet: the table's match and a button to keep its score
    on this phone (a GET binds nothing: a link's preview in a chat must not). A wrong link
    is no page (404), and counts as a wrong try (``scorer_link_checked``)."""

    http_method_names = ("get", "post")
    template_name = "tournament/matches/scorer_link.html"

    def match(self) -> Match:
        try:
            return match_with_tournament(self.kwargs["match_id"]).get()
        except Match.DoesNotExist:
            raise Http404 from None

    def page(self, match: Match | None, *, refusal: ValidationError | None = None,
             status: int = 200) -> HttpResponse:
        """The link's page: the table's match when the link was found right (``match``),
        else the refusal alone."""
        context: dict = {"refusal": refusal}
        if match is not None:
            context.update({
                "match": match, "table": match.table, "session": match.table.session,
                "tournament": match.table.session.tournament,
                "seats": match.table.seats.select_related("player").order_by("order")})
        return TemplateResponse(self.request, self.template_name, context, status=status)

    def checked(self, match: Match, call) -> HttpResponse | None:
        try:
            return call()
        except LinkRefused:
            raise Http404 from None
        except ValidationError as error:
            if error.code == "locked-out":  # the link was not even compared: nothing shown
                return self.page(None, refusal=error, status=429)
            return self.page(match, refusal=error, status=403)

    def get(self, request, *args, **kwargs):
        match = self.match()

        def shown():
            scorer = scorer_link_checked(match=match, token=kwargs["token"],
                                         address=get_client_ip_address(request))
            device = session_claims(request).get("device", "")
            refusal = scorer_refusal(scorer, match.table.session, device=device)
            return self.page(match, refusal=refusal, status=200 if refusal is None else 403)

        return self.checked(match, shown)

    def post(self, request, *args, **kwargs):
        match = self.match()

        def bound():
            scorer_bind(match=match, token=kwargs["token"], device=device_of(request),
                        address=get_client_ip_address(request))
            remember_binding(request, match.pk)
            messages.success(request, _("This phone now keeps the score of table %(number)s.")
                             % {"number": match.table.number})
            return redirect(match.get_absolute_url())

        return self.checked(match, bound)


class ScorerChangeView(MatchMixin, View):
    """The table's referee (or the organiser) hands the sheet over to another phone, or takes
    the table over; the match's page then shows the new link."""

    http_method_names = ("post",)
    login_required = True
    scorer_may = False
    service = staticmethod(scorer_hand_over)
    done_message: str = ""

    def has_permission(self) -> bool:
        return can_referee(self.request.user, self.match.table)

    def access_refusal(self, request):
        refusal = super().access_refusal(request)
        if refusal is not None and not request.user.is_authenticated and session_claims(request):
            raise Http404  # a scorer phone: no such page
        return refusal

    def post(self, request, *args, **kwargs):
        if not self.match.table.session.entry_by_tables:
            raise Http404
        self.service(match=self.match, user=request.user)
        messages.success(request, self.done_message % {"number": self.match.table.number})
        return redirect(self.match.get_absolute_url())


class ScorerHandOverView(ScorerChangeView):
    service = staticmethod(scorer_hand_over)
    done_message = gettext_lazy("Table %(number)s: a new scorer link, shown below; the old one is "
                     "refused and its phone no longer keeps the score.")


class ScorerLockView(ScorerChangeView):
    service = staticmethod(scorer_lock)
    done_message = gettext_lazy("Table %(number)s taken over: its scorer link is refused, enter the "
                     "match here; hand the sheet over to give it a new one.")
