"""Correcting a turn, or inserting one nobody entered, with a reason; the versions a turn had."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from tournament.matches import selectors, services
from tournament.matches.forms.corrections import CorrectionForm, InsertionForm
from tournament.matches.reading.replay import match_replay, match_replay_before
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.replayed_rounds import ReplayedRound, TurnLine
from tournament.matches.reading.turn_preview import board_before
from tournament.matches.views.base import MatchWriteMixin, posted_at_revision, with_refusal


class TurnCorrectView(MatchWriteMixin, View):
    """Correct any turn: a form with its fields and a reason; the versions it has had.

    :class:`TurnInsertView` is this page for a turn inserted before the one named."""

    scorer_may = True  # the table's scorer phone too

    http_method_names = ("get", "post")
    template_name = "tournament/matches/correct.html"
    form_class: type[CorrectionForm] = CorrectionForm

    def find(
        self, replay: ReplayedMatch
    ) -> tuple[ReplayedRound, TurnLine] | None:
        """The turn's round and its line; None once it is no longer current (corrected or
        undone from another tablet since the page was shown)."""
        for round_view in replay.rounds:
            for line in round_view.turns:
                if line.row.pk == self.kwargs["turn_id"]:
                    return round_view, line
        return None

    def render(self, replay, found, form, status=200):
        round_view, line = found
        return TemplateResponse(self.request, self.template_name, {
            "tournament": self.tournament, "match": self.match, "replay": replay,
            "round": round_view, "position": line.number, "line": line, "form": form,
            "board": board_before(replay=replay, round_view=round_view, line=line),
            # a closed session takes no correction: the form is shown read-only, with why
            "write_refusal": (" ".join(self.write_refusal.messages)
                              if self.write_refusal is not None else ""),
            **self.extra_context(line),
        }, status=status)

    def extra_context(self, line: TurnLine) -> dict[str, Any]:
        return {"versions": selectors.turn_versions(turn=line.row)}

    def initial(self, replay, found) -> dict[str, Any]:
        """The form's values on the page: the turn as entered."""
        return self.form_class.initial_for(found[1].row)

    def write(self, **arguments) -> str:
        """The service's call with ``arguments`` (the match, the turn, the reason, the
        revision seen...); the message shown on the match page afterwards."""
        services.match_turn_correct(turn_id=self.kwargs["turn_id"], **arguments)
        return _("Turn corrected; the match was replayed.")

    def stale(self) -> HttpResponse:
        """Another save came first: the form again with what was typed, at the match's
        revision now (the next save is checked against the match then shown), said so (409)."""
        self.reload_match()
        replay = match_replay(match=self.match)
        found = self.find(replay)
        if found is None:
            return self.turn_gone()
        form = self.form_class(posted_at_revision(self.request, self.match.revision),
                               replay=replay)
        form.add_error(None, ValidationError(services.stale_match_message(), code="stale"))
        return self.render(replay, found, form, status=409)

    def turn_gone(self) -> HttpResponse:
        """The turn changed under the scorekeeper: the match page, with the stale-save message."""
        messages.error(self.request, services.stale_match_message(), extra_tags="stale")
        return redirect(self.url("match"))

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        found = self.find(replay)
        if found is None:
            raise Http404
        form = self.form_class(replay=replay, initial={
            "revision": self.match.revision, **self.initial(replay, found)})
        return self.render(replay, found, form)

    def post(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        found = self.find(replay)
        if found is None:
            return self.turn_gone()
        form = self.form_class(request.POST, replay=replay)
        if not form.is_valid():
            return self.render(replay, found, form, status=400)
        return self.written(
            self.write, seen_revision=form.cleaned_data["revision"], turn=form.turn_input(),
            reason=form.cleaned_data["reason"], done=self.redirect_back,
            refused=lambda error: self.render(
                replay, found, with_refusal(form, error, field="tile"), status=400))


class TurnInsertView(TurnCorrectView):
    """Insert a turn nobody entered before this one (a draw and pass noticed later): the
    correction's form, the player due at that point chosen, and a reason."""

    template_name = "tournament/matches/insert.html"
    form_class = InsertionForm

    def extra_context(self, line: TurnLine) -> dict[str, Any]:
        return {}

    def initial(self, replay, found) -> dict[str, Any]:
        """A turn drawing nothing and placing nothing, by the player due at that point."""
        round_view, line = found
        before = match_replay_before(rows=replay.rows, round_=round_view.row,
                                               position=line.position)
        player = before.live.player_to_enter if before.live is not None else None
        return {"player": player, "draws": 0}

    def write(self, **arguments) -> str:
        services.match_turn_insert(before_turn_id=self.kwargs["turn_id"], **arguments)
        return _("Turn inserted; the match was replayed.")
