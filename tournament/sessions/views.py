"""The organiser's buttons of a session's lifecycle: open the next session, start a seated one,
close one whose matches are all confirmed (reopening is a form of the session's page,
``tournament.seating.views``)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.core.mixins import ActionView, SessionActionMixin
from tournament.sessions import services


class SessionOpenView(ActionView):
    def act(self):
        return services.session_open(tournament=self.tournament)

    def success_message(self, session):
        return _("Session %(number)s is open: seat the players.") % {"number": session.number}

    def next_url(self, result=None):
        if result is None:
            return reverse("tournament:organise", kwargs={"slug": self.tournament.slug})
        return reverse(
            "tournament:session_organise",
            kwargs={"slug": self.tournament.slug, "number": result.number},
        )


class SessionStartView(SessionActionMixin, ActionView):
    def act(self):
        return services.session_start(session=self.session)

    def success_message(self, session):
        return _("Session %(number)s has started: its seating is final.") % {
            "number": session.number
        }


class SessionCloseView(SessionActionMixin, ActionView):
    def act(self):
        return services.session_close(session=self.session, user=self.request.user)

    def success_message(self, session):
        return _("Session %(number)s is closed: its results are in the standings.") % {
            "number": session.number
        }
