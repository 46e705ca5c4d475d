"""Out-of-range numbers outside the matches: a 4xx with the field's message, never a 500."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from tournament.organiser import services
from tournament.validators import MAX_SESSION_NUMBER, parse_table_numbers

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000


def error_codes(form, field):
    return [error.code for error in form.errors.as_data()[field]]


@pytest.mark.parametrize(
    ("value", "code"),
    [("40000", "max_value"), ("9223372036854775808", "max_value"), (HUGE, "invalid")],
    ids=["40000", "2**63", "5000 digits"],
)
def test_a_first_session_beyond_the_last_possible_is_the_fields_error(
    organiser_client, tournament, value, code
):
    response = organiser_client.post(
        "/t/spring-open/organise/players/", {"name": "Zoé Zed", "first_session": value})
    assert response.status_code == 400
    assert error_codes(response.context["player_form"], "first_session") == [code]
    assert not tournament.registrations.filter(player__name="Zoé Zed").exists()


def test_the_services_refuse_it_too(tournament):
    registration = tournament.registrations.first()
    for write in (
        lambda: services.player_add(tournament=tournament, name="Zoé", first_session=40000),
        lambda: services.registration_update(
            registration=registration, name="Renamed", first_session=MAX_SESSION_NUMBER + 1),
    ):
        with pytest.raises(ValidationError) as refused:
            write()
        assert [error.code for error in refused.value.error_dict["first_session"]] == [
            "session-max"]
    registration.refresh_from_db()
    assert registration.player.name != "Renamed"


@pytest.mark.parametrize("value", [HUGE, f"1-{HUGE}", f"{HUGE}-1", "00000000000000000000001"],
                         ids=["huge", "1-huge", "huge-1", "leading zeros"])
def test_table_lists_of_any_length_are_read_without_a_crash(value):
    if value.endswith("0001"):
        assert parse_table_numbers(value) == {1}
        return
    with pytest.raises(ValidationError) as refused:
        parse_table_numbers(value)
    assert refused.value.code == "table-max"
    assert len(refused.value.messages[0]) < 100


def test_unicode_digits_are_not_table_numbers():
    for value in ("²", "١-٤", "٣"):
        with pytest.raises(ValidationError) as refused:
            parse_table_numbers(value)
        assert refused.value.code == "table-list"


def test_a_5000_digit_table_list_on_the_staff_page(organiser_client, tournament):
    response = organiser_client.post("/t/spring-open/staff/", {
        "username": "nina", "password": "Tiles-And-Hexagons-7", "role": "referee",
        "tables": HUGE})
    assert response.status_code == 400
    assert "table-max" in error_codes(response.context["form"], "tables")
    assert not tournament.staff_roles.filter(user__username="nina").exists()


@pytest.mark.parametrize("address", ["/t/spring-open/sessions/1/sheets.pdf",
                                     "/t/spring-open/tables.pdf"])
@pytest.mark.parametrize("value", [HUGE, f"1-{HUGE}"], ids=["huge", "1-huge"])
def test_a_5000_digit_table_list_in_a_pdfs_address(organiser, address, value):
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    response = client.get(address, {"tables": value})
    assert response.status_code == 400
    assert error_codes(response.context["form"], "tables") == ["table-max"]
