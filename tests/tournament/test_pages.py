"""The base pages: home, a tournament, staff, login."""

from __future__ import annotations

import re

import pytest

from tournament.models import StaffRole

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments_only(client, make_tournament):
    make_tournament(slug="spring-open")
    make_tournament(slug="secret-club-night", is_public=False)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Spring Open" in page and 'href="/t/spring-open/"' in page
    assert "Secret Club Night" not in page


def test_home_shows_a_private_tournament_to_its_staff(client, make_tournament, referee):
    private = make_tournament(slug="secret-club-night", is_public=False)
    StaffRole.objects.create(tournament=private, user=referee, role="referee")
    client.force_login(referee)
    assert "Secret Club Night" in client.get("/").content.decode()


def test_home_queries_do_not_grow_with_tournaments(client, make_tournament, django_assert_max_num_queries):
    for number in range(6):
        make_tournament(slug=f"cup-{number}", players=4)
    with django_assert_max_num_queries(3):
        response = client.get("/")
    assert response.content.decode().count('href="/t/cup-') == 6


def test_tournament_page(client, tournament, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        response = client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Spring Open" in page and "Salle Pierre-Sémard" in page
    assert page.count("Player 0") == 8  # every registered player
    assert "seated" in page  # session 1's status
    assert "match points, total points, average share of the table&#x27;s points" in page


def test_private_tournament_is_a_404_for_the_public(client, make_tournament, outsider):
    make_tournament(slug="secret-club-night", is_public=False)
    assert client.get("/t/secret-club-night/").status_code == 404
    client.force_login(outsider)
    assert client.get("/t/secret-club-night/").status_code == 404


def test_unknown_tournament_is_a_404_in_the_users_language(client):
    response = client.get("/t/nowhere/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_log_in_and_out(client, referee, staff_password):
    response = client.post(
        "/login/?next=/t/spring-open/",
        {"username": "remi-referee", "password": staff_password, "next": "/t/spring-open/"},
    )
    assert response.status_code == 302 and response["Location"] == "/t/spring-open/"
    page = client.get("/t/spring-open/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "remi-referee" in page and "Log out" in page
    assert client.post("/logout/").status_code == 302
    assert "Log in" in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_wrong_password_is_explained_in_french(client, referee):
    response = client.post("/login/", {"username": "remi-referee", "password": "nope"},
                           HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_an_expired_form_is_explained(tournament, referee, staff_password):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post("/login/", {"username": "remi-referee", "password": staff_password},
                           HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 403
    assert "Page expirée" in response.content.decode()


def test_every_page_names_an_icon_that_is_served(client, tournament):
    """A favicon, read from the page's own link (a 404 for it before)."""
    page = client.get("/t/spring-open/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    response = client.get(icon)
    assert response.status_code == 200
    assert b"<svg" in b"".join(response.streaming_content)
