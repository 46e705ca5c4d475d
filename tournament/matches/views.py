"""The match pages: the public sheet and the referee's entry screen (board mode), sheet mode,
corrections and insertions, the end of a round, the audit log, the record download and upload;
and the tournament's records as one export.

Views parse the request, call one service or selector and render. A write answers with the
match as it now is: the ``#match`` region for htmx (the page does not reload), a redirect
otherwise. A refused write answers 400 with the message next to its field, a stale one 409
with the current state; nothing is written in either case.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django_tables2 import RequestConfig

from tournament.core.cached_pages import KeptPageMixin
from tournament.core.forms import add_service_errors
from tournament.core.permissions import TournamentMixin, can_referee, is_organiser, is_referee
from tournament.matches import selectors, services
from tournament.matches.forms import (
    CorrectionForm,
    DecisionForm,
    InsertionForm,
    PassForm,
    RecordUploadForm,
    RevisionForm,
    RoundEndForm,
    SheetFormSet,
    SheetModeForm,
    TurnForm,
    clean_cell,
    clean_corners,
    clean_tile,
    small_number,
)
from tournament.matches.preview import (
    TurnPreview,
    board_before,
    explain_report,
    problem_messages,
    turn_preview,
)
from tournament.matches.records import match_record, match_with_tournament
from tournament.matches.replayed import ReplayedMatch, ReplayedRound, TurnLine
from tournament.matches.replaying import match_replay, match_replay_before
from tournament.matches.tables import AuditTable, TurnLogTable
from tournament.models import Match, Verdict
from tournament.sessions.services import session_write_refusal
from tournament.standings.views import poll_seconds


class MatchMixin(TournamentMixin):
    """Loads ``self.match`` (of this tournament), whether the user may write to it
    (``can_write``: a referee of its table or an organiser) and, when its session takes no
    write (closed, or not started), why (``write_refusal``): the pages then offer no write."""

    match: Match
    can_write: bool
    write_refusal: ValidationError | None

    def refuse(self, request):
        # The match is loaded first, for has_permission(); a private tournament is still a
        # 404 to whoever may not see it (TournamentMixin), whichever match is asked for.
        match = (
            match_with_tournament(self.kwargs["match_id"])
            .filter(table__session__tournament=self.tournament)
            .first()
        )
        if match is None:
            raise Http404
        self.match = match
        self.can_write = can_referee(request.user, match.table)
        self.write_refusal = session_write_refusal(match.table.session)
        return super().refuse(request)

    def url(self, name: str, **kwargs: Any) -> str:
        return reverse(f"tournament:{name}", kwargs={
            "slug": self.tournament.slug, "match_id": self.match.pk, **kwargs})

    def turn_url(self, name: str, turn_id: int) -> str:
        """The address ``name`` (``match_turn_decide``, ``_correct``, ``_insert``) of a turn."""
        return self.url(name, turn_id=turn_id)


class MatchWriteMixin(MatchMixin):
    """Writes: a referee of this table (or an organiser); anonymous users go to the login."""

    def has_permission(self) -> bool:
        return self.can_write


# -- the match page ----------------------------------------------------------------------------


def _log_table(request, round_view: ReplayedRound, prefix: str, **options: Any) -> TurnLogTable:
    table = TurnLogTable(round_view.turns, prefix=prefix, orderable=False, **options)
    RequestConfig(request, paginate=False).configure(table)
    return table


class MatchPageMixin(MatchMixin):
    """Renders the match page, or its ``#match`` region for htmx, with the forms given."""

    template_name = "tournament/matches/match.html"
    region_template = "tournament/matches/_match.html"

    def page_context(self, replay: ReplayedMatch, *, unchanged_before: int = 0,
                     **forms: Any) -> dict[str, Any]:
        """The page's context; the confirmed rounds before ``unchanged_before`` (rounds a write
        left as they were, which carry no form) are sent as placeholders that htmx fills with
        the ones the tablet shows (``hx-preserve``)."""
        request = self.request
        revision = replay.match.revision
        can_write = self.can_write and self.write_refusal is None
        context: dict[str, Any] = {
            "tournament": self.tournament,
            "match": replay.match,
            "replay": replay,
            "can_write": can_write,
            "write_refusal": (" ".join(self.write_refusal.messages)
                              if self.can_write and self.write_refusal is not None else ""),
            "revision": revision,
            "session": replay.match.table.session,
            "table": replay.match.table,
        }
        live = replay.live
        live_round_view = replay.live_round_view
        context["live"] = live
        if not self.can_write and replay.match.status != Match.Status.CONFIRMED:
            context["follow_seconds"] = poll_seconds()
        context["can_audit"] = is_referee(request.user, self.tournament)
        context["user_is_organiser"] = is_organiser(request.user, self.tournament)
        context["seat_rows"] = [
            {
                "seat": seat,
                "total": replay.totals[seat.order] if replay.totals else 0,
                "hand": live.hand_counts[seat.order] if live is not None else None,
                "next": live is not None and live.next_player == seat.order,
                "winner": seat.order in replay.winners,
                "out": live is not None and live.out_player == seat.order,
            }
            for seat in replay.seats
        ]

        last = replay.last_round
        to_confirm = last if can_write and last is not None and last.closed and not last.confirmed else None
        context["round_to_confirm"] = to_confirm
        log_options = {
            "can_write": can_write,
            "revision": revision,
            "csrf_token": get_token(request) if can_write else "",
            "turn_url": self.turn_url,
            "error_turn": forms.get("decision_error_turn"),
            "error_messages": forms.get("decision_error_messages"),
        }
        context["log_rounds"] = [
            {"round": round_view, "preserved": True}
            if round_view.stored or (round_view.index < unchanged_before and round_view.confirmed)
            else
            {"round": round_view,
             "table": _log_table(request, round_view, f"r{round_view.number}-", **log_options),
             "confirm_elsewhere": round_view is to_confirm}
            for round_view in replay.rounds
        ]
        context["board_round"] = live_round_view or replay.last_round
        if can_write and live is not None and live.counted:
            if live.round_over:
                context["round_end_form"] = forms.get("round_end_form") or RoundEndForm(
                    replay=replay, expected=list(live.hand_counts),
                    initial={"revision": revision},
                )
                context["round_end_url"] = self.url("match_round_end", number=live.number)
            else:
                turn_form = forms.get("turn_form") or TurnForm(
                    replay=replay, initial={"revision": revision, "draws": "0"}
                )
                context["turn_form"] = turn_form
                if turn_form.is_bound:
                    context["preview"] = preview_from_data(replay, turn_form.data)
                context["pass_draws"] = live.pass_draws
                context["tiles"] = live.tile_grid()
                context["legal_cells_json"] = json.dumps(live.legal_cells, separators=(",", ":"))
            context["can_undo"] = live_round_view is not None and bool(live_round_view.turns)
        if can_write and not replay.rounds:
            context["upload_form"] = forms.get("upload_form") or RecordUploadForm(
                initial={"revision": revision})
        context.update({k: v for k, v in forms.items() if not k.endswith("_form")})
        return context

    def render_match(self, *, status: int = 200, replay: ReplayedMatch | None = None,
                     unchanged_before: int = 0, **forms: Any) -> HttpResponse:
        replay = replay if replay is not None else match_replay(match=self.match)
        htmx = bool(self.request.htmx)
        context = self.page_context(replay, unchanged_before=unchanged_before if htmx else 0,
                                    **forms)
        template = self.region_template if htmx else self.template_name
        return TemplateResponse(self.request, template, context, status=status)

    def reload_match(self) -> None:
        self.match = match_with_tournament(self.match.pk).get()


