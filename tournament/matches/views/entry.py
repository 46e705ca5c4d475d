"""Board mode's writes from the entry screen: a turn (and its preview before it is saved), undo,
a decision on a differing claim, a round's end and its confirmation."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from tournament.matches import services
from tournament.matches.forms.entry import DecisionForm, PassForm, RoundEndForm, TurnForm
from tournament.matches.forms.parsing import RevisionForm
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replay_cache import keep_replay, kept_after, live_replay
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.replayed_rounds import ReplayedRound
from tournament.matches.views.base import (
    MatchPageMixin,
    MatchWriteMixin,
    MatchWriteView,
    announced,
    posted_revision,
    preview_from_data,
    shown_round,
    with_refusal,
)
from tournament.models import Verdict


class TurnAddView(MatchWriteView):
    """Board mode: save a turn (a placement, or draws without one)."""

    scorer_may = True  # the table's scorer phone too

    def post(self, request, *args, **kwargs):
        if self.posted_stale():  # the form was made for the match as it was: not this one
            return self.stale()
        # The form's check and the save change the round in play only: the closed rounds
        # are taken from their stored scores, not replayed; the replay this process kept
        # after the last save of the match, when it was of the match as it is (its revision)
        replay = live_replay(match=self.match)
        setup_version = self.match.table.session.tournament.setup_version
        passing = "pass" in request.POST
        form = PassForm(request.POST) if passing else TurnForm(request.POST, replay=replay)
        if not form.is_valid():
            if passing:
                return self.refused(error_message=" ".join(
                    str(e) for errors in form.errors.values() for e in errors))
            return self.refused(turn_form=form)
        # what the tablet shows, taken before the save uses the replay up
        shown = shown_round(request, replay) if request.htmx else None

        def saved(written: services.WriteResult) -> HttpResponse:
            (turn,) = written.saved
            response = self.done(turn_saved_message(turn), written, shown=shown,
                                 kind="pending" if turn.verdict == Verdict.MISMATCH else "saved")
            # kept for the next preview and save, once the answer no longer reads it
            return kept_after(response, written.replay, setup_version=setup_version)

        def refusal(error) -> HttpResponse:
            if passing:
                return self.refused(error_message=" ".join(error.messages),
                                    error_code=getattr(error, "code", None))
            return self.refused(turn_form=with_refusal(form, error))

        return self.written(
            services.match_turns_add, seen_revision=form.cleaned_data["revision"],
            turns=[form.turn_input()], before=replay, done=saved, refused=refusal)


def turn_saved_message(turn) -> str:
    if turn.verdict == Verdict.MISMATCH:
        return _("Saved, with a claim that differs from the engine: decide below.")
    return _("Turn saved.")


class TurnPreviewView(MatchWriteMixin, MatchPageMixin, View):
    """Board mode, before saving: the engine's word on the tile at the cell tapped — the
    orientations that fit, the points and bonus, or why it does not fit. Changes nothing.

    When the match changed since the page was shown (another tablet saved), the answer is the
    match as it now is, with the conflict message, in place of the whole region."""

    scorer_may = True  # the table's scorer phone too

    http_method_names = ("post",)

    def post(self, request, *args, **kwargs):
        seen = posted_revision(request)
        if seen is not None and seen != self.match.revision:
            message = services.stale_match_message()
            response = announced(self.render_match(status=409, conflict_message=message),
                                 "stale", message, submission="stale")
            response["HX-Retarget"] = "#match"
            response["HX-Reswap"] = "outerHTML"
            return response
        # the round in play only: the closed rounds are taken from their stored scores (the
        # replay kept by this process when it is of the match as it is; given back after)
        replay = live_replay(match=self.match)
        preview = preview_from_data(replay, request.POST)
        keep_replay(replay, setup_version=self.match.table.session.tournament.setup_version)
        return TemplateResponse(request, "tournament/matches/_turn_preview.html",
                                {"preview": preview})


class TurnUndoView(MatchWriteView):

    scorer_may = True  # the table's scorer phone too
    def post(self, request, *args, **kwargs):
        form = RevisionForm(request.POST)
        if not form.is_valid():
            return self.refused(error_message=_("The page is out of date: reload it."))
        return self.written(
            services.match_turn_undo, seen_revision=form.cleaned_data["revision"],
            done=lambda written: self.done(
                _("Turn %(number)s undone (kept in the audit log).")
                % {"number": written.saved.index + 1}, written),
            refused=lambda error: self.refused(error_message=" ".join(error.messages)))


class TurnDecisionView(MatchWriteView):
    def post(self, request, *args, **kwargs):
        form = DecisionForm(request.POST)
        if not form.is_valid():
            return self.refused(
                decision_error_turn=kwargs["turn_id"],
                decision_error_messages=[e for errors in form.errors.values() for e in errors])
        return self.written(
            services.match_turn_decide, seen_revision=form.cleaned_data["revision"],
            turn_id=kwargs["turn_id"], decision=form.cleaned_data["decision"],
            reason=form.cleaned_data.get("reason", ""),
            done=lambda written: self.done(_("Decision recorded."), written),
            refused=lambda error: self.refused(decision_error_turn=kwargs["turn_id"],
                                               decision_error_messages=error.messages))


class SettlementDecisionView(MatchWriteView):
    """The referee's decision on a settlement claimed that differs from the engine's: the
    same two choices and reason as a turn's (``DecisionForm``)."""

    def post(self, request, *args, **kwargs):
        number = kwargs["number"]
        form = DecisionForm(request.POST)
        if not form.is_valid():
            return self.refused(
                settlement_error_round=number,
                decision_error_messages=[e for errors in form.errors.values() for e in errors])
        return self.written(
            services.match_round_settlement_decide, seen_revision=form.cleaned_data["revision"],
            round_index=number - 1, decision=form.cleaned_data["decision"],
            reason=form.cleaned_data.get("reason", ""),
            done=lambda written: self.done(_("Decision recorded."), written),
            refused=lambda error: self.refused(settlement_error_round=number,
                                               decision_error_messages=error.messages))


