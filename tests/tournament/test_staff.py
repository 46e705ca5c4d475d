"""The organiser names the referees (and other organisers) of their tournament."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.pages import messages
from tournament.core.permissions import can_referee
from tournament.models import StaffRole

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


def test_create_a_referee_account_limited_to_tables(organiser_client, tournament):
    response = organiser_client.post(
        STAFF_URL,
        {"username": "paula", "password": "Paula-Pass-2025", "role": "referee", "tables": "1"},
    )
    assert response.status_code == 302
    paula = get_user_model().objects.get(username="paula")
    assert paula.check_password("Paula-Pass-2025")
    tables = {t.number: t for t in tournament.sessions.get().tables.all()}
    assert can_referee(paula, tables[1]) and not can_referee(paula, tables[2])


def test_give_a_role_to_an_existing_account_and_change_it(organiser_client, outsider, tournament):
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "referee"})
    assert StaffRole.objects.get(user=outsider).role == "referee"
    organiser_client.post(STAFF_URL, {"username": outsider.username, "role": "organiser"})
    assert StaffRole.objects.get(user=outsider).role == "organiser"
    assert StaffRole.objects.filter(user=outsider).count() == 1


@pytest.mark.parametrize(
    ("data", "field", "english", "french"),
    [
        ({"username": "paula", "role": "referee"}, "password",
         "No account is called “paula” yet", "Aucun compte ne s’appelle «\u00a0paula\u00a0»"),
        ({"username": "paula", "password": "123", "role": "referee"}, "password",
         "This password is too short", "Ce mot de passe est trop court"),
        ({"username": "oscar-outsider", "password": "Other-Pass-2025", "role": "referee"},
         "password", "already exists", "existe déjà"),
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
    response = organiser_client.post(STAFF_URL, data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    errors = " ".join(field_errors(response.content.decode(), field))
    expected = english if language == "en" else french
    assert expected in errors.replace("&#x27;", "'").replace("&quot;", '"')
    assert list(StaffRole.objects.values()) == before
    assert get_user_model().objects.count() == users


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
