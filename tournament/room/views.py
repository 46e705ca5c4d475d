"""The room's pages: the session clock (its figures for every page's clock, the organiser's
controls), the head referee's board, a table's call for a referee, the projector screen and
its settings (docs/guides/room.md).

The board and the screen poll themselves: each poll is answered from a copy kept per data
version (``tournament.kit.cache``), 304 when nothing changed. The clock's figures are never
kept: they are the server's time left, the one part that moves by itself.
"""

from __future__ import annotations

import hashlib
import time
from functools import cached_property

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournament.core.mixins import message_refusal, poll_seconds
from tournament.core.permissions import (
    OrganiserRequiredMixin,
    RefereeRequiredMixin,
    TournamentMixin,
    can_referee,
    refereed_tables,
)
from tournament.kit.cache import cached_copy, conditional_answer, etag
from tournament.kit.cached_pages import CSRF_MARKER, CachedPageMixin
from tournament.kit.formats import duration
from tournament.kit.forms import add_service_errors
from tournament.models import Announcement, RefereeCall, Session, Table
from tournament.room import selectors, services
from tournament.room.clock import clock_at, session_clock
from tournament.room.forms import (
    AnnouncementForm,
    CallForm,
    ClockAddForm,
    ClockSetForm,
    RoomSettingsForm,
    SessionEntryForm,
)
from tournament.sessions.selectors import session_now

#: How long a kept board copy stays current at most while nothing is written (its "time since
#: the last entry" and its pace flags move with time).
BOARD_SECONDS = 60


class ClockView(TournamentMixin, View):
    """/t/<slug>/sessions/<n>/clock.json (and .../tables/<t>/clock.json): the seconds left,
    counted by the server, for a page's clock to count down from; for a table, its open call.
    The first reader to find the time up applies the tournament's setting
    (``services.time_up_settle``).

    A page's clock counts down by itself (``clock.js``) and asks again every 20 seconds only
    to learn of a change: the answer carries an ETag named by what it says but the seconds
    left (the clock's state, its time set, when it last started and what it ran before; the
    table's open call), and a 304 when that did not move. ``version`` in the answer names the
    same: the script keeps counting when a copy it is given (its browser's, after a 304) is of
    the clock it counts.

    Everything the answer says is read by its address in one query compiled once per process
    (``selectors.clock_read``), before the tournament is loaded: the clock is the same for
    every reader, so a public tournament's is answered from that read alone
    (``unchanged_answer``, whoever asks); a private one's only once the tournament is loaded
    and its reader may see it (``TournamentMixin``), a 404 to everyone else."""

    http_method_names = ["get", "head"]
    read: selectors.ClockRead | None = None

    def unchanged_answer(self, request):
        self.read = selectors.clock_read(
            slug=self.kwargs["slug"], number=self.kwargs["number"], table=self.kwargs.get("table"))
        if self.read is None or not self.read.is_public:
            return None  # the tournament loaded: a 404 as before, or a private one's checks
        return self.answer(request)

    def get(self, request, *args, **kwargs):
        return self.answer(request)

    def answer(self, request):
        read = self.read
        if read is None:
            raise Http404
        clock = clock_at(seconds=read.clock_seconds, started_at=read.clock_started_at,
                         elapsed_before=read.clock_elapsed, now=timezone.now())
        if clock.is_up and read.time_up_at is None:
            services.time_up_settle(
                session=Session.objects.select_related("tournament").get(pk=read.session_id),
                user=request.user)
        said: list[object] = [clock.state, clock.total, read.clock_elapsed,
                              read.clock_started_at and read.clock_started_at.timestamp()]
        table = "table" in self.kwargs
        if table:
            said.append(read.call)
        version = clock_version(said)
        key = f"clock:{request.path}:{get_language()}"
        not_modified = conditional_answer(request, etag(key, version))
        if not_modified is None:
            data: dict[str, object] = {"clock": clock.as_json(), "version": version}
            if table:
                data["call"] = None if read.call is None else {
                    # the model's label, in the reader's language (``get_reason_display``)
                    "reason": str(RefereeCall.Reason(read.call[2]).label),
                    "times": read.call[1]}
            response = JsonResponse(data)
        else:
            response = not_modified
        response["ETag"] = etag(key, version)
        patch_cache_control(response, no_cache=True)
        return response