class MatchView(MatchPageMixin, KeptPageMixin, View):
    """The match: the public sheet, and for a referee of the table the entry screen.

    Until the match is confirmed, the public's page follows it (``follow_seconds``: its
    ``#match`` region polls itself), answered from a kept copy (``KeptPageMixin``).
    """

    def page(self, request, *args, **kwargs):
        return self.render_match()


class MatchWriteView(MatchWriteMixin, MatchPageMixin, View):
    """A write from the entry screen: the form, the service, then the match as it now is."""

    http_method_names = ("post",)

    def done(self, message: str, written: services.Written) -> HttpResponse:
        """The write's answer: the match as the service wrote it (its replay)."""
        self.match = written.replay.match
        if self.request.htmx:
            return self.render_match(replay=written.replay, done_message=message,
                                     unchanged_before=written.round_index)
        if message:
            messages.success(self.request, message)
        return redirect(self.url(self.redirect_name()))

    def already_saved(self) -> HttpResponse:
        """The same submission was saved before (its tablet sent it again): the match as it
        is, said so; nothing written."""
        self.reload_match()
        message = services.already_saved_message()
        if self.request.htmx:
            return self.render_match(done_message=message)
        messages.success(self.request, message)
        return redirect(self.url(self.redirect_name()))

    def posted_stale(self) -> bool:
        """The revision posted is a number and not the match's: another save came first."""
        seen = posted_revision(self.request)
        return seen is not None and seen != self.match.revision

    def redirect_name(self) -> str:
        return "match_sheet" if self.request.POST.get("next") == "sheet" else "match"

    def stale(self) -> HttpResponse:
        self.reload_match()
        message = services.stale_match_message()
        if self.request.htmx or self.redirect_name() == "match":
            return self.render_match(status=409, conflict_message=message)
        messages.error(self.request, message, extra_tags="stale")
        return redirect(self.url(self.redirect_name()))

    def refused(self, *, status: int = 400, **forms: Any) -> HttpResponse:
        if self.redirect_name() == "match_sheet" and not self.request.htmx:
            for key, value in forms.items():
                if key.endswith("_message"):
                    messages.error(self.request, value)
                elif hasattr(value, "errors"):
                    for errors in value.errors.values():
                        for error in errors:
                            messages.error(self.request, error)
            return redirect(self.url("match_sheet"))
        return self.render_match(status=status, **forms)


