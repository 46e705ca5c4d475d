"""/t/<slug>/tables/<n>/: one address per table for the whole event, opening its match in the
session of the moment (the tablet left at a table keeps one bookmark)."""

from __future__ import annotations

import pytest

from tournament.core.tournaments import staff_role_grant
from tournament.models import Match, Session
from tournament.sessions.services import session_create

pytestmark = pytest.mark.django_db


def match_url(tournament, session: int, table: int) -> str:
    match = Match.objects.get(table__session__tournament=tournament,
                              table__session__number=session, table__number=table)
    return f"/t/{tournament.slug}/matches/{match.pk}/"


def set_status(tournament, number: int, status: str) -> None:
    Session.objects.filter(tournament=tournament, number=number).update(status=status)


def test_the_table_of_the_session_seated_or_in_play(client, make_tournament,
                                                    django_assert_num_queries):
    tournament = make_tournament(slug="open", players=8, sessions=2)
    set_status(tournament, 1, Session.Status.FINISHED)
    set_status(tournament, 2, Session.Status.PLAYING)
    with django_assert_num_queries(2):  # the tournament, the match
        response = client.get("/t/open/tables/2/")
    assert response.status_code == 302 and response["Location"] == match_url(tournament, 2, 2)


def test_a_session_seated_comes_before_one_finished_after_it_is_not_there(client,
                                                                         make_tournament):
    tournament = make_tournament(slug="open", players=8, sessions=2)
    set_status(tournament, 2, Session.Status.FINISHED)  # session 1 still seated
    assert client.get("/t/open/tables/1/")["Location"] == match_url(tournament, 1, 1)


def test_between_sessions_the_last_one_seated(client, make_tournament):
    tournament = make_tournament(slug="open", players=8, sessions=2)
    set_status(tournament, 1, Session.Status.FINISHED)
    set_status(tournament, 2, Session.Status.FINISHED)
    session_create(tournament=tournament)  # session 3, a draft: not seated yet
    assert client.get("/t/open/tables/2/")["Location"] == match_url(tournament, 2, 2)


def test_no_such_table_or_nothing_seated_is_a_404(client, make_tournament):
    tournament = make_tournament(slug="open", players=8, sessions=1)
    assert client.get("/t/open/tables/3/").status_code == 404
    make_tournament(slug="empty", players=8, sessions=0)
    assert client.get("/t/empty/tables/1/").status_code == 404
    assert client.get(f"/t/{tournament.slug}/tables/1/").status_code == 302


def test_a_private_tournament_is_for_its_staff(client, make_tournament, make_user):
    tournament = make_tournament(slug="closed", players=8, is_public=False)
    assert client.get("/t/closed/tables/1/").status_code == 404
    user = make_user("rita-referee")
    staff_role_grant(tournament=tournament, user=user, role="referee")
    client.force_login(user)
    assert client.get("/t/closed/tables/1/")["Location"] == match_url(tournament, 1, 1)
    assert client.post("/t/closed/tables/1/").status_code == 405
