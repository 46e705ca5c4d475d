"""What the match's views share: the match of the address and who may write to it, the match
page's context and rendering, and a write's answers (done, already saved, stale, refused).

The views themselves, by page: ``page.py`` (the match page: the public's match report on
screen and the referee's entry screen), ``entry.py`` (board mode's writes: a turn, its
preview, undo, a decision, a round's end and confirmation), ``corrections.py`` (correcting or
inserting a turn), ``sheet_mode.py`` (sheet mode: a round typed in from its paper score
sheet), ``records.py`` (the record's download and upload, the audit log); the pages' turn
logs, and the closed rounds' log kept, in ``logs.py``.

Views parse the request, call one service or selector and render. A write answers with the
match as it now is: the ``#match`` region for htmx (the page does not reload), a redirect
otherwise. A refused write answers 400 with the message next to its field, a stale one 409
with the current state; nothing is written in either case. Every write goes through
:meth:`MatchWriteMixin.written`, the one place that turns a service's outcome into its answer
(done, already saved, stale, refused): a view gives the service's call, what it shows when
the write is done and how it shows a refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views import View
from django_htmx.http import trigger_client_event

from tournament.core.permissions import TournamentMixin, can_referee, is_organiser, is_referee
from tournament.kit.digits import ascii_number
from tournament.kit.forms import add_service_errors
from tournament.kit.header_values import header_text
from tournament.kit.markup import compact_response, json_attribute
from tournament.matches import services
from tournament.matches.forms.entry import RecordUploadForm, RoundEndForm, TurnForm
from tournament.matches.forms.parsing import clean_cell, clean_corners, clean_tile, small_number
from tournament.matches.reading.replay import match_replay, match_replay_from_play
from tournament.matches.reading.replayed_match import ReplayedMatch, ShownRound, settled_log_key
from tournament.matches.reading.rows import match_by_address, match_with_tournament
from tournament.matches.reading.turn_preview import TurnPreview, browser_scoring, turn_preview
from tournament.matches.views.live_parts import live_parts_ahead
from tournament.matches.views.logs import kept_log, log_table
from tournament.matches.views.scorer_access import ScorerMixin
from tournament.models import Match
from tournament.sessions.services import session_write_refusal
from tournament.standings.views import poll_seconds

T = TypeVar("T")

#: What a service refuses a write with, writing nothing: a ``ValidationError`` (a session not
#: in play among them: ``session_write_refusal``), the engine's refusal of turns, claims that
#: differ which the referee has not said they saw (sheet mode).
WRITE_REFUSALS = (ValidationError, services.TurnsRefused, services.MismatchesNotSeen)
WriteRefusal = ValidationError | services.TurnsRefused | services.MismatchesNotSeen


def addressed_match(*, slug: str, match_id: int) -> Match:
    """The match of an address, with its table, session and tournament (one query); a 404
    when the tournament of ``slug`` has no such match."""
    match = match_by_address(slug=slug, match_id=match_id)
    if match is None:
        raise Http404
    return match


class MatchMixin(ScorerMixin, TournamentMixin):
    """Loads ``self.match`` (of this tournament), whether the user may write to it
    (``can_write``: a referee of its table or an organiser) and, when its session takes no
    write (closed, or not started), why (``write_refusal``): the pages then offer no write."""

    match: Match
    can_write: bool
    write_refusal: ValidationError | None

    def requested_tournament(self):
        # The match is loaded first, with its tournament (one query), for has_permission(); a
        # private tournament is still a 404 to whoever may not see it (TournamentMixin),
        # whichever match is asked for.
        self.match = addressed_match(slug=self.kwargs["slug"], match_id=self.kwargs["match_id"])
        return self.match.table.session.tournament

    def access_refusal(self, request):
        match = self.match
        self.can_write = can_referee(request.user, match.table)
        self.write_refusal = session_write_refusal(match.table.session)
        return super().access_refusal(request)

    def url(self, name: str, **kwargs: Any) -> str:
        return reverse(f"tournament:{name}", kwargs={
            "slug": self.tournament.slug, "match_id": self.match.pk, **kwargs})

    def turn_url(self, name: str, turn_id: int) -> str:
        """The address ``name`` (``match_turn_decide``, ``_correct``, ``_insert``) of a turn."""
        return self.url(name, turn_id=turn_id)

    def reload_match(self) -> None:
        self.match = match_with_tournament(self.match.pk).get()


class MatchWriteMixin(MatchMixin):
    """Writes: a referee of this table (or an organiser); anonymous users go to the login (a
    script's request is answered 401: ``PermissionMixin.login_expired``)."""

    login_required = True

    def has_permission(self) -> bool:
        return self.can_write

    def access_refusal(self, request):
        """Also: a submission sent again after its first save is answered "already saved"
        before any check its first save made fail (the revision, the turn it corrects, the
        tiles on the table); asked only when the revision posted is behind the match's."""
        refusal = self.scorer_refused(request, super().access_refusal(request))
        key, seen = submission_key(request), posted_revision(request)
        if (refusal is None and request.method == "POST" and key and seen is not None
                and seen < self.match.revision
                and services.submission_saved(match_id=self.match.pk, key=key)):
            return self.already_saved()
        return refusal

    def login_next(self) -> str:
        return reverse("tournament:match", kwargs={
            "slug": self.kwargs["slug"], "match_id": self.kwargs["match_id"]})

    def written(self, service: Callable[..., T], *, done: Callable[[T], HttpResponse],
                refused: Callable[[WriteRefusal], HttpResponse],
                stale: Callable[[], HttpResponse] | None = None,
                **arguments: Any) -> HttpResponse:
        """The answer to a write: ``service`` called with the match, the user, the
        submission's key and ``arguments``, then ``done`` with what it returned. Nothing is
        written, and the answer says so, when the same submission was saved before
        (:meth:`already_saved`), when another save came first (:meth:`stale`, or ``stale``
        when the view keeps more of what was typed) and when the service refuses the write
        (``refused``, with the refusal: ``WRITE_REFUSALS``)."""
        try:
            result = service(match=self.match, user=self.writer(),
                             submission_key=submission_key(self.request), **arguments)
        except services.AlreadySaved:
            return self.already_saved()
        except services.StaleMatch:
            return (stale or self.stale)()
        except WRITE_REFUSALS as error:
            return refused(error)
        return live_parts_ahead.after(done(result), request=self.request, written=result)

    def already_saved(self) -> HttpResponse:
        """The same submission was saved before (sent again): the page the write returns to,
        said so; nothing written."""
        return self.redirect_back(services.already_saved_message())

    def stale(self) -> HttpResponse:
        """Another save came first: the match as it now is, said so (409); nothing written."""
        raise NotImplementedError

    def redirect_name(self) -> str:
        """The page a write returns to, without htmx."""
        return "match"

    def redirect_back(self, message: str) -> HttpResponse:
        """The page the write returns to (``redirect_name``), with ``message`` on it."""
        if message:
            messages.success(self.request, message)
        return redirect(self.url(self.redirect_name()))


# -- the match page ----------------------------------------------------------------------------


class MatchPageMixin(MatchMixin):
    """Renders the match page, or its ``#match`` region for htmx, with the forms given."""

    template_name = "tournament/matches/match.html"
    region_template = "tournament/matches/_match.html"
    #: The page shows the rounds' logs (``log_rounds``); the public's live part does not.
    shows_log = True

    def page_context(self, replay: ReplayedMatch, *, unchanged_before: int = 0,
                     shown: ShownRound | None = None, **forms: Any) -> dict[str, Any]:
        """The page's context; the confirmed rounds before ``unchanged_before`` (rounds a write
        left as they were) are sent as placeholders that htmx fills with the ones the tablet
        shows (``hx-preserve``); so are, with ``shown`` (the page shows the match as the write
        found it), the others before it (their forms take the answer's revision on the page:
        ``entry_answer.js``) and the parts that the write left as they were: the header, the
        tiles' grid, the table (only its changes are sent) and the log's turns."""
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
        context["head_kept"] = shown is not None and shown.status == replay.match.status
        context["kept_current"] = kept_current = shown is not None
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

        context.update(self.scorer_context(request, replay.match, url=self.url))
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
            "can_decide": can_write and self.scorer_device is None,
        }
        # the public's page following a match shows the round in play apart (``live_log``)
        follows_apart = (not self.can_write and "follow_seconds" in context
                         and live_round_view is not None)
        # replayed from its round in play (``match_replay_from_play``): the closed rounds
        # before it are stored views, left to the page when it has them all, else their log
        # kept (``kept_log``)
        from_play = replay.rows.closed_stored

        def left_to_page(round_view) -> bool:
            return round_view.index < unchanged_before and (round_view.confirmed or kept_current)

        stored = [round_view for round_view in replay.rounds if round_view.stored]
        from_kept_log = from_play and not all(map(left_to_page, stored))
        context["log_rounds"] = [] if not self.shows_log else [
            {"round": round_view, "preserved": True}
            if (round_view.stored and not from_play) or left_to_page(round_view)
            else
            {"round": round_view,
             "table": log_table(
                 request, round_view, f"r{round_view.number}-", **log_options,
                 body_id=f"turns-r{round_view.number}",
                 kept_rows=live.kept_lines(round_view, shown) if live is not None else ()),
             "confirm_elsewhere": round_view is to_confirm}
            for round_view in (replay.rounds[:-1] if follows_apart else replay.rounds)
            if not (from_kept_log and round_view.stored)
        ]
        if not self.can_write:
            # the public's page polls its live part alone (``MatchLiveView``): the round in
            # play with its last turns; the settled rounds below change only at a round's end,
            # a correction or a confirmation, and the live part says when (``log_key``)
            context["log_key"] = settled_log_key(replay)
            if "follow_seconds" in context:
                context["live_url"] = self.url("match_live")
                context["stream_url"] = self.url("match_stream")
                if follows_apart:  # its last turns: what a turn changes
                    context["live_log"] = {"round": live_round_view, "table": log_table(
                        request, live_round_view, f"r{live_round_view.number}-",
                        **log_options, last=LIVE_TURNS)}
                    context["live_turns"] = LIVE_TURNS
        if self.shows_log and from_kept_log:
            # taken (or made) as the page is rendered, after the page's own context
            context["kept_log"] = lambda latest_open=not context["log_rounds"]: kept_log(
                request, replay, context, log_options, latest_open=latest_open)
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
                # the tablet shows this round at the revision it posted: the answer carries
                # what changed on its table, and leaves it the tiles' grid (entry.js sets each
                # tile from the table) and the cell's list (the table picks the cell)
                context["board_changes"] = live.board_changes(shown)
                context["tiles_kept"] = context["board_changes"] is not None
                context["legal_cells_json"] = json_attribute(live.legal_cells)
                if not context["tiles_kept"]:  # what the tablet keeps is not made again
                    context["tiles"] = live.tile_grid()
                    # the table as placements, for entry to go on offline (board.js, pending.js)
                    context["placements_json"] = json_attribute(
                        [str(p) for p in live.board.placements] if live.board is not None
                        else [])
                # the figures and words of a fitting tile's preview, said without a request (on
                # the table, which a save's answer leaves to the page; the pool on the form)
                scoring = browser_scoring(live)
                context["scoring_json"] = json_attribute(scoring) if scoring else ""
            context["can_undo"] = live_round_view is not None and bool(live_round_view.turns)
        if can_write and not replay.rounds:
            context["upload_form"] = forms.get("upload_form") or RecordUploadForm(
                initial={"revision": revision})
        context.update({k: v for k, v in forms.items() if not k.endswith("_form")})
        return context

    def render_match(self, *, status: int = 200, replay: ReplayedMatch | None = None,
                     unchanged_before: int = 0, shown: ShownRound | None = None,
                     **forms: Any) -> HttpResponse:
        if replay is None:
            # the closed rounds' log kept, unless the answer says something of one of them
            kept = not forms.keys() & {"decision_error_turn", "settlement_error_round"}
            replay = (match_replay_from_play(match=self.match) if kept
                      else match_replay(match=self.match))
        htmx = bool(self.request.htmx)
        context = self.page_context(replay, unchanged_before=unchanged_before if htmx else 0,
                                    shown=shown if htmx else None, **forms)
        template = self.region_template if htmx else self.template_name
        response = TemplateResponse(self.request, template, context, status=status)
        if htmx:  # sent after every save and polled: without the templates' indentation
            response.add_post_render_callback(compact_response)
        # the tablet reads the revision it writes from here (its queue chains the turns)
        response[REVISION_HEADER] = str(replay.match.revision)
        return response