class TurnAddView(MatchWriteView):
    """Board mode: save a turn (a placement, or draws without one)."""

    def post(self, request, *args, **kwargs):
        # The form's check and the save change the round in play only: the settled rounds
        # are taken from their stored scores, not replayed.
        replay = match_replay(match=self.match, settled_stored=True)
        passing = "pass" in request.POST
        form = PassForm(request.POST) if passing else TurnForm(request.POST, replay=replay)
        if not form.is_valid():
            if passing:
                return self.refused(error_message=" ".join(
                    str(e) for errors in form.errors.values() for e in errors))
            return self.refused(turn_form=form)
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
        return self.done(turn_saved_message(turn), written)


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
            response = self.render_match(
                status=409, conflict_message=services.stale_match_message())
            response["HX-Retarget"] = "#match"
            response["HX-Reswap"] = "outerHTML"
            return response
        # the round in play only: the settled rounds are taken from their stored scores
        replay = match_replay(match=self.match, settled_stored=True)
        return TemplateResponse(request, "tournament/matches/_turn_preview.html",
                                {"preview": preview_from_data(replay, request.POST)})


def preview_from_data(replay: ReplayedMatch, data) -> TurnPreview:
    """Read the tile, cell, orientation, draws and player posted, and ask the engine."""
    try:
        tile = clean_tile(data.get("tile", ""))
        cell = clean_cell(data.get("cell", ""))
        corners = clean_corners(data.get("corners", ""))
    except ValidationError as error:
        return TurnPreview(error=" ".join(error.messages))
    draws = small_number(data.get("draws", "0"), high=3)
    player = small_number(data.get("player", ""), high=len(replay.seats) - 1)
    return turn_preview(
        replay=replay, tile=tile, cell=cell, corners=corners,
        draws=draws if draws is not None else 0, player=player,
    )


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
                    reason=form.cleaned_data.get("reason", ""),
                )
            except services.AlreadySaved:
                return self.already_saved()
            except services.StaleMatch:
                return self.stale()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                return self.done(_("Round %(number)s settled.") % {"number": round_view.number},
                                 written)
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
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            return self.refused(error_message=" ".join(error.messages))
        return self.done(_("Round %(number)s confirmed.") % {"number": kwargs["number"]}, written)


