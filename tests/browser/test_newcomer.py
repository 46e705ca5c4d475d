"""What a newcomer meets first, in Chromium and in French: an empty installation, the first
tournament to create; the room's screens as players read them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournament.models import Tournament


@pytest.fixture(autouse=True)
def patient(page):
    """The machine is shared: a page may take longer than the suite's 10 seconds to load."""
    page.set_default_timeout(30_000)


def test_a_superuser_on_an_empty_installation_creates_the_first_tournament_from_home(
        page, log_in, make_user):
    make_user("head", is_superuser=True, is_staff=True)
    assert not Tournament.objects.exists()
    log_in("head")
    page.goto("/")
    page.locator("#tournament-create").click()
    page.wait_for_url("**/tournaments/new/")
    expect(page.locator("main form")).to_be_visible()


def test_the_first_tournament_link_is_not_offered_to_who_may_not_create_one(page, log_in, referee):
    log_in("remi-referee")
    page.goto("/")
    expect(page.locator("#tournament-create")).to_have_count(0)