class MatchWriteView(MatchWriteMixin, MatchPageMixin, View):
    """A write from the entry screen: the form, the service, then the match as it now is."""

    http_method_names = ("post",)

    def done(self, message: str, written: services.WriteResult, *,
             kind: str = "saved", shown: ShownRound | None = None) -> HttpResponse:
        """The write's answer: the match as the service wrote it (its replay). ``kind`` is
        what the tablet announces: "saved", or "pending" (saved, a decision awaited);
        ``shown``: the round in play as the tablet shows it (``shown_round``)."""
        self.match = written.replay.match
        if self.request.htmx:
            return announced(self.render_match(
                replay=written.replay, done_message=message, unchanged_before=written.round_index,
                shown=shown,
            ), kind, message, submission="saved")
        return self.redirect_back(message)

    def already_saved(self) -> HttpResponse:
        """The same submission was saved before (its tablet sent it again): the match as it
        is, said so; nothing written."""
        if not self.request.htmx:
            return super().already_saved()
        self.reload_match()
        message = services.already_saved_message()
        return announced(self.render_match(done_message=message), "already-saved", message,
                         submission="already-saved")

    def posted_stale(self) -> bool:
        """The revision posted is a number and not the match's: another save came first."""
        seen = posted_revision(self.request)
        return seen is not None and seen != self.match.revision

    def redirect_name(self) -> str:
        return "match_sheet_mode" if self.request.POST.get("next") == "sheet" else "match"

    def stale(self) -> HttpResponse:
        self.reload_match()
        message = services.stale_match_message()
        if self.request.htmx or self.redirect_name() == "match":
            return announced(self.render_match(status=409, conflict_message=message), "stale",
                             message, submission="stale")
        messages.error(self.request, message, extra_tags="stale")
        return redirect(self.url(self.redirect_name()))

    def refused(self, *, status: int = 400, **forms: Any) -> HttpResponse:
        if self.redirect_name() == "match_sheet_mode" and not self.request.htmx:
            for key, value in forms.items():
                if key.endswith("_message"):
                    messages.error(self.request, value)
                elif key.endswith("_messages"):
                    for message in value or ():
                        messages.error(self.request, message)
                elif hasattr(value, "errors"):
                    for errors in value.errors.values():
                        for error in errors:
                            messages.error(self.request, error)
            return redirect(self.url("match_sheet_mode"))
        return announced(self.render_match(status=status, **forms), "refused",
                         refusal_text(forms), submission="refused")


