"""The organiser names the referees (and other organisers) of their tournament."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.pages import messages
from tournament.core.permissions import can_referee
from tournament.models import StaffInvitation, StaffRole

pytestmark = pytest.mark.django_db

STAFF_URL = "/t/spring-open/staff/"


def field_errors(page: str, field: str) -> list[str]:
    """The error messages shown next to a form field."""
    block = re.search(rf'<ul class="field-errors" id="id_{field}_error"[^>]*>(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(1), re.S) if block else []


def test_the_staff_page_lists_the_roles(organiser_client, referee):
    page = organiser_client.get(STAFF_URL)
    assert {role.user.username for role in page.context["staff_table"].data} == {
        "olga-organiser", "remi-referee"}


def accepted(user, tournament) -> StaffRole:
    """``user`` logs in and accepts the role offered to them in ``tournament``."""
    client = Client()
    client.force_login(user)
    page = client.get("/my-tables/")
    invitation = next(invitation for invitation in page.context["invitations"]
                      if invitation.tournament_id == tournament.pk)
    response = client.post(f"/invitations/{invitation.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == "/my-tables/"
    return StaffRole.objects.get(tournament=tournament, user=user)


def test_create_a_referee_account_limited_to_tables(organiser_client, tournament):
    response = organiser_client.post(
        STAFF_URL,
        {"username": "paula", "password": "Paula-Pass-2025", "role": "referee", "tables": "1"},
    )
    assert response.status_code == 302
    assert messages(response) == [("success", "staff-invited")]
    paula = get_user_model().objects.get(username="paula")
    assert paula.check_password("Paula-Pass-2025")
    assert not StaffRole.objects.filter(user=paula).exists()  # until she accepts
    accepted(paula, tournament)
    tables = {t.number: t for t in tournament.sessions.get().tables.all()}
    assert can_referee(paula, tables[1]) and not can_referee(paula, tables[2])


def test_give_a_role_to_an_existing_account_and_change_it(organiser_client, outsider, tournament):
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "referee"})
    assert not StaffRole.objects.filter(user=outsider).exists()
    assert accepted(outsider, tournament).role == "referee"
    # A role held already changes at once: its holder consented to it.
    response = organiser_client.post(STAFF_URL, {"username": outsider.username,
                                                 "role": "organiser"})
    assert messages(response) == [("success", "staff-granted")]
    assert StaffRole.objects.get(user=outsider).role == "organiser"
    assert StaffRole.objects.filter(user=outsider).count() == 1


def test_nobody_is_given_a_role_without_consent_and_may_decline(organiser_client, outsider,
                                                                tournament, make_user):
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "organiser"})
    client = Client()
    client.force_login(outsider)
    invitation = client.get("/my-tables/").context["invitations"][0]
    # Nobody else answers for the account: another's invitation is not found.
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(f"/invitations/{invitation.pk}/accept/").status_code == 404
    assert client.post(f"/invitations/{invitation.pk}/decline/").status_code == 302
    assert not StaffRole.objects.filter(user=outsider).exists()
    assert not StaffInvitation.objects.exists()
    # A lapsed invitation is no role either.
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "referee"})
    StaffInvitation.objects.update(
        created_at=timezone.now() - datetime.timedelta(days=StaffInvitation.DAYS + 1))
    assert list(client.get("/my-tables/").context["invitations"]) == []
    assert client.post(f"/invitations/{StaffInvitation.objects.get().pk}/accept/"
                       ).status_code == 404


def test_the_answer_is_the_same_whether_the_account_exists_or_not(organiser_client, outsider,
                                                                  tournament):
    """An existing account, one made now with a password, one of no account at all, an
    existing one given a password: one answer, the same page, and an existing account's
    password is never changed."""
    answers = []
    for username, password in ((outsider.username, ""), ("new-paula", "Paula-Pass-2025"),
                               ("nobody-at-all", ""), (outsider.username, "Other-Pass-2025")):
        response = organiser_client.post(STAFF_URL, {"username": username, "password": password,
                                                     "role": "referee"})
        assert response.status_code == 302
        page = organiser_client.get(STAFF_URL)
        shown = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page.content.decode())
        shown = " ".join(re.sub(r"<li data-invitation=.*?</li>", "", shown, flags=re.S).split())
        answers.append((messages(response), response["Location"], shown.replace(username, "?"),
                        [invitation.username for invitation in page.context["invitations"]]
                        .count(username)))
    assert answers[0][:2] == answers[1][:2] == answers[2][:2] == answers[3][:2]
    assert answers[0][0] == [("success", "staff-invited")]
    assert answers[1][2:] == answers[2][2:]  # a new account, no account: the same page
    assert [answer[3] for answer in answers] == [1, 1, 1, 1]
    outsider.refresh_from_db()
    assert not outsider.check_password("Other-Pass-2025")
    assert not StaffRole.objects.filter(user=outsider).exists()


def test_a_superuser_grants_at_once(client, outsider, tournament, make_user):
    client.force_login(make_user("root", is_superuser=True))
    response = client.post(STAFF_URL, {"username": outsider.username, "role": "referee"})
    assert messages(response) == [("success", "staff-granted")]
    assert StaffRole.objects.get(user=outsider).role == "referee"


def test_the_organiser_takes_an_invitation_back(organiser_client, outsider, tournament):
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "referee"})
    invitation = StaffInvitation.objects.get()
    page = organiser_client.get(STAFF_URL)
    assert [item.username for item in page.context["invitations"]] == [outsider.username]
    response = organiser_client.post(f"{STAFF_URL}invitations/{invitation.pk}/cancel/")
    assert response.status_code == 302 and not StaffInvitation.objects.exists()


@pytest.mark.parametrize(
    ("data", "field", "english", "french"),
    [
        ({"username": "paula", "password": "123", "role": "referee"}, "password",
         "This password is too short", "Ce mot de passe est trop court"),
        ({"username": "oscar-outsider", "password": "123", "role": "referee"}, "password",
         "This password is too short", "Ce mot de passe est trop court"),
        ({"username": "paula paula", "role": "referee"}, "username",
         "Enter a valid username", "Saisissez un nom d’utilisateur valide"),
        ({"username": "oscar-outsider", "role": "referee", "tables": "1-x"}, "tables",
         "“1-x” is not a table number or a range", "«\u00a01-x\u00a0» n’est ni un numéro de table"),
        ({"username": "oscar-outsider", "role": "organiser", "tables": "1"}, "tables",
         "An organiser has every table", "Un organisateur a toutes les tables"),
        ({"username": "oscar-outsider", "role": "boss"}, "role",
         "Select a valid choice", "Sélectionnez un choix valide"),
    ],
)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_bad_input_is_explained_next_to_its_field(
    organiser_client, outsider, data, field, english, french, language
):
    before = list(StaffRole.objects.values())
    users = get_user_model().objects.count()
    invitations = StaffInvitation.objects.count()
    response = organiser_client.post(STAFF_URL, data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    errors = " ".join(field_errors(response.content.decode(), field))
    expected = english if language == "en" else french
    assert expected in errors.replace("&#x27;", "'").replace("&quot;", '"')
    assert list(StaffRole.objects.values()) == before
    assert get_user_model().objects.count() == users
    assert StaffInvitation.objects.count() == invitations


def test_the_last_organiser_stays(organiser_client, organiser):
    role = StaffRole.objects.get(user=organiser)
    response = organiser_client.post(f"{STAFF_URL}{role.pk}/revoke/")
    assert messages(response) == [("error", "last-organiser")]
    assert StaffRole.objects.filter(pk=role.pk).exists()
    organiser_client.post(STAFF_URL, {"username": "olga-organiser", "role": "referee"})
    assert StaffRole.objects.get(pk=role.pk).role == "organiser"


def test_remove_a_referee(organiser_client, referee):
    role = StaffRole.objects.get(user=referee)
    response = organiser_client.post(f"{STAFF_URL}{role.pk}/revoke/")
    assert response.status_code == 302
    assert not StaffRole.objects.filter(pk=role.pk).exists()


def test_a_role_of_another_tournament_cannot_be_removed_from_here(organiser_client, make_tournament,
                                                                  make_user):
    other = make_tournament(slug="other-cup")
    role = StaffRole.objects.create(tournament=other, user=make_user("x"), role="referee")
    assert organiser_client.post(f"{STAFF_URL}{role.pk}/revoke/").status_code == 404
    assert StaffRole.objects.filter(pk=role.pk).exists()
