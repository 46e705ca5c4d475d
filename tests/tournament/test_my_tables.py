"""A referee who logs in lands on "my tables": the tables they may enter, the session in play
first."""

from __future__ import annotations

import pytest

from tournament.core.tournaments import staff_role_grant
from tournament.models import Session
from tournament.sessions.services import session_start

pytestmark = pytest.mark.django_db


def tables_listed(response) -> list[tuple[str, int, list[int]]]:
    return [(group["tournament"].slug, group["session"].number,
             [table.number for table in group["tables"]])
            for group in response.context["groups"]]


def test_logging_in_without_a_destination_lands_on_my_tables(client, referee, staff_password):
    response = client.post("/login/", {"username": "remi-referee", "password": staff_password})
    assert response.status_code == 302 and response["Location"] == "/my-tables/"


def test_a_referee_sees_their_tables_the_session_in_play_first(
    client, make_tournament, referee, tournament, django_assert_max_num_queries
):
    other = make_tournament(slug="autumn-cup", players=8, sessions=1)
    staff_role_grant(tournament=other, user=referee, role="referee")
    session_start(session=other.sessions.get())
    client.force_login(referee)
    with django_assert_max_num_queries(8):
        response = client.get("/my-tables/")
    assert tables_listed(response) == [("autumn-cup", 1, [1, 2]), ("spring-open", 1, [1, 2])]
    assert response.context["groups"][0]["session"].status == Session.Status.PLAYING


def test_a_referee_limited_to_some_tables_sees_those_only(client, referee_of_table_2, tournament):
    client.force_login(referee_of_table_2)
    response = client.get("/my-tables/")
    assert tables_listed(response) == [("spring-open", 1, [2])]
    match = response.context["groups"][0]["tables"][0].match
    assert f'href="{match.get_absolute_url()}"' in response.content.decode()


def test_a_draft_or_finished_session_lists_no_table(client, referee, tournament):
    Session.objects.filter(tournament=tournament).update(status=Session.Status.FINISHED)
    client.force_login(referee)
    assert client.get("/my-tables/").context["groups"] == []


def test_the_page_needs_an_account(client, tournament):
    response = client.get("/my-tables/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