class TurnCorrectView(MatchWriteMixin, View):
    """Correct any turn: a form with its fields and a reason; the versions it has had.

    :class:`TurnInsertView` is this page for a turn inserted before the one named."""

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
            **self.extra_context(line),
        }, status=status)

    def extra_context(self, line: TurnLine) -> dict[str, Any]:
        return {"versions": selectors.turn_versions(turn=line.row)}

    def initial(self, replay, found) -> dict[str, Any]:
        """The form's values on the page: the turn as entered."""
        return self.form_class.initial_for(found[1].row)

    def save(self, form) -> str:
        """The service's call; the message shown on the match page afterwards."""
        services.match_turn_correct(
            match=self.match, user=self.request.user,
            seen_revision=form.cleaned_data["revision"],
            submission_key=submission_key(self.request), turn_id=self.kwargs["turn_id"],
            turn=form.turn_input(), reason=form.cleaned_data["reason"],
        )
        return _("Turn corrected; the match was replayed.")

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
        if form.is_valid():
            try:
                done = self.save(form)
            except services.AlreadySaved:
                messages.success(request, services.already_saved_message())
                return redirect(self.url("match"))
            except services.StaleMatch as stale:
                self.match = match_with_tournament(self.match.pk).get()
                replay = match_replay(match=self.match)
                found = self.find(replay)
                if found is None:
                    return self.turn_gone()
                form = self.form_class(posted_at_revision(request, self.match.revision), replay=replay)
                form.add_error(None, ValidationError(stale.message, code="stale"))
                return self.render(replay, found, form, status=409)
            except services.TurnsRefused as refused:
                form.add_error("cell" if form.cleaned_data.get("cell") else "tile",
                               refused.validation_error())
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, done)
                return redirect(self.url("match"))
        return self.render(replay, found, form, status=400)


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

    def save(self, form) -> str:
        services.match_turn_insert(
            match=self.match, user=self.request.user,
            seen_revision=form.cleaned_data["revision"],
            submission_key=submission_key(self.request), before_turn_id=self.kwargs["turn_id"],
            turn=form.turn_input(), reason=form.cleaned_data["reason"],
        )
        return _("Turn inserted; the match was replayed.")


def submission_key(request) -> str:
    """The key the tablet made for this submission (hidden input ``submission_key``): letters,
    digits and dashes, 64 at most; anything else counts as no key."""
    key = request.POST.get("submission_key", "")
    if 8 <= len(key) <= 64 and key.isascii() and all(c.isalnum() or c in "-_" for c in key):
        return key
    return ""


def posted_revision(request) -> int | None:
    """The revision posted, when it is a number in ASCII digits (None otherwise: the form
    then says what is wrong)."""
    seen = request.POST.get("revision", "")
    if seen.isascii() and seen.isdigit() and len(seen) < 12:
        return int(seen)
    return None


def posted_at_revision(request, revision: int):
    """What was posted, at the match's current revision: after a stale save the scorekeeper
    keeps what they typed, and their next save is checked against the match now shown."""
    data = request.POST.copy()
    data["revision"] = str(revision)
    return data


# -- sheet mode --------------------------------------------------------------------------------

SHEET_LINES = 28  # a round of four players takes 26 to 28 turns
#: The most lines sheet mode shows ("more lines" stops there).
SHEET_MAX_LINES = 200