#: The turns of the round in play the public's live part shows (the last ones).
LIVE_TURNS = 8
#: The response header with the match's revision after the answer (every match page answer).
REVISION_HEADER = "X-Match-Revision"
#: The request header with the revision of the match the tablet's page shows (queue.js sends
#: it with the writes htmx sends from the page, not with those sent again from the queue).
SHOWN_HEADER = "X-Match-Shown"
#: What became of a write's submission: saved, already-saved, stale, refused.
SUBMISSION_HEADER = "X-Submission"
#: The event the entry screen announces a write's outcome by (``HX-Trigger-After-Settle``).
ANNOUNCE_EVENT = "entry-announce"


def announced(response: HttpResponse, kind: str, text: str, *,
              submission: str) -> HttpResponse:
    """``response`` telling the tablet the write's outcome: the event it announces (``kind``:
    saved, pending, already-saved, stale, refused; the sentence), and the submission's fate
    in ``X-Submission`` (the queue removes a turn saved or already saved). The sentence may
    quote what was submitted, at any length: the header carries one line of it, bounded
    (``header_text``); the page shows it whole."""
    response[SUBMISSION_HEADER] = submission
    # JSON's \u escapes keep the header ASCII whatever the language
    return trigger_client_event(response, ANNOUNCE_EVENT,
                                {"kind": kind, "text": header_text(str(text))}, after="settle")


