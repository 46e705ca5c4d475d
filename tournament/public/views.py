"""The public pages of a session and of a player: read-only, live while a session is in play;
and the address of a table for the whole event (``/t/<slug>/tables/<n>/``).

Anyone may read them (a private tournament: its staff only); only GET and HEAD are answered.
An htmx request (the page polling itself every 15 seconds while a session is in play) gets
the live fragment only. The staff (organisers and referees) also see, under each match of the
session's seating, what awaits a referee there; the public's page reads nothing more for it.
"""

from __future__ import annotations

import json

from django.http import Http404
from django.shortcuts import redirect
from django.views.generic import TemplateView, View
from django_tables2 import RequestConfig

from tournament.core import freshness
from tournament.core.mixins import poll_seconds
from tournament.core.permissions import TournamentMixin, is_referee
from tournament.kit.cached_pages import CachedPageMixin
from tournament.models import RankingCriterion, Session, Tournament
from tournament.names import FOLDED_LETTERS
from tournament.public import selectors
from tournament.public.tables import PlayerMatchesTable
from tournament.seating.selectors import seating_by_player, session_attention, session_seating
from tournament.seating.tables import PlayerSeatTable, SeatingTable
from tournament.standings.tables import criterion_display


def found(tournament: Tournament | None) -> Tournament:
    """The tournament read by the address, or a 404 (no tournament of that slug)."""
    if tournament is None:
        raise Http404
    return tournament


class LiveFragmentMixin(CachedPageMixin):
    """Render ``fragment_template_name`` alone for htmx requests; the public's copies kept
    until what the page shows changes (``CachedPageMixin``)."""

    fragment_template_name = ""

    def render_live(self, context):
        if self.request.htmx:
            return self.response_class(self.request, self.fragment_template_name, context)
        return self.render_to_response(context)


class PublicSessionView(TournamentMixin, LiveFragmentMixin, TemplateView):
    """/t/<slug>/sessions/<n>/: who sits where, each table's match and its state."""

    template_name = "tournament/public/session.html"
    fragment_template_name = "tournament/public/_session_tables.html"

    #: A poll with nothing new is one read.
    version_read = freshness.session_version_read

    def requested_tournament(self):
        """Read with its session's matches' state revisions: a page is one read."""
        return found(freshness.tournament_with_session_states(
            slug=self.kwargs["slug"], number=self.kwargs["number"]))

    def page_version(self) -> int:
        """The results (the seating, the sessions) and the state of each of its matches:
        which is in play, which is over and its totals."""
        return freshness.session_version(tournament=self.tournament,
                                         number=self.kwargs["number"])

    def page(self, request, *args, **kwargs):
        session = selectors.tournament_session(tournament=self.tournament, number=kwargs["number"])
        # a match's totals once it is over: while it is in play, its own page follows it
        tables = session_seating(session=session, totals_in_play=False)
        staff = is_referee(request.user, self.tournament)  # the context's user_is_staff
        attention = session_attention(session=session) if staff and tables else None
        seating_table = SeatingTable(tables, prefix="table-", attention=attention)
        config = RequestConfig(request, paginate=False)
        config.configure(seating_table)
        context = {"session": session, "seating_table": seating_table,
                   "seating_table_html": seating_table.table_html(request),
                   "is_live": session.status == Session.Status.PLAYING,
                   "poll_seconds": poll_seconds()}
        if not request.htmx:  # the live fragment (the tables) is all a poll shows
            seats_table = PlayerSeatTable(seating_by_player(tables), prefix="seat-")
            config.configure(seats_table)
            context.update(
                sessions=list(self.tournament.sessions.values_list("number", flat=True)),
                seats_table=seats_table,
                fold_letters=json.dumps(FOLDED_LETTERS, ensure_ascii=False),
            )
        return self.render_live(self.get_context_data(**context))


class PublicPlayerView(TournamentMixin, LiveFragmentMixin, TemplateView):
    """/t/<slug>/players/<id>/: their table now, their rank, their matches."""

    template_name = "tournament/public/player.html"
    fragment_template_name = "tournament/public/_player_live.html"

    #: A poll with nothing new is one read.
    version_read = freshness.player_version_read

    def requested_tournament(self):
        """Read with the player's matches' state revisions: a page is one read."""
        return found(freshness.tournament_with_player_states(
            slug=self.kwargs["slug"], player_id=self.kwargs["player_id"]))

    def page_version(self) -> int:
        """The results (their rank, their seat) and the state of each of their matches:
        which is in play, which is over and its totals."""
        return freshness.player_version(tournament=self.tournament,
                                        player_id=self.kwargs["player_id"])

    def page(self, request, *args, **kwargs):
        page = selectors.player_page(tournament=self.tournament, player_id=kwargs["player_id"])
        matches_table = PlayerMatchesTable(page["matches"])
        RequestConfig(request, paginate=False).configure(matches_table)
        labels = dict(RankingCriterion.choices)
        criteria_scores = [
            (labels[code], criterion_display(code, page["standing"]))
            for code in page["ranking"].criteria
        ]
        context = self.get_context_data(
            **page,
            criteria_scores=criteria_scores,
            matches_table=matches_table,
            matches_table_html=matches_table.table_html(request),
            player_count=page["ranking"].ranked_count,
            is_live=page["ranking"].is_live,
            poll_seconds=poll_seconds(),
        )
        return self.render_live(context)


class TableNowView(TournamentMixin, View):
    """/t/<slug>/tables/<n>/: the match at table n in the session of the moment (a redirect).

    One address for the whole event: the tablet left at a table, or a card on it with its QR
    code, opens that table's match whatever the session (``selectors.table_match_now``).
    """

    http_method_names = ("get", "head")

    def get(self, request, *args, **kwargs):
        match = selectors.table_match_now(tournament=self.tournament, number=kwargs["number"])
        return redirect("tournament:match", slug=self.tournament.slug, match_id=match.pk)