class MatchSheetView(MatchWriteMixin, View):
    """Sheet mode: a paper score sheet typed in, one line per turn. "Check" runs the lines
    through the engine and shows each line's verdict; "Save" saves them all or none."""

    http_method_names = ("get", "post")
    template_name = "tournament/matches/sheet.html"

    def render(self, replay, formset, form, *, results=None, status=200, focus_line=0, **extra):
        live = replay.live
        context = {
            "tournament": self.tournament, "match": self.match, "replay": replay, "live": live,
            "formset": formset, "form": form,
            "revision": replay.match.revision,
            "live_round": replay.live_round_view,
            "seat_totals": list(zip(replay.seats, replay.totals)),
            "round_end_url": (reverse("tournament:match_round_end", kwargs={
                "slug": self.tournament.slug, "match_id": self.match.pk, "number": live.number})
                if live is not None else ""),
            **extra,
        }
        base = len(replay.live_round_view.turns) if replay.live_round_view is not None else 0
        results = results or {}
        focus = next((line for line in formset.forms if line.errors), None)
        if focus is not None:
            name = next(iter(focus.errors))
            if name in focus.fields:
                focus.fields[name].widget.attrs["autofocus"] = True
        elif not results and formset.forms:
            formset.forms[min(focus_line, len(formset.forms) - 1)].fields["who"].widget.attrs["autofocus"] = True
        context["sheet_rows"] = [
            {"form": line, "result": results.get(i), "number": base + i + 1}
            for i, line in enumerate(formset.forms)
        ]
        if live is not None and live.round_over and live.counted:
            context["round_end_form"] = RoundEndForm(
                replay=replay, expected=list(live.hand_counts), initial={"revision": replay.match.revision})
        last = replay.last_round
        if last is not None and last.closed and not last.confirmed:
            context["confirm_round"] = last
        return TemplateResponse(self.request, self.template_name, context, status=status)

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        formset = SheetFormSet(initial=[{}] * SHEET_LINES, seat_count=len(replay.seats), prefix="line")
        return self.render(replay, formset, SheetModeForm(initial={"revision": replay.match.revision}))

    def post(self, request, *args, **kwargs):
        # The check and the save change the round in play only: the settled rounds are taken
        # from their stored scores, not replayed.
        replay = match_replay(match=self.match, settled_stored=True)
        seat_count = len(replay.seats)
        formset = SheetFormSet(request.POST, seat_count=seat_count, prefix="line")
        form = SheetModeForm(request.POST)
        saving = "save" in request.POST
        if "more" in request.POST:
            lines = small_number(request.POST.get("line-TOTAL_FORMS", ""), high=SHEET_MAX_LINES)
            if lines is None:  # the management form says what is wrong
                formset.is_valid()
                return self.render(replay, formset, form, status=400)
            data = request.POST.copy()
            data["line-TOTAL_FORMS"] = str(min(lines + SHEET_LINES, SHEET_MAX_LINES))
            formset = SheetFormSet(data, seat_count=seat_count, prefix="line")
            formset.is_valid()
            typed = [i for i, line in enumerate(formset.forms) if not line.is_blank]
            return self.render(replay, formset, form, focus_line=typed[-1] + 1 if typed else 0)
        if not (formset.is_valid() and form.is_valid()):
            return self.render(replay, formset, form, status=400)
        lines = [(i, line) for i, line in enumerate(formset.forms) if not line.is_blank]
        if not lines:
            return self.render(replay, formset, form, status=400,
                               sheet_message=_("Type at least one line."))
        turns, ok = self.turn_inputs(replay, lines)
        if not ok:
            return self.render(replay, formset, form, status=400)
        try:
            reports, players = services.candidate_reports(replay=replay, turns=turns)
        except ValidationError as error:
            return self.render(replay, formset, form, status=400,
                               sheet_message=" ".join(error.messages))
        results = {
            index: {
                "report": report,
                "player": replay.seats[player].letter,
                "messages": problem_messages(report),
                "explain": explain_report(report),
            }
            for (index, _line), report, player in zip(lines, reports, players)
        }
        refused = any(r.verdict == Verdict.ILLEGAL for r in reports)
        mismatches = [r for r in reports if r.verdict == Verdict.MISMATCH]
        if not saving or refused:
            return self.render(replay, formset, form, results=results,
                               status=400 if refused else 200, checked=not refused,
                               mismatch_count=len(mismatches))
        try:
            saved = services.match_turns_add(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request),
                turns=turns, mismatches_seen=form.cleaned_data["mismatches_seen"],
                before=replay,
            )
        except services.AlreadySaved:
            messages.success(request, services.already_saved_message())
            return redirect(reverse("tournament:match_sheet", kwargs={
                "slug": self.tournament.slug, "match_id": self.match.pk}))
        except services.StaleMatch as stale:
            self.match = match_with_tournament(self.match.pk).get()
            form = SheetModeForm(posted_at_revision(request, self.match.revision))
            return self.render(match_replay(match=self.match), formset, form,
                               results=results, status=409, sheet_message=stale.message)
        except services.MismatchesNotSeen:
            form.add_error("mismatches_seen", _("Tick this box once you have looked at the "
                                                "claims that differ (decide now or later)."))
            return self.render(replay, formset, form, results=results, status=400, checked=True,
                               mismatch_count=len(mismatches))
        except (services.TurnsRefused, ValidationError) as error:
            message = " ".join(getattr(error, "messages", [str(error)]))
            return self.render(replay, formset, form, results=results, status=400,
                               sheet_message=message)
        messages.success(request, ngettext("%(count)s line saved.", "%(count)s lines saved.",
                                           len(saved.saved)) % {"count": len(saved.saved)})
        return redirect(reverse("tournament:match_sheet", kwargs={
            "slug": self.tournament.slug, "match_id": self.match.pk}))

    @staticmethod
    def turn_inputs(replay, lines) -> tuple[list[services.TurnInput], bool]:
        """Each line's turn, its player defaulting to the one after the line above."""
        live = replay.live
        seat_count = len(replay.seats)
        next_player = live.player_to_enter if live is not None else None
        turns = []
        ok = True
        for _index, line in lines:
            player = line.cleaned_data.get("who")
            if player is None:
                player = next_player
            if player is None:
                line.add_error("who", _("Who opened the round? Type the seat letter."))
                ok = False
                player = 0
            turns.append(line.turn_input(player))
            next_player = (player + 1) % seat_count
        return turns, ok