def refusal_text(forms: dict[str, Any]) -> str:
    """The sentence of a refusal: its message, else the errors of the form refused."""
    for key, value in forms.items():
        if key.endswith("_message") and value:
            return str(value)
    texts = [str(error) for key, value in forms.items() if key.endswith("_messages") and value
             for error in value]
    for value in forms.values():
        if hasattr(value, "errors") and hasattr(value, "is_bound"):
            texts += [str(error) for errors in value.errors.values() for error in errors]
    return " ".join(texts)


def with_refusal(form, error: WriteRefusal, *, field: str | None = None):
    """``form`` with a write's refusal on it: the engine's refusal of a turn next to its cell
    when one was typed (else next to ``field``), a service's error next to the field it
    names."""
    if isinstance(error, services.TurnsRefused):
        form.add_error("cell" if form.cleaned_data.get("cell") else field,
                       error.validation_error())
    else:
        add_service_errors(form, error)
    return form


def submission_key(request) -> str:
    """The key the tablet made for this submission (hidden input ``submission_key``): letters,
    digits and dashes, 64 at most; anything else counts as no key."""
    key = request.POST.get("submission_key", "")
    if 8 <= len(key) <= 64 and key.isascii() and all(c.isalnum() or c in "-_" for c in key):
        return key
    return ""


def shown_round(request, replay: ReplayedMatch) -> ShownRound | None:
    """The round in play as the tablet's page shows it, when the page shows the match as
    ``replay`` has it (its ``X-Match-Shown`` header): taken before a write, for the answer to
    leave out what the write left as it was. None otherwise: the answer is whole."""
    live = replay.live
    if live is None or request.headers.get(SHOWN_HEADER) != str(replay.match.revision):
        return None
    return live.shown(replay.live_round_view, status=replay.match.status)


def posted_revision(request) -> int | None:
    """The revision posted, when it is a number in ASCII digits (None otherwise: the form
    then says what is wrong)."""
    return ascii_number(request.POST.get("revision", ""), digits=11)


def posted_at_revision(request, revision: int):
    """What was posted, at the match's current revision: after a stale save the scorekeeper
    keeps what they typed, and their next save is checked against the match now shown."""
    data = request.POST.copy()
    data["revision"] = str(revision)
    return data


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
