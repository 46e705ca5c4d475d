"""The organiser's button that opens the final table (docs/guides/final.md); the final is then seated,
started and closed on its session's page like any session."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.core.mixins import ActionView
from tournament.seating.final import final_open


class FinalOpenView(ActionView):
    """POST /t/<slug>/organise/final/open/: open the final as the next session."""

    def act(self):
        return final_open(tournament=self.tournament)

    def success_message(self, session):
        return _("The final is open as session %(number)s: seat it from the standings.") % {
            "number": session.number}

    def next_url(self, result=None):
        if result is None:
            return reverse("tournament:organise", kwargs={"slug": self.tournament.slug})
        return reverse("tournament:session_organise",
                       kwargs={"slug": self.tournament.slug, "number": result.number})
