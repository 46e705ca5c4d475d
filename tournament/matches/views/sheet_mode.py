"""Sheet mode: a round typed in from its paper score sheet, one line a turn, checked by the
engine as it is saved."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from tournament.matches import services
from tournament.matches.forms.entry import RoundEndForm
from tournament.matches.forms.parsing import small_number
from tournament.matches.forms.sheet_mode import SheetModeForm, SheetModeFormSet
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.turn_preview import explain_report, problem_messages
from tournament.matches.sheet_codes import bonus_codes_text
from tournament.matches.views.base import MatchWriteMixin, posted_at_revision
from tournament.models import Verdict

SHEET_MODE_LINES = 28  # a round of four players takes 26 to 28 turns


#: The most lines sheet mode shows ("more lines" stops there).
SHEET_MODE_MAX_LINES = 200


class SheetModeView(MatchWriteMixin, View):
    """Sheet mode: a paper score sheet typed in, one line per turn. "Check" runs the lines
    through the engine and shows each line's verdict; "Save" saves them all or none."""

    scorer_may = True  # the table's scorer phone too

    http_method_names = ("get", "post")
    template_name = "tournament/matches/sheet_mode.html"

    def redirect_name(self) -> str:
        return "match_sheet_mode"

    def render(self, replay, formset, form, *, results=None, status=200, focus_line=0, **extra):
        live = replay.live
        context = {
            "tournament": self.tournament, "match": self.match, "replay": replay, "live": live,
            "formset": formset, "form": form,
            "revision": replay.match.revision,
            "live_round": replay.live_round_view,
            "seat_totals": list(zip(replay.seats, replay.totals)),
            "bonus_codes": bonus_codes_text(),
            "verdicts": {verdict.value: verdict.label for verdict in Verdict},
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
        context["sheet_mode_rows"] = [
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
        formset = SheetModeFormSet(initial=[{}] * SHEET_MODE_LINES, seat_count=len(replay.seats), prefix="line")
        return self.render(replay, formset, SheetModeForm(initial={"revision": replay.match.revision}))

    def post(self, request, *args, **kwargs):
        # The check and the save change the round in play only: the settled rounds are taken
        # from their stored scores, not replayed.
        replay = match_replay(match=self.match, settled_stored=True)
        seat_count = len(replay.seats)
        formset = SheetModeFormSet(request.POST, seat_count=seat_count, prefix="line")
        form = SheetModeForm(request.POST)
        saving = "save" in request.POST
        if "more" in request.POST:
            lines = small_number(request.POST.get("line-TOTAL_FORMS", ""), high=SHEET_MODE_MAX_LINES)
            if lines is None:  # the management form says what is wrong
                formset.is_valid()
                return self.render(replay, formset, form, status=400)
            data = request.POST.copy()
            data["line-TOTAL_FORMS"] = str(min(lines + SHEET_MODE_LINES, SHEET_MODE_MAX_LINES))
            formset = SheetModeFormSet(data, seat_count=seat_count, prefix="line")
            formset.is_valid()
            typed = [i for i, line in enumerate(formset.forms) if not line.is_blank]
            return self.render(replay, formset, form, focus_line=typed[-1] + 1 if typed else 0)
        if not (formset.is_valid() and form.is_valid()):
            return self.render(replay, formset, form, status=400)
        lines = [(i, line) for i, line in enumerate(formset.forms) if not line.is_blank]
        if not lines:
            return self.render(replay, formset, form, status=400,
                               sheet_mode_message=_("Type at least one line."))
        turns, ok = self.turn_inputs(replay, lines)
        if not ok:
            return self.render(replay, formset, form, status=400)
        try:
            reports, players = services.candidate_reports(replay=replay, turns=turns)
        except ValidationError as error:
            return self.render(replay, formset, form, status=400,
                               sheet_mode_message=" ".join(error.messages))
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

        def refusal(error) -> HttpResponse:
            if isinstance(error, services.MismatchesNotSeen):
                form.add_error("mismatches_seen", _("Tick this box once you have looked at the "
                                                    "claims that differ (decide now or later)."))
                return self.render(replay, formset, form, results=results, status=400,
                                   checked=True, mismatch_count=len(mismatches))
            return self.render(replay, formset, form, results=results, status=400,
                               sheet_mode_message=" ".join(error.messages))

        def stale() -> HttpResponse:  # the lines typed and their check are kept
            self.reload_match()
            return self.render(
                match_replay(match=self.match), formset,
                SheetModeForm(posted_at_revision(request, self.match.revision)),
                results=results, status=409, sheet_mode_message=services.stale_match_message())

        return self.written(
            services.match_turns_add, seen_revision=form.cleaned_data["revision"], turns=turns,
            mismatches_seen=form.cleaned_data["mismatches_seen"], before=replay,
            done=lambda saved: self.redirect_back(lines_saved_message(len(saved.saved))),
            refused=refusal, stale=stale)

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


def lines_saved_message(count: int) -> str:
    return ngettext("%(count)s line saved.", "%(count)s lines saved.", count) % {"count": count}
