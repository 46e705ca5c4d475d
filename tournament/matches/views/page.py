"""The match page: the public's view of the match (kept once made, polled until confirmed) and,
for a referee of the table, the entry screen."""

from __future__ import annotations

from django.views import View

from tournament.core import freshness
from tournament.core.cached_pages import CachedPageMixin
from tournament.matches.views.base import MatchPageMixin


class MatchView(MatchPageMixin, CachedPageMixin, View):
    """The match: the public sheet, and for a referee of the table the entry screen.

    Until the match is confirmed, the public's page follows it (``follow_seconds``: its
    ``#match`` region polls itself), answered from a kept copy (``CachedPageMixin``) that
    the other tables' turns leave current.
    """

    def page_version(self) -> int:
        """The results and this match's revision, both read before the page's data."""
        return freshness.page_version(tournament=self.tournament, revisions=self.match.revision)

    def page(self, request, *args, **kwargs):
        return self.render_match()
