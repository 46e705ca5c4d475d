"""Views: parse the request, call one service or selector, render."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Max
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournament.core.permissions import TournamentMixin, can_create_tournament
from tournament.home import selectors
from tournament.home.tables import RegistrationTable, SessionTable, TournamentTable
from tournament.organiser.selectors import invitations_for


def login_attempt_username(request, credentials=None) -> str:
    """The username django-axes counts a login attempt under: the one typed, cut to the
    longest an account may have. Django's login form sends an over-long one to the
    authentication as typed, and axes would store it as is (PostgreSQL refused a 5,000
    character one: a 500)."""
    username = (credentials or {}).get("username")
    if username is None:
        username = request.POST.get("username", "")
    return str(username)[: get_user_model().username.field.max_length]


def login_locked_out(request, original_response=None, credentials=None) -> HttpResponse:
    """django-axes's answer to a locked-out login (ours and the admin's): 429, in the user's
    language, with how long it lasts, who can lift it, and the device's address (an
    organiser lifts the lock for that address only)."""
    return TemplateResponse(request, "tournament/locked_out.html", {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        "address": get_client_ip_address(request),
    }, status=429).render()


class LoginView(auth_views.LoginView):
    """The login page; after a wrong password, how many tries are left before django-axes
    locks the username out from this address (``login_locked_out``), so that nobody is
    locked out without warning."""

    template_name = "tournament/login.html"

    def form_invalid(self, form):
        username = login_attempt_username(self.request)
        failures = 0
        if "\x00" not in username:  # PostgreSQL keeps no NUL: no attempt is counted under one
            failures = AccessAttempt.objects.filter(
                username=username, ip_address=get_client_ip_address(self.request),
            ).aggregate(failures=Max("failures_since_start"))["failures"] or 0
        tries_left = max(settings.AXES_FAILURE_LIMIT - failures, 0)
        return self.render_to_response(self.get_context_data(
            form=form, tries_left=tries_left if failures else None,
            minutes=int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        ))


class LogoutView(auth_views.LogoutView):
    """Logging out. Its answer tells the browser to forget what it kept of the site
    (``Clear-Site-Data``: the pages the tablet's service worker kept, the HTTP cache, the
    storage), so that the next person on a shared tablet finds none of it, even offline.

    The storage holds the turns waiting to be sent (queue.js): they are never dropped
    unasked. When some wait, the header's button leads here with ``GET`` instead of logging
    out (logout.js), and this page lists them by match: open the match to send them, or
    discard them and log out (``#logout-discard``)."""

    http_method_names = ["get", "post", "options"]
    template_name = "tournament/logout.html"

    def get(self, request, *args, **kwargs):
        return TemplateResponse(request, self.template_name, {})

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


class HomeView(TemplateView):
    """The tournaments: public ones, plus the private ones of the user's staff roles."""

    template_name = "tournament/home.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = TournamentTable(selectors.tournaments_visible_to(self.request.user))
        RequestConfig(self.request, paginate=False).configure(table)
        context["tournament_table"] = table
        context["can_create_tournament"] = can_create_tournament(self.request.user)
        return context


class MyTablesView(LoginRequiredMixin, TemplateView):
    """/my-tables/: where a referee lands after logging in: the roles offered to them, to
    accept or decline, then the tables they may enter, the sessions in play first."""

    template_name = "tournament/my_tables.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            groups=selectors.staff_tables(user=self.request.user),
            practice=selectors.practice_tables(user=self.request.user),
            invitations=invitations_for(user=self.request.user),
            **kwargs,
        )


class TournamentDetailView(TournamentMixin, TemplateView):
    """A tournament: its settings, sessions and players."""

    template_name = "tournament/detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        session_table = SessionTable(
            selectors.tournament_sessions(tournament=self.tournament), prefix="session-"
        )
        player_table = RegistrationTable(
            selectors.tournament_registrations(tournament=self.tournament), prefix="player-"
        )
        config = RequestConfig(self.request, paginate=False)
        config.configure(session_table)
        config.configure(player_table)
        context["session_table"] = session_table
        context["player_table"] = player_table
        return context