# -- the record, the audit log -----------------------------------------------------------------


class MatchRecordView(MatchMixin, View):
    """The match record (docs/record-format.md, with the referee's decisions), as a download."""

    http_method_names = ("get", "head")

    def get(self, request, *args, **kwargs):
        record = match_record(match=self.match)
        table = self.match.table
        response = HttpResponse(record.to_json(), content_type="application/json")
        filename = f"{self.tournament.slug}-session-{table.session.number}-table-{table.number}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class MatchRecordUploadView(MatchWriteView):
    """Fill an empty match from a record file."""

    def post(self, request, *args, **kwargs):
        form = RecordUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.refused(upload_form=form)
        try:
            written = services.match_record_import(
                match=self.match, user=request.user, seen_revision=form.cleaned_data["revision"],
                submission_key=submission_key(self.request),
                record=form.cleaned_data["record"],
                names_must_match=not form.cleaned_data["names_in_seat_order"],
            )
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return self.stale()
        except ValidationError as error:
            add_service_errors(form, error)
            return self.refused(upload_form=form)
        return self.done(_("Record imported."), written)


class MatchAuditView(MatchMixin, View):
    """Every entry and correction of the match: who, when, what (before, after), why."""

    http_method_names = ("get", "head")

    def has_permission(self) -> bool:
        return is_referee(self.request.user, self.tournament)

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        names = [seat.name for seat in replay.seats]
        table = AuditTable(
            selectors.match_audit_entries(match=self.match), names=names, rounds=replay.rounds,
            orderable=False)
        RequestConfig(request, paginate=False).configure(table)
        return TemplateResponse(request, "tournament/matches/audit.html", {
            "tournament": self.tournament, "match": self.match, "replay": replay,
            "audit_table": table,
        })
