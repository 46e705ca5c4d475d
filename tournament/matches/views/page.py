"""The match page: the public's view of the match (kept once made, its live part polled until
confirmed) and, for a referee of the table, the entry screen."""

from __future__ import annotations

from django.views import View

from tournament.core import freshness
from tournament.kit.cached_pages import CachedPageMixin
from tournament.matches.reading.replay import match_replay_from_play
from tournament.matches.reading.replay_cache import borrowed_replay, keep_replay, kept_after
from tournament.matches.scorers import session_claims
from tournament.matches.views.base import MatchPageMixin


class MatchView(MatchPageMixin, CachedPageMixin, View):
    """The match: the public sheet, and for a referee of the table the entry screen.

    Until the match is confirmed, the public's page follows it (``follow_seconds``: its
    ``#match`` region polls itself), answered from a kept copy (``CachedPageMixin``) that
    the other tables' turns leave current.
    """

    scorer_may = True  # the table's scorer phone: its entry screen

    #: A poll with nothing new is one read.
    version_read = freshness.match_version_read

    def page_version(self) -> int:
        """The results and this match's revision, both read before the page's data."""
        return freshness.page_version(tournament=self.tournament, revision=self.match.revision)

    def for_public(self, request) -> bool:
        # a table's scorer phone, bound or no longer: its own page, not the public's copy
        return not session_claims(request) and super().for_public(request)

    def page(self, request, *args, **kwargs):
        return self.render_match()


class MatchLiveView(MatchView):
    """The live part of the public's match page, which the page polls until the match is
    confirmed: the totals, the round's state, the table and the last turns of the round in
    play (``LIVE_TURNS``).
    It is what changes with a turn; the settled rounds are not in it (they weigh what the
    match has lasted), only their digest (``log_key``), by which the page takes the whole
    match again when they changed. Kept and answered 304 as the page is, under its own ETag.
    """

    template_name = "tournament/matches/_match_live.html"
    shows_log = False  # the settled rounds are not in it: their logs are not made

    def access_refusal(self, request):
        refusal = super().access_refusal(request)
        self.can_write = False  # the public's view, whoever asks: no form in it
        return refusal

    def page(self, request, *args, **kwargs):
        # The round in play's replay this worker kept after the match's last save, when it
        # is of the match as it is: what this would replay (the settled rounds from their
        # stored scores), unless the last round is settled too (then replayed whole, below).
        # Only read, and given back once the answer is made.
        setup_version = self.match.table.session.tournament.setup_version
        kept = borrowed_replay(match=self.match)
        if kept is not None and kept.rounds and not kept.rounds[-1].stored:
            response = self.render_match(replay=kept)
            response.template_name = self.template_name
            return kept_after(response, kept, setup_version=setup_version)
        if kept is not None:
            keep_replay(kept, setup_version=setup_version)
        # the closed rounds before the last one (confirmed or not) from their stored scores:
        # the live part costs the round in play, not the match's length
        response = self.render_match(replay=match_replay_from_play(match=self.match))
        response.template_name = self.template_name
        return response
