"""Matches are rated in the order they were played (the tournament's date, the session, then
the confirmation within a session), not the order they were confirmed: a result typed in late
refreshes the history from its place."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command

from tests.factories import (
    confirmed_match,
    match_at,
    players_of,
    seated_session,
    tournament_with_players,
)
from tests.tournament.tournaments import settings_of
from tournament.models import PlayerRating, RatingChange, Registration
from tournament.organiser.services import tournament_update
from tournament.ratings.model import INITIAL, rate

pytestmark = pytest.mark.django_db


@pytest.fixture
def late():
    """The same four players at a 1 November and a 1 December tournament; December's match
    is confirmed first, November's a month late."""
    november = tournament_with_players(slug="november", players=4,
                                       start_date=datetime.date(2025, 11, 1))
    players = players_of(november)
    december = tournament_with_players(slug="december", players=0,
                                       start_date=datetime.date(2025, 12, 1))
    Registration.objects.bulk_create(
        [Registration(tournament=december, player=player) for player in players])
    seated_session(tournament=november, tables=[players], started=True)
    seated_session(tournament=december, tables=[players], started=True)
    dec = confirmed_match(match=match_at(tournament=december), seed=11)
    nov = confirmed_match(match=match_at(tournament=november), seed=12)
    assert dec.confirmed_at < nov.confirmed_at
    return november, december, players, nov, dec


def test_a_late_result_is_rated_at_its_place(late):
    november, december, players, nov, dec = late
    seats = [list(m.table.seats.order_by("order").values_list("player_id", flat=True))
             for m in (nov, dec)]
    skills = {}
    for match, seated in zip((nov, dec), seats):  # played order: November, then December
        after = rate([skills.get(player, INITIAL) for player in seated], match.totals)
        skills.update(zip(seated, after))
    for player_id, skill in skills.items():
        rating = PlayerRating.objects.get(player_id=player_id)
        assert (rating.mu, rating.sigma) == pytest.approx((skill.mu, skill.sigma), abs=1e-12)
        first, second = RatingChange.objects.filter(player_id=player_id).order_by(
            "played_on", "session", "at", "match_id")
        assert (first.match_id, second.match_id) == (nov.pk, dec.pk)
        assert second.shown_before == first.shown
        assert rating.last_tournament_id == december.pk
    out = io.StringIO()
    call_command("ratings_rebuild", stdout=out)
    assert "nothing changed" in out.getvalue()


def test_moving_a_tournament_s_date_moves_its_matches_in_the_history(late):
    november, december, players, nov, dec = late
    tournament_update(**settings_of(november, start_date=datetime.date(2026, 1, 10)))
    for player in players:
        last = RatingChange.objects.filter(player=player).order_by(
            "played_on", "session", "at", "match_id").last()
        assert last.match_id == nov.pk
    out = io.StringIO()
    call_command("ratings_rebuild", stdout=out)
    assert "nothing changed" in out.getvalue()
