"""The check-in at the door, on a phone (docs/guides/check-in.md): a referee finds a player by a part
of their name typed without accents and checks them in with one tap; the page does not
reload, the search stays, and the seating then seats the players checked in only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import players_of, tournament_with_players
from tournament.core.tournaments import staff_role_grant
from tournament.models import CheckIn, CheckInRule, Seat, StaffRole
from tournament.seating.services import session_seat
from tournament.sessions.services import session_create

NAMES = ["Hélène Lefèvre-Dubœuf", "Łukasz Nowak", "Zoé Garnier", "Anaïs Morel", "Mads Sørensen"]


@pytest.fixture
def cup(make_user):
    tournament = tournament_with_players(slug="cup", players=[(name, "Club") for name in NAMES],
                                         check_in=CheckInRule.FORFEIT)
    session_create(tournament=tournament)
    staff_role_grant(tournament=tournament, user=make_user("remi-referee"),
                     role=StaffRole.Role.REFEREE)
    return tournament


def test_a_referee_checks_players_in_on_a_phone(phone, cup, staff_password):
    phone.goto("/login/?next=/t/cup/sessions/1/")
    phone.locator("#id_username").fill("remi-referee")
    phone.locator("#id_password").fill(staff_password)
    phone.locator("main form button[type=submit]").click()
    phone.locator("#check-in-link").click()
    expect(phone.locator("#check-in-count")).to_have_attribute("data-present", "0")
    rows = phone.locator("#check-in-players tbody tr")
    expect(rows).to_have_count(len(NAMES))

    by_name = {player.name: player for player in players_of(cup)}
    for typed, name in (("duboeuf", NAMES[0]), ("lukasz", NAMES[1]), ("zoe", NAMES[2])):
        box = phone.locator("#find-player")
        box.fill(typed)
        visible = phone.locator("#check-in-players tbody tr:not([hidden])")
        expect(visible).to_have_count(1)
        row = phone.locator(f"#check-in-{by_name[name].pk}")
        expect(row).to_be_visible()
        row.get_by_role("button").tap()
        expect(phone.locator(f"#check-in-{by_name[name].pk}")).to_have_attribute(
            "data-present", "1")
        expect(box).to_have_value(typed)  # no reload: the search stays
    expect(phone.locator("#check-in-count")).to_have_attribute("data-present", "3")
    # a tap again marks a player absent
    phone.locator(f"#check-in-{by_name[NAMES[2]].pk}").get_by_role("button").tap()
    expect(phone.locator(f"#check-in-{by_name[NAMES[2]].pk}")).to_have_attribute(
        "data-present", "0")
    expect(phone.locator("#check-in-count")).to_have_attribute("data-present", "2")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    assert set(CheckIn.objects.values_list("player__name", flat=True)) == set(NAMES[:2])
    session = cup.sessions.get(number=1)
    session_seat(session=session)
    assert set(Seat.objects.filter(session=session).values_list("player__name", flat=True)
               ) == set(NAMES[:2])
