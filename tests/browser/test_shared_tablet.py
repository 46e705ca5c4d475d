"""One tablet, several referees: a referee opens a match of a private tournament and logs
out; whoever holds the tablet next, logged out or logged in as someone else, offline, must not
be shown the match page the service worker kept. A logout with turns still waiting to be sent
asks first: send them (their match) or discard them, never dropped unasked."""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session as LoginSession
from playwright.sync_api import Error as BrowserError
from playwright.sync_api import expect

from tests.browser.test_recording_offline import (
    draw_three_and_pass,
    opened,
    page_kept,
    queued,
    stored,
)
from tests.factories import match_at
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffRole


@pytest.fixture
def private_match(make_tournament, make_user, referee):
    """A started match of a private tournament that ``remi-referee`` referees."""
    private = make_tournament(slug="closed-cup", name="Closed Cup", is_public=False)
    staff_role_grant(tournament=private, user=referee, role=StaffRole.Role.REFEREE)
    return match_at(tournament=private, started=True)


@pytest.fixture
def tablet(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 1024, "height": 768})
    context.set_default_timeout(20_000)
    yield context, context.new_page()
    context.close()


def log_in(page, username, password, next_url="/my-tables/"):
    page.goto(f"/login/?next={next_url}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def wait_kept(page):
    """Once the service worker runs the page, opened again: the worker keeps it."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    page.reload()
    for _wait in range(80):
        if page_kept(page):
            return
        page.wait_for_timeout(250)
    raise AssertionError("the service worker did not keep the match page")


def shown_offline(context, page, address) -> bool:
    """Whether the tablet, offline, shows the match page at ``address``."""
    context.set_offline(True)
    try:
        page.goto(address)
    except BrowserError:
        return False  # the browser's own error: nothing kept was served
    finally:
        context.set_offline(False)
    return page.locator("#match").count() > 0


def test_the_next_referee_on_the_tablet_is_not_shown_the_kept_private_match(
        tablet, private_match, make_user, tournament, staff_password):
    context, page = tablet
    second = make_user("tania-second")
    staff_role_grant(tournament=tournament, user=second, role=StaffRole.Role.REFEREE)
    address = f"/t/closed-cup/matches/{private_match.pk}/"
    log_in(page, "remi-referee", staff_password, address)
    expect(page.locator("#turn-form")).to_be_visible()
    wait_kept(page)
    assert shown_offline(context, page, address)  # kept for its referee: a reload offline works

    page.goto(address)
    page.locator("form.logout button[type=submit]").click()
    expect(page.locator(".login-link")).to_be_visible()
    assert not shown_offline(context, page, address)  # the logged-out tablet

    log_in(page, "tania-second", staff_password)
    expect(page.locator(".current-user")).to_have_text("tania-second")
    assert not shown_offline(context, page, address)  # the next referee
    page.goto("/my-tables/")
    assert page.evaluate("async (url) => !(await caches.match(url))", address)


def test_a_page_kept_for_one_login_is_not_served_to_the_next_without_a_logout(
        tablet, private_match, make_user, staff_password):
    """The next referee logs in over the first one's login (no logout, no Clear-Site-Data)."""
    context, page = tablet
    make_user("tania-second")
    address = f"/t/closed-cup/matches/{private_match.pk}/"
    log_in(page, "remi-referee", staff_password, address)
    wait_kept(page)
    log_in(page, "tania-second", staff_password)
    expect(page.locator(".current-user")).to_have_text("tania-second")
    assert not shown_offline(context, page, address)


def test_the_worker_keeps_the_last_eight_match_pages(tablet, make_tournament, make_user,
                                                    staff_password):
    context, page = tablet
    big = make_tournament(slug="big-open", players=36, is_public=False)
    staff_role_grant(tournament=big, user=make_user("remi-referee"), role=StaffRole.Role.REFEREE)
    addresses = [f"/t/big-open/matches/{match_at(tournament=big, table=table, started=True).pk}/"
                 for table in range(1, 10)]
    log_in(page, "remi-referee", staff_password, addresses[0])
    wait_kept(page)
    for address in addresses[1:]:
        page.goto(address)
        wait_kept(page)
    kept = page.evaluate("""async (addresses) => {
        const found = [];
        for (const address of addresses) { if (await caches.match(address)) { found.push(address); } }
        return found;
    }""", addresses)
    assert kept == addresses[1:]


def block_writes(context):
    """The server's answers to writes lost on the way (the venue's Wi-Fi)."""
    context.route(re.compile(r".*/matches/\d+/.+"),
                  lambda route: route.abort() if route.request.method == "POST" else route.continue_())


def test_a_logout_with_turns_waiting_asks_and_sends_them(browser, live_server, tournament,
                                                         referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, _names = opened(browser, live_server, staff_password, match)
    try:
        block_writes(context)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        page.goto("/my-tables/")
        page.locator("form.logout button[type=submit]").click()
        expect(page).to_have_url(re.compile(r"/logout/$"))
        expect(page.locator("#logout-pending")).to_be_visible()
        expect(page.locator("#logout-submit")).to_be_hidden()
        assert LoginSession.objects.count() == 1  # still logged in
        assert len(queued(page, match)) == 1

        context.unroute(re.compile(r".*/matches/\d+/.+"))
        page.locator(f'#logout-pending-matches li[data-match="{match.pk}"] a').click()
        expect(page.locator("#turn-form")).to_be_visible()
        page.wait_for_function("(id) => !localStorage.getItem('triominos.queue.' + id)", arg=match.pk,
                               timeout=20_000)
        assert len(stored(match)) == 2  # the opening and the pass
        page.locator("form.logout button[type=submit]").click()
        expect(page.locator(".login-link")).to_be_visible()
        assert LoginSession.objects.count() == 0
    finally:
        context.close()


def test_a_logout_with_turns_waiting_discards_them_only_when_asked(
        browser, live_server, tournament, referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, _names = opened(browser, live_server, staff_password, match)
    try:
        block_writes(context)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        page.goto("/logout/")
        expect(page.locator("#logout-pending")).to_be_visible()
        page.locator("#logout-discard").click()
        expect(page.locator(".login-link")).to_be_visible()
        assert LoginSession.objects.count() == 0
        assert queued(page, match) == []
        assert len(stored(match)) == 1
    finally:
        context.close()
