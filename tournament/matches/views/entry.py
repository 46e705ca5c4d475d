"""Board mode's writes from the entry screen: a turn (and its preview before it is saved), undo,
a decision on a differing claim, a round's end and its confirmation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from tournament.core.forms import add_service_errors
from tournament.matches import services
from tournament.matches.forms.entry import DecisionForm, PassForm, RoundEndForm, TurnForm
from tournament.matches.forms.parsing import RevisionForm
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replay_cache import keep_replay, kept_after, live_replay
from tournament.matches.reading.replayed_match import ReplayedMatch, ReplayedRound
from tournament.matches.views.base import (
    MatchPageMixin,
    MatchWriteMixin,
    MatchWriteView,
    announced,
    posted_revision,
    preview_from_data,
    shown_round,
    submission_key,
)
from tournament.models import Verdict


class TurnAddView(MatchWriteView):
    """Board mode: save a turn (a placement, or draws without one)."""

    def post(self, request, *args, **kwargs):
        # The form's check and the save change the round in play only: the settled rounds
        # are taken from their stored scores, not replayed; the replay this process kept
        # after the last save of the match, when it was of the match as it is (its revision)
        replay = live_replay(match=self.match)
        results_version = self.match.table.session.tournament.results_version
        passing = "pass" in request.POST
        form = PassForm(request.POST) if passing else TurnForm(request.POST, replay=replay)
        if not form.is_valid():
            if passing:
                return self.refused(error_message=" ".join(
                    str(e) for errors in form.errors.values() for e in errors))
            return self.refused(turn_form=form)
        # what the tablet shows, taken before the save uses the replay up
        shown = shown_round(request, replay) if request.htmx else None
        try:
            written = services.match_turns_add(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request),
                turns=[form.turn_input()], before=replay,
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except services.TurnsRefused as refused:
            message = " ".join(refused.messages)
            if passing:
                return self.refused(error_message=message)
            form.add_error("cell" if form.cleaned_data.get("cell") else None,
                           refused.validation_error())
            return self.refused(turn_form=form)
        except ValidationError as error:
            if passing:
                return self.refused(error_message=" ".join(error.messages),
                                    error_code=getattr(error, "code", None))
            add_service_errors(form, error)
            return self.refused(turn_form=form)
        (turn,) = written.saved
        response = self.done(turn_saved_message(turn), written, shown=shown,
                             kind="pending" if turn.verdict == Verdict.MISMATCH else "saved")
        # kept for the next preview and save, once the answer no longer reads it
        return kept_after(response, written.replay, results_version=results_version)


def turn_saved_message(turn) -> str:
    if turn.verdict == Verdict.MISMATCH:
        return _("Saved, with a claim that differs from the engine: decide below.")
    return _("Turn saved.")


class TurnPreviewView(MatchWriteMixin, MatchPageMixin, View):
    """Board mode, before saving: the engine's word on the tile at the cell tapped — the
    orientations that fit, the points and bonus, or why it does not fit. Changes nothing.

    When the match changed since the page was shown (another tablet saved), the answer is the
    match as it now is, with the conflict message, in place of the whole region."""

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
        # the round in play only: the settled rounds are taken from their stored scores (the
        # replay kept by this process when it is of the match as it is; given back after)
        replay = live_replay(match=self.match)
        preview = preview_from_data(replay, request.POST)
        keep_replay(replay, results_version=self.match.table.session.tournament.results_version)
        return TemplateResponse(request, "tournament/matches/_turn_preview.html",
                                {"preview": preview})


class TurnUndoView(MatchWriteView):
    def post(self, request, *args, **kwargs):
        form = RevisionForm(request.POST)
        if not form.is_valid():
            return self.refused(error_message=_("The page is out of date: reload it."))
        try:
            written = services.match_turn_undo(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request))
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            return self.refused(error_message=" ".join(error.messages))
        return self.done(_("Turn %(number)s undone (kept in the audit log).")
                         % {"number": written.saved.index + 1}, written)


class TurnDecisionView(MatchWriteView):
    def post(self, request, *args, **kwargs):
        form = DecisionForm(request.POST)
        if not form.is_valid():
            return self.refused(
                decision_error_turn=kwargs["turn_id"],
                decision_error_messages=[e for errors in form.errors.values() for e in errors])
        try:
            written = services.match_turn_decide(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request),
                turn_id=kwargs["turn_id"], decision=form.cleaned_data["decision"],
                reason=form.cleaned_data.get("reason", ""),
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            return self.refused(decision_error_turn=kwargs["turn_id"],
                                decision_error_messages=error.messages)
        return self.done(_("Decision recorded."), written)


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
        try:
            written = services.match_round_settlement_decide(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request), round_index=number - 1,
                decision=form.cleaned_data["decision"], reason=form.cleaned_data.get("reason", ""),
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            return self.refused(settlement_error_round=number,
                                decision_error_messages=error.messages)
        return self.done(_("Decision recorded."), written)


class RoundEndView(MatchWriteView):
    """The racks shown at the end of a round (a correction when they were entered already)."""

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

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        round_view = self.round_view(replay)
        return TemplateResponse(request, "tournament/matches/round_end.html", {
            "tournament": self.tournament, "match": self.match, "replay": replay,
            "round": round_view, "form": self.form(replay, round_view),
            "next": request.GET.get("next", ""),
        })

    def post(self, request, *args, **kwargs):
        if self.posted_stale():  # the form was made for the match as it was: not this one
            return self.stale()
        # the round in play's end: the replay kept since the last save, its settled rounds
        # taken from their stored scores (also the write's: ``before``); the racks of an
        # earlier round (a correction) replay the whole match
        replay = live_replay(match=self.match)
        results_version = self.match.table.session.tournament.results_version
        if not any(r.number == self.kwargs["number"] and not r.stored for r in replay.rounds):
            replay = match_replay(match=self.match)
        round_view = self.round_view(replay)
        form = self.form(replay, round_view, request.POST)
        page = request.POST.get("page") == "round_end"
        if form.is_valid():
            try:
                written = services.match_round_end(
                    match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                    submission_key=submission_key(self.request),
                    round_index=round_view.index, racks=form.cleaned_data["racks"],
                    settlement_claimed=form.cleaned_data["settlement_claimed"],
                    reason=form.cleaned_data.get("reason", ""), before=replay,
                )
            except services.AlreadySaved:
                return self.already_saved()
            except services.StaleMatch:
                return self.stale()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                settled = next(r for r in written.replay.rounds if r.index == round_view.index)
                if settled.settlement_decision_pending:
                    response = self.done(
                        _("Round %(number)s settled, with a settlement claimed that differs "
                          "from the engine's: decide below.") % {"number": round_view.number},
                        written, kind="pending")
                else:
                    response = self.done(
                        _("Round %(number)s settled.") % {"number": round_view.number}, written)
                # kept for the round's confirmation
                return kept_after(response, written.replay, results_version=results_version)
        if page or round_view.closed or request.POST.get("next") == "sheet":
            return TemplateResponse(request, "tournament/matches/round_end.html", {
                "tournament": self.tournament, "match": self.match, "replay": replay,
                "round": round_view, "form": form, "next": request.POST.get("next", ""),
            }, status=400)
        return self.refused(round_end_form=form)


class RoundConfirmView(MatchWriteView):
    def post(self, request, *args, **kwargs):
        form = RevisionForm(request.POST)
        if not form.is_valid():
            return self.refused(error_message=_("The page is out of date: reload it."))
        try:
            written = services.match_round_confirm(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request),
                round_index=kwargs["number"] - 1,
                # the replay kept since the round's end: the write need not load the rows
                before=live_replay(match=self.match),
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            return self.refused(error_message=" ".join(error.messages))
        return self.done(_("Round %(number)s confirmed.") % {"number": kwargs["number"]}, written)
