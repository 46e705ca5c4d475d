"""The practice table's pages: a referee opens theirs from a tournament they referee, and
starts it again in one tap from its entry screen (docs/guides/referee.md)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView, View

from tournament.core.mixins import message_refusal
from tournament.core.permissions import RefereeRequiredMixin, TournamentMixin
from tournament.models import Match
from tournament.practice import services


class PracticeView(RefereeRequiredMixin, TemplateView):
    """/t/<slug>/practice/: what the practice table is, and a button to open it (POST: made
    the first time, then its entry screen)."""

    template_name = "tournament/practice/practice.html"
    login_required = True

    def access_refusal(self, request):
        if self.tournament.is_practice:
            raise Http404
        return super().access_refusal(request)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            match=services.practice_match(tournament=self.tournament, user=self.request.user),
            **kwargs)

    def post(self, request, *args, **kwargs):
        match = services.practice_open(tournament=self.tournament, user=request.user)
        return redirect(match.get_absolute_url())


class PracticeResetView(TournamentMixin, View):
    """POST /t/<practice slug>/practice/reset/: the practice match started again, by its
    referee only; back to its entry screen."""

    http_method_names = ["post"]
    login_required = True

    def has_permission(self) -> bool:
        user = self.request.user
        return (self.tournament.is_practice and user.is_authenticated
                and self.tournament.practice_for_id == user.pk)

    def post(self, request, *args, **kwargs):
        match = Match.objects.filter(table__session__tournament=self.tournament).first()
        if match is None:
            raise Http404
        try:
            match = services.practice_reset(match=match, user=request.user)
        except ValidationError as error:
            message_refusal(request, error)
        return redirect(match.get_absolute_url())
