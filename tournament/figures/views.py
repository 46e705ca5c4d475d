"""/t/<slug>/organise/figures/: every figure of the tournament recounted and compared with what
its pages show (:func:`tournament.figures.check.figures_check`), for its organisers alone:
the check replays every confirmed match of the installation's rated history, seconds of work
that the public must not be able to start (docs/guides/organiser.md)."""

from __future__ import annotations

from django.views.generic import TemplateView

from tournament.core.permissions import OrganiserRequiredMixin
from tournament.figures.check import figures_check


class FiguresCheckView(OrganiserRequiredMixin, TemplateView):
    """Runs the check on each GET (it writes nothing) and lists the differences."""

    template_name = "tournament/figures/check.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["differences"] = figures_check(tournament=self.tournament)
        return context