def clock_version(said: list[object]) -> str:
    """A short name of what a clock's answer says but the seconds left."""
    return hashlib.sha256(repr(said).encode()).hexdigest()[:16]


class SessionClockView(OrganiserRequiredMixin, TemplateView):
    """/t/<slug>/sessions/<n>/clock/: the organiser sets the session's time, starts, pauses,
    resumes it, adds minutes, removes it."""

    template_name = "tournament/room/clock.html"
    actions = ("set", "start", "pause", "add", "remove")

    @cached_property
    def session(self) -> Session:
        return get_object_or_404(Session.objects.select_related("tournament"),
                                 tournament=self.tournament, number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("set_form", ClockSetForm())
        context.setdefault("add_form", ClockAddForm(initial={"extra_minutes": 5}))
        context["session"] = self.session
        context["clock"] = session_clock(self.session, now=timezone.now())
        context.setdefault("entry_form", SessionEntryForm(
            initial={"match_entry": self.session.match_entry}))
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action not in self.actions:
            return self.render_to_response(self.get_context_data(), status=400)
        forms = {}
        state = session_clock(self.session, now=timezone.now()).state
        done, code = "", f"clock-{action}"
        try:
            if action == "set":
                form = forms["set_form"] = ClockSetForm(request.POST)
                if form.is_valid():
                    session = services.clock_set(
                        session=self.session, minutes=form.cleaned_data["minutes"],
                        user=request.user)
                    done = _("Time set: %(duration)s.") % {
                        "duration": duration(session.clock_seconds)}
            elif action == "add":
                form = forms["add_form"] = ClockAddForm(request.POST)
                if form.is_valid():
                    minutes = form.cleaned_data["extra_minutes"]
                    services.clock_add(session=self.session, minutes=minutes, user=request.user)
                    done = _("Time added: %(duration)s.") % {"duration": duration(minutes * 60)}
            else:
                service = {"start": services.clock_start, "pause": services.clock_pause,
                           "remove": services.clock_remove}[action]
                service(session=self.session, user=request.user)
                if action == "start" and state == "paused":
                    code = "clock-resume"
                done = {
                    "start": _("The clock runs again.") if state == "paused"
                    else _("The clock is running."),
                    "pause": _("The clock is paused."),
                    "remove": _("The clock is removed: this session has no clock any more."),
                }[action]
        except ValidationError as error:
            form = forms.get("set_form") or forms.get("add_form")
            if form is None:
                message_refusal(request, error)
                return redirect(request.path)
            add_service_errors(form, error)
        if any(form.errors for form in forms.values()):
            return self.render_to_response(self.get_context_data(**forms), status=400)
        messages.success(request, done, extra_tags=code)
        return redirect(request.path)


def _kept_fragment(request, *, key: str, version: int, make) -> HttpResponse:
    """A fragment answered from a copy kept per data ``version`` under ``key``, 304 to a poll
    that has it (the kept pages' way, ``tournament.kit.cached_pages``, for a page read by
    the staff: its fragment is the same for each of them)."""
    tag = etag(key, version)
    not_modified = conditional_answer(request, tag)
    if not_modified is None:
        made = cached_copy(key=key, version=version, make=make)
        content = made.content.replace(CSRF_MARKER.encode(), get_token(request).encode())
        not_modified = HttpResponse(content)
        not_modified["Last-Modified"] = http_date(made.made_at.timestamp())
    not_modified["ETag"] = tag
    patch_cache_control(not_modified, no_cache=True, private=True)
    patch_vary_headers(not_modified, ("HX-Request", "Cookie"))
    return not_modified


class BoardView(RefereeRequiredMixin, TemplateView):
    """/t/<slug>/room/: every table of the session of the moment, what needs a person first;
    its ``#board`` region polls itself (kept per data version, and per minute)."""

    template_name = "tournament/room/board.html"
    fragment_template_name = "tournament/room/_board.html"

    @cached_property
    def answer_tables(self) -> frozenset[int] | None:
        """The tables whose calls this member of the staff may answer: those they may
        referee (``can_referee``); None for every table."""
        return refereed_tables(self.request.user, self.tournament)

    def board_context(self, session):
        context = {"session": session, "tournament": self.tournament,
                   "poll_seconds": poll_seconds()}
        if session is not None:
            context.update(selectors.board(session=session))
            tables = self.answer_tables
            context["rows"] = [
                {**row, "may_answer": tables is None or row["number"] in tables}
                for row in context["rows"]]
        return context

    def get(self, request, *args, **kwargs):
        session = session_now(tournament=self.tournament)
        if session is not None and session.time_up_at is None and \
                session_clock(session, now=timezone.now()).is_up:
            services.time_up_settle(session=session, user=request.user)
            self.tournament.refresh_from_db(fields=["data_version"])
        if not request.htmx:
            return self.render_to_response(self.get_context_data(**self.board_context(session)))
        minute = int(time.time() // BOARD_SECONDS)
        # the answer buttons are the reader's tables': one copy per set of tables
        tables = ("all" if self.answer_tables is None
                  else ",".join(map(str, sorted(self.answer_tables))))
        key = (f"room:{self.tournament.pk}:board:{session.pk if session else 0}:"
               f"{get_language()}:{minute}:{tables}")

        def make() -> bytes:
            response = TemplateResponse(request, self.fragment_template_name,
                                        {**self.board_context(session),
                                         "csrf_token": CSRF_MARKER})
            return response.render().content

        return _kept_fragment(request, key=key, version=self.tournament.data_version, make=make)


class CallAnswerView(RefereeRequiredMixin, View):
    """A call answered: from the board, or from the tablet of the table; by a member of the
    staff who may referee that table (``can_referee``, as entering its match), 403 for
    another."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        session = session_now(tournament=self.tournament)
        if session is None:
            raise Http404
        asked = (RefereeCall.objects.select_related("table__session__tournament")
                 .filter(session=session, pk=kwargs["call_id"]).first())
        if asked is not None and not can_referee(request.user, asked.table):
            # the calls of the tables the user may referee, as for entering their matches
            raise PermissionDenied
        try:
            call = services.call_answer(session=session, call_id=kwargs["call_id"],
                                        user=request.user)
        except ValidationError as error:
            message_refusal(request, error)
        else:
            messages.success(request, _("Table %(table)s: the call is answered.")
                             % {"table": call.table.number})
        return redirect("tournament:room_board", slug=self.tournament.slug)


class CallView(TournamentMixin, TemplateView):
    """/t/<slug>/tables/<n>/call/: the players of table n (in the session of the moment) call
    a referee, with the code of their table's card."""

    template_name = "tournament/room/call.html"

    @cached_property
    def table(self) -> Table:
        session = session_now(tournament=self.tournament)
        if session is None:
            raise Http404
        return get_object_or_404(Table.objects.select_related("session"), session=session,
                                 number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", CallForm())
        context["table"] = self.table
        context["session"] = self.table.session
        context["open_call"] = self.table.referee_calls.filter(answered_at__isnull=True).first()
        return context

    def post(self, request, *args, **kwargs):
        form = CallForm(request.POST)
        if form.is_valid():
            try:
                services.call_make(table=self.table, reason=form.cleaned_data["reason"],
                                   code=form.cleaned_data["code"],
                                   address=get_client_ip_address(request))
            except ValidationError as error:
                add_service_errors(form, error)
        locked = [error for error in form.errors.as_data().get("code", [])
                  if error.code == "locked-out"]
        if locked:
            # too many wrong codes: the code was not checked; the form says when to try again
            seconds = locked[0].params["seconds"]
            response = self.render_to_response(
                self.get_context_data(form=form, retry_seconds=seconds), status=429)
            response["Retry-After"] = str(seconds)
            return response
        if form.errors:
            return self.render_to_response(self.get_context_data(form=form), status=400)
        return self.render_to_response(self.get_context_data(called=True))


class ScreenView(TournamentMixin, CachedPageMixin, TemplateView):
    """/t/<slug>/screen/: the projector, full screen, nothing to click. It cycles through its
    views by itself and polls its ``#screen`` region, kept per data version for everyone."""

    template_name = "tournament/room/screen.html"
    fragment_template_name = "tournament/room/_screen.html"

    def page(self, request, *args, **kwargs):
        context = self.get_context_data(**selectors.screen(tournament=self.tournament),
                                        poll_seconds=poll_seconds())
        template = self.fragment_template_name if request.htmx else self.template_name
        return self.response_class(request, template, context)


class RoomSettingsView(OrganiserRequiredMixin, TemplateView):
    """/t/<slug>/room/settings/: what time's end does, the projector's pace and pages, the
    announcements."""

    template_name = "tournament/room/settings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.tournament
        context.setdefault("settings_form", RoomSettingsForm(initial={
            "match_entry": tournament.match_entry,
            "time_up_action": tournament.time_up_action,
            "screen_seconds": tournament.screen_seconds,
            "screen_top": tournament.screen_top,
        }))
        context.setdefault("announcement_form", AnnouncementForm())
        context["announcements"] = Announcement.objects.filter(tournament=tournament)[:20]
        context["session"] = session_now(tournament=tournament)
        return context

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        try:
            if action == "settings":
                form = RoomSettingsForm(request.POST)
                if form.is_valid():
                    try:
                        services.room_settings_save(tournament=self.tournament,
                                                    **form.cleaned_data)
                    except ValidationError as error:
                        add_service_errors(form, error)
                if form.errors:
                    return self.render_to_response(
                        self.get_context_data(settings_form=form), status=400)
            elif action == "announce":
                form = AnnouncementForm(request.POST)
                if form.is_valid():
                    try:
                        services.announcement_add(tournament=self.tournament,
                                                  text=form.cleaned_data["text"])
                    except ValidationError as error:
                        add_service_errors(form, error)
                if form.errors:
                    return self.render_to_response(
                        self.get_context_data(announcement_form=form), status=400)
            elif action in ("show", "hide"):
                try:
                    announcement_id = int(request.POST.get("announcement", ""))
                except ValueError:
                    announcement_id = 0
                services.announcement_show(tournament=self.tournament,
                                           announcement_id=announcement_id,
                                           shown=action == "show")
            else:
                return self.render_to_response(self.get_context_data(), status=400)
        except ValidationError as error:
            message_refusal(request, error)
            return redirect(request.path)
        messages.success(request, _("Saved."))
        return redirect(request.path)


class SessionEntryView(SessionClockView):
    """/t/<slug>/organise/sessions/<n>/entry/: who enters this session's matches (the
    tournament's choice, or otherwise), set on the session's clock page."""

    http_method_names = ("post",)

    def post(self, request, *args, **kwargs):
        form = SessionEntryForm(request.POST)
        if form.is_valid():
            try:
                services.session_entry_set(session=self.session,
                                           match_entry=form.cleaned_data["match_entry"])
            except ValidationError as error:
                add_service_errors(form, error)
        if form.errors:
            return self.render_to_response(self.get_context_data(entry_form=form), status=400)
        messages.success(request, _("Saved."))
        return redirect("tournament:session_clock", slug=self.tournament.slug,
                        number=self.session.number)