class RoundEndView(MatchWriteView):
    """The racks shown at the end of a round (a correction when they were entered already)."""

    scorer_may = True  # the table's scorer phone too

    http_method_names = ("get", "post")

    def round_view(self, replay: ReplayedMatch) -> ReplayedRound:
        number = self.kwargs["number"]
        round_view = next((r for r in replay.rounds if r.number == number), None)
        if round_view is None or not round_view.turns:
            raise Http404
        return round_view

    def form(self, replay, round_view, data=None) -> RoundEndForm:
        expected = None
        if replay.live is not None and replay.live.index == round_view.index:
            expected = list(replay.live.hand_counts)
        return RoundEndForm(
            data, replay=replay, expected=expected, correcting=round_view.closed,
            initial={"revision": replay.match.revision,
                     **RoundEndForm.initial_for(replay, round_view.racks, round_view.settlement_claimed)},
        )

    def page(self, replay, round_view, form, *, next_page: str,
             status: int = 200) -> HttpResponse:
        """The round's own page, with its racks' form."""
        return TemplateResponse(self.request, "tournament/matches/round_end.html", {
            "tournament": self.tournament, "match": self.match, "replay": replay,
            "round": round_view, "form": form, "next": next_page,
        }, status=status)

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        round_view = self.round_view(replay)
        return self.page(replay, round_view, self.form(replay, round_view),
                         next_page=request.GET.get("next", ""))

    def post(self, request, *args, **kwargs):
        if self.posted_stale():  # the form was made for the match as it was: not this one
            return self.stale()
        # the round in play's end: the replay kept since the last save, its closed rounds
        # taken from their stored scores (also the write's: ``before``); the racks of an
        # earlier round (a correction) replay the whole match
        replay = live_replay(match=self.match)
        setup_version = self.match.table.session.tournament.setup_version
        if not any(r.number == self.kwargs["number"] and not r.stored for r in replay.rounds):
            replay = match_replay(match=self.match)
        round_view = self.round_view(replay)
        form = self.form(replay, round_view, request.POST)
        if not form.is_valid():
            return self.racks_refused(replay, round_view, form)

        def settled(written: services.WriteResult) -> HttpResponse:
            ended = next(r for r in written.replay.rounds if r.index == round_view.index)
            if ended.settlement_decision_pending:
                response = self.done(
                    _("Round %(number)s settled, with a settlement claimed that differs "
                      "from the engine's: decide below.") % {"number": round_view.number},
                    written, kind="pending")
            else:
                response = self.done(
                    _("Round %(number)s settled.") % {"number": round_view.number}, written)
            # kept for the round's confirmation
            return kept_after(response, written.replay, setup_version=setup_version)

        return self.written(
            services.match_round_end, seen_revision=form.cleaned_data["revision"],
            round_index=round_view.index, racks=form.cleaned_data["racks"],
            settlement_claimed=form.cleaned_data["settlement_claimed"],
            reason=form.cleaned_data.get("reason", ""), before=replay, done=settled,
            refused=lambda error: self.racks_refused(replay, round_view,
                                                     with_refusal(form, error)))

    def racks_refused(self, replay, round_view, form) -> HttpResponse:
        """The racks refused (400): on the round's page when they were typed there, for a
        round already closed or from sheet mode; on the match page otherwise."""
        posted = self.request.POST
        if posted.get("page") == "round_end" or round_view.closed or posted.get("next") == "sheet":
            return self.page(replay, round_view, form, next_page=posted.get("next", ""),
                             status=400)
        return self.refused(round_end_form=form)


class RoundConfirmView(MatchWriteView):
    def post(self, request, *args, **kwargs):
        form = RevisionForm(request.POST)
        if not form.is_valid():
            return self.refused(error_message=_("The page is out of date: reload it."))
        return self.written(
            services.match_round_confirm, seen_revision=form.cleaned_data["revision"],
            round_index=kwargs["number"] - 1,
            # the replay kept since the round's end: the write need not load the rows
            before=live_replay(match=self.match),
            done=lambda written: self.done(
                _("Round %(number)s confirmed.") % {"number": kwargs["number"]}, written),
            refused=lambda error: self.refused(error_message=" ".join(error.messages)))
