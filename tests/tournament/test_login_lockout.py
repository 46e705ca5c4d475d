"""Logging in is limited (django-axes): after 5 wrong passwords for one username from one
address, that username is locked out from that address, on our login page and the admin's;
an organiser of the tournament lifts it on the Staff page."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client

from tests.conftest import STAFF_PASSWORD
from tests.pages import messages
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffRole
from tournament.organiser.services.staff import staff_lockout_lift

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT


def log_in(client, username, password, *, address="10.0.0.5", url="/login/", **headers):
    return client.post(url, {"username": username, "password": password},
                       REMOTE_ADDR=address, **headers)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail(client, username, times=LIMIT, **kwargs):
    for _attempt in range(times):
        response = log_in(client, username, "wrong-password", **kwargs)
        assert response.status_code in (200, 429)
        assert not logged_in(client)
    return response


def test_the_right_password_is_refused_after_too_many_wrong_ones(referee):
    client = Client()
    fail(client, referee.username, times=LIMIT - 1)
    response = log_in(client, referee.username, "wrong-password")
    assert response.status_code == 429
    response = log_in(client, referee.username, STAFF_PASSWORD)
    assert response.status_code == 429 and not logged_in(client)
    assert "tournament/locked_out.html" in [template.name for template in response.templates]
    assert response.context["failure_limit"] == LIMIT


def test_fewer_failures_do_not_lock_and_a_success_starts_the_count_again(referee):
    client = Client()
    fail(client, referee.username, times=LIMIT - 1)
    assert log_in(client, referee.username, STAFF_PASSWORD).status_code == 302
    client.logout()
    fail(client, referee.username, times=LIMIT - 1)
    assert log_in(client, referee.username, STAFF_PASSWORD).status_code == 302


def test_the_lock_is_per_username_and_address(referee, organiser):
    fail(Client(), referee.username)
    other_address = Client()
    assert log_in(other_address, referee.username, STAFF_PASSWORD, address="10.0.0.6"
                  ).status_code == 302
    other_user = Client()
    assert log_in(other_user, organiser.username, STAFF_PASSWORD).status_code == 302


@pytest.mark.parametrize(("accept", "language"), [("", "fr"), ("en", "en")])
def test_the_message_is_in_the_users_language(referee, accept, language):
    client = Client()
    fail(client, referee.username)
    response = log_in(client, referee.username, STAFF_PASSWORD, HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 429
    assert response["Content-Language"] == language
    assert f'<html lang="{language}">' in response.content.decode()
    assert 'id="locked-out"' in response.content.decode()


def test_the_admins_login_is_limited_too(make_user):
    admin = make_user("ada-admin", is_staff=True, is_superuser=True)
    client = Client()
    fail(client, admin.username, url="/admin/login/")
    response = log_in(client, admin.username, STAFF_PASSWORD, url="/admin/login/")
    assert response.status_code == 429 and not logged_in(client)


def test_the_organiser_lifts_it_on_the_staff_page_for_that_device_only(
    referee, organiser_client, tournament
):
    locked = Client()
    fail(locked, referee.username)
    fail(Client(), referee.username, address="10.0.0.9")
    page = organiser_client.get("/t/spring-open/staff/")
    assert [(account["username"], sorted(account["addresses"]))
            for account in page.context["locked_out"]] == [
        (referee.username, ["10.0.0.5", "10.0.0.9"])]
    assert f'data-username="{referee.username}"' in page.content.decode()
    assert 'data-address="10.0.0.5"' in page.content.decode()

    response = organiser_client.post("/t/spring-open/staff/unlock/",
                                     {"username": referee.username, "address": "10.0.0.5"})
    assert response.status_code == 302
    assert [account["addresses"] for account in
            organiser_client.get("/t/spring-open/staff/").context["locked_out"]] == [
        ["10.0.0.9"]]
    assert log_in(locked, referee.username, STAFF_PASSWORD).status_code == 302
    assert log_in(Client(), referee.username, STAFF_PASSWORD, address="10.0.0.9"
                  ).status_code == 429


def test_the_locked_out_page_names_the_device_to_unblock(referee):
    client = Client()
    fail(client, referee.username, address="10.0.0.7")
    response = log_in(client, referee.username, STAFF_PASSWORD, address="10.0.0.7")
    assert response.status_code == 429
    assert response.context["address"] == "10.0.0.7"


def test_only_the_tournaments_own_staff_and_only_by_its_organisers(
    referee, organiser, make_tournament, make_user, referee_client
):
    other = make_tournament(slug="elsewhere")
    stranger = make_user("sam-elsewhere")
    staff_role_grant(tournament=other, user=stranger, role="referee")
    admin = make_user("ada-admin", is_staff=True, is_superuser=True)
    staff_role_grant(tournament=other, user=admin, role="organiser")
    for user in (stranger, admin, referee):
        fail(Client(), user.username)

    with pytest.raises(ValidationError) as refused:
        staff_lockout_lift(tournament=other, username=referee.username, address="10.0.0.5",
                           from_address="10.0.0.1")
    assert refused.value.error_dict["username"][0].code == "not-staff"
    with pytest.raises(ValidationError):
        staff_lockout_lift(tournament=other, username=admin.username, address="10.0.0.5",
                           from_address="10.0.0.1")  # the admin's

    # A referee may not lift it, even their own tournament's.
    assert referee_client.post("/t/spring-open/staff/unlock/", {
        "username": referee.username, "address": "10.0.0.5"}).status_code == 403
    organiser_client = Client()
    organiser_client.force_login(organiser)
    organiser_client.post("/t/spring-open/staff/unlock/",
                          {"username": stranger.username, "address": "10.0.0.5"})
    assert log_in(Client(), stranger.username, STAFF_PASSWORD).status_code == 429
    assert log_in(Client(), referee.username, STAFF_PASSWORD).status_code == 429


def test_an_attacker_organiser_cannot_guess_another_organisers_password(
    organiser, make_tournament, make_user
):
    """The chain as an attacker plays it: Mallory organises a tournament of her own; she tries
    16 wrong passwords for Olga, an organiser of another tournament; she offers Olga a role in
    hers and tries to lift the lock; then the right password: Olga is not logged in from
    Mallory's address. (Before: the role was Olga's at once, the lock lifted from every
    address, and the 17th attempt logged in.)"""
    mallory = make_user("mallory")
    own = make_tournament(slug="mallorys-open", players=0, sessions=0)
    staff_role_grant(tournament=own, user=mallory, role="organiser")
    attacker = Client()
    attacker.force_login(mallory)
    guesser = Client()
    address = "10.6.6.6"
    for _attempt in range(16):
        log_in(guesser, organiser.username, "guess-password", address=address)
        assert not logged_in(guesser)
        attacker.post("/t/mallorys-open/staff/", {"username": organiser.username,
                                                   "role": "referee"}, REMOTE_ADDR=address)
        attacker.post("/t/mallorys-open/staff/unlock/", {"username": organiser.username,
                                                         "address": address},
                      REMOTE_ADDR=address)
    assert not StaffRole.objects.filter(tournament=own, user=organiser).exists()
    response = log_in(guesser, organiser.username, STAFF_PASSWORD, address=address)
    assert response.status_code == 429 and not logged_in(guesser)


def test_even_a_staff_members_lock_is_never_lifted_from_the_organisers_own_address(
    referee, organiser
):
    """Had the target accepted a role, an organiser still lifts a lock for the device of the
    one who asked, never for the address the organiser is using themselves."""
    attacker = Client()
    attacker.force_login(organiser)
    fail(Client(), referee.username, address="10.6.6.6")
    response = attacker.post("/t/spring-open/staff/unlock/", {
        "username": referee.username, "address": "10.6.6.6"}, REMOTE_ADDR="10.6.6.6")
    assert messages(response) == [("error", "own-address")]
    assert log_in(Client(), referee.username, STAFF_PASSWORD, address="10.6.6.6"
                  ).status_code == 429


def test_an_over_long_username_is_counted_cut_to_an_accounts_length(referee):
    """Django's login form hands an over-long username to the authentication as typed; it is
    counted under its first 150 characters (PostgreSQL refused to store 5,000: a 500)."""
    client = Client()
    response = log_in(client, "9" * 5000, "wrong-password")
    assert response.status_code == 200 and not logged_in(client)
    assert [len(name) for name in AccessAttempt.objects.values_list("username", flat=True)] == [
        150]
    fail(client, "9" * 5000, times=LIMIT - 1)
    assert log_in(client, "9" * 5000, "wrong-password").status_code == 429
    assert log_in(client, referee.username, STAFF_PASSWORD).status_code == 302


def test_a_wrong_password_says_how_many_tries_are_left_before_the_lock(client, make_user):
    make_user("warned")
    response = fail(client, "warned", times=1)
    assert response.context["tries_left"] == LIMIT - 1
    assert 'id="tries-left"' in response.content.decode()
    response = fail(client, "warned", times=LIMIT - 3)
    assert response.context["tries_left"] == 2
    assert "2 essais restants" in response.content.decode()
    response = fail(client, "warned", times=1)
    assert response.context["tries_left"] == 1 and "1 essai restant\u00a0:" in response.content.decode()
    assert fail(client, "warned", times=1).status_code == 429  # the fifth: locked out


def test_no_warning_before_any_wrong_password(client):
    response = client.get("/login/")
    assert response.status_code == 200 and response.context.get("tries_left") is None
