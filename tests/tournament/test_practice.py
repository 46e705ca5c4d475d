"""A referee's practice table (docs/guides/referee.md): opened from a tournament they referee, it
counts nowhere (the tournament's standings, audit, versions, exports; the ratings, the
leagues, the home page's lists), and its referee alone starts it again in one tap."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from tests.factories import confirmed_match, recorded_match
from tests.pages import by_id, has_id
from tournament.core.tournaments import staff_role_grant
from tournament.home.selectors import practice_tables, staff_tables, tournaments_visible_to
from tournament.leagues.selectors import addable_tournaments
from tournament.models import (
    AuditEntry,
    League,
    Match,
    MatchSubmission,
    PlayerRating,
    RatingChange,
    Round,
    Session,
    StaffRole,
    Tournament,
    Turn,
)
from tournament.practice.services import practice_match, practice_open, practice_reset
from tournament.ratings.services import rated_matches
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def practice(tournament, referee):
    return practice_open(tournament=tournament, user=referee)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_opening_makes_a_private_unrated_table_in_play(tournament, referee, practice):
    own = practice.table.session.tournament
    assert own.is_practice and own.practice_of == tournament and own.practice_for == referee
    assert (own.is_public, own.is_rated, own.league_id) == (False, False, None)
    assert (own.rules, own.target, own.match_rounds) == (
        tournament.rules, tournament.target, tournament.match_rounds)
    assert practice.table.session.status == Session.Status.PLAYING
    assert practice.status == Match.Status.PENDING
    assert practice.table.seats.count() == 4
    assert StaffRole.objects.get(tournament=own).user == referee
    # a second tap, the same table; another referee, their own
    assert practice_open(tournament=tournament, user=referee).pk == practice.pk
    assert Tournament.objects.filter(practice_of=tournament).count() == 1


def test_a_practice_table_never_counts(tournament, referee, practice, make_user):
    before = Tournament.objects.get(pk=tournament.pk)
    standings_before = standings_rows(tournament=tournament)
    confirmed = confirmed_match(match=practice, user=referee)
    assert confirmed.status == Match.Status.CONFIRMED
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.data_version, after.results_version) == (
        before.data_version, before.results_version)
    assert standings_rows(tournament=tournament) == standings_before
    assert not AuditEntry.objects.filter(match__table__session__tournament=tournament).exists()
    assert not rated_matches().filter(pk=practice.pk).exists()
    players = practice.table.seats.values("player")
    assert not PlayerRating.objects.filter(player__in=players).exists()
    assert not RatingChange.objects.filter(player__in=players).exists()
    own = practice.table.session.tournament
    superuser = make_user("root", is_superuser=True, is_staff=True)
    league = League.objects.create(name="Season", slug="season")
    for user in (referee, superuser):
        assert own not in tournaments_visible_to(user)
        assert own not in addable_tournaments(user=user, league=league)
    assert all(group["tournament"] != own for group in staff_tables(user=referee))
    assert [item["match"] for item in practice_tables(user=referee)] == [practice]


def test_the_database_refuses_a_practice_table_that_would_count(practice):
    own = practice.table.session.tournament
    for change in ({"is_public": True}, {"is_rated": True},
                   {"league": League.objects.create(name="L", slug="l")}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.filter(pk=own.pk).update(**change)


def test_start_again_clears_the_match_and_raises_its_revision(referee, practice):
    played = recorded_match(match=practice, user=referee, in_play=True)
    assert Turn.objects.filter(round__match=played).exists()
    MatchSubmission.objects.create(match=played, key="k1")
    reset = practice_reset(match=played, user=referee)
    assert reset.status == Match.Status.PENDING and reset.totals == []
    assert reset.revision > played.revision
    assert not Round.objects.filter(match=reset).exists()
    assert not AuditEntry.objects.filter(match=reset).exists()
    assert not MatchSubmission.objects.filter(match=reset).exists()


def test_only_its_referee_starts_it_again(tournament, referee, practice, organiser, make_user):
    played = recorded_match(match=practice, user=referee, in_play=True)
    address = f"/t/{practice.table.session.tournament.slug}/practice/reset/"
    superuser = make_user("root", is_superuser=True)
    other_referee = make_user("rita")
    staff_role_grant(tournament=tournament, user=other_referee, role=StaffRole.Role.REFEREE)
    # the real tournament's organiser and another of its referees do not see it; a superuser
    # sees it and may not start it again; to the public it does not exist
    for user, status in ((organiser, 404), (other_referee, 404), (superuser, 403)):
        assert client_for(user).post(address).status_code == status
    assert Client().post(address).status_code == 404
    with pytest.raises(Exception) as refused:
        practice_reset(match=played, user=organiser)
    assert refused.value.code == "not-practice"
    assert Match.objects.get(pk=played.pk).revision == played.revision
    response = client_for(referee).post(address)
    assert response.status_code == 302 and response["Location"] == played.get_absolute_url()
    assert Match.objects.get(pk=played.pk).status == Match.Status.PENDING


def test_a_real_match_is_never_started_again(tournament, referee):
    match = Match.objects.filter(table__session__tournament=tournament).first()
    with pytest.raises(Exception) as refused:
        practice_reset(match=match, user=referee)
    assert refused.value.code == "not-practice"
    address = f"/t/{tournament.slug}/practice/reset/"
    assert client_for(referee).post(address).status_code == 403


def test_the_practice_page(tournament, referee, make_user, grant_organiser):
    address = f"/t/{tournament.slug}/practice/"
    client = client_for(referee)
    assert client.get(address).status_code == 200
    assert practice_match(tournament=tournament, user=referee) is None
    response = client.post(address)
    match = practice_match(tournament=tournament, user=referee)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    entry = client.get(match.get_absolute_url())
    assert entry.status_code == 200 and entry.context["can_write"]
    assert has_id(entry, "practice-reset")
    assert by_id(entry, "practice-banner").get("data-practice") == str(match.pk)
    # the table counts nowhere, and has no practice table of its own
    own_slug = match.table.session.tournament.slug
    assert client.get(f"/t/{own_slug}/practice/").status_code == 404
    # another tournament's staff and the public
    other = make_user("mallory")
    grant_organiser(other, Tournament.objects.create(
        name="Other", slug="other", start_date=tournament.start_date))
    assert client_for(other).post(address).status_code == 403
    assert Client().post(address).status_code == 302
    assert Tournament.objects.filter(practice_of=tournament).count() == 1
    # the public sees nothing of it
    assert Client().get(match.get_absolute_url()).status_code == 404
    assert Client().get(f"/t/{own_slug}/").status_code == 404
