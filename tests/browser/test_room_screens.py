"""The room's screens in Chromium at their sizes (docs/guides/room.md): the projector at 1920x1080
and 1280x720, the head referee's board on a laptop and a tablet, the call on a phone, the
session clock on a tablet whose own clock is wrong. Each axe-clean (the suite's checks,
``test_accessibility``), each used with the keyboard alone where there is something to do."""

from __future__ import annotations

import datetime
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import AXE_OPTIONS, serious
from tests.factories import (
    match_at,
    played_session,
    players_of,
    recorded_match,
    seated_session,
    tournament_with_players,
)
from tournament.kit.table_codes import table_code
from tournament.models import Session
from tournament.room import services

SCREEN_SIZES = {"full-hd": {"width": 1920, "height": 1080}, "hd": {"width": 1280, "height": 720}}
STAFF_SIZES = {"laptop": {"width": 1280, "height": 800}, "tablet": {"width": 1024, "height": 768}}


@pytest.fixture(scope="module")
def axe():
    return Axe()


@pytest.fixture(autouse=True)
def patient(page):
    """The machine is shared: a page may take longer than the suite's 10 seconds to load."""
    page.set_default_timeout(30_000)


@pytest.fixture
def room(tournament, settings):
    """Session 1 in play: table 1's match under way, its clock of 30 minutes running for 10,
    an announcement; polls every 2 seconds, the projector's views every 5."""
    settings.TRIOMINOS_POLL_SECONDS = 2
    session = Session.objects.get(tournament=tournament, number=1)
    recorded_match(match=match_at(tournament=tournament, table=1), in_play=True)
    services.room_settings_save(tournament=tournament, time_up_action="flag", screen_seconds=5,
                                screen_top=5)
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=10))
    services.announcement_add(tournament=tournament, text="Déjeuner à midi")
    return tournament


def _clean(axe, page) -> None:
    page.wait_for_load_state("networkidle")
    results = axe.run(page, options=AXE_OPTIONS)
    assert serious(results) == [], [node["html"][:300] for violation in
                                    results.response["violations"] for node in violation["nodes"]]


def _clock_minutes(page) -> int:
    clock = page.locator("[data-clock-left]").first
    # the page's script writes the time over the "--:--" the server sends: wait for it
    expect(clock).to_have_text(re.compile(r"\d+:\d\d"))
    text = clock.inner_text()
    assert re.fullmatch(r"\d+:\d\d", text), text
    return int(text.split(":")[0])


@pytest.mark.parametrize("size", SCREEN_SIZES)
def test_the_projector_cycles_fits_and_survives_a_network_failure(axe, room, page, size):
    page.set_viewport_size(SCREEN_SIZES[size])
    page.goto("/t/spring-open/screen/")
    _clean(axe, page)
    expect(page.locator(".session-clock")).to_be_visible()
    assert 19 <= _clock_minutes(page) <= 20
    shown = page.locator(".screen-view:not([hidden])")
    expect(shown).to_have_count(1)
    first = shown.get_attribute("data-view")
    assert _views_overflowing(page) == []
    page.wait_for_timeout(5500)
    expect(page.locator(".screen-view:not([hidden])")).not_to_have_attribute("data-view", first)
    # the laptop's network fails: the last good content stays, and says how old it is
    page.route("**/screen/", lambda route: route.abort())
    expect(page.locator("#screen-stale")).to_be_visible(timeout=12_000)
    expect(page.locator("#screen .screen-view")).not_to_have_count(0)


def _views_overflowing(page) -> list[str]:
    """The views that do not fit the screen, each shown alone: nothing scrolls on a projector."""
    return page.evaluate("""() => {
        const views = [...document.querySelectorAll('#screen .screen-view')], over = [];
        const shown = views.map(v => v.hidden);
        views.forEach((view, i) => {
            views.forEach((other, j) => { other.hidden = i !== j; });
            const box = view.getBoundingClientRect();
            if (box.bottom > window.innerHeight || view.scrollWidth > view.clientWidth + 1)
                over.push(view.dataset.view + ' ' + i);
        });
        views.forEach((v, i) => { v.hidden = shown[i]; });
        return over;
    }""")


@pytest.mark.parametrize("size", SCREEN_SIZES)
def test_thirty_standings_rows_and_the_seating_of_32_fit_the_screen(axe, page, size):
    # session 1 played (the standings are shown once a match is confirmed), session 2 seated
    big = tournament_with_players(slug="big-open", players=32)
    registered = players_of(big)
    played_session(tournament=big, tables=[registered[i:i + 4] for i in range(0, 32, 4)])
    seated_session(tournament=big, tables=[registered[i::8] for i in range(8)])
    services.room_settings_save(tournament=big, time_up_action="flag", screen_seconds=300,
                                screen_top=30)
    page.set_viewport_size(SCREEN_SIZES[size])
    page.goto("/t/big-open/screen/")
    views = page.locator("#screen .screen-view")
    assert {views.nth(i).get_attribute("data-view") for i in range(views.count())} == {
        "seating", "standings"}
    assert _views_overflowing(page) == []
    _clean(axe, page)


@pytest.mark.parametrize("size", STAFF_SIZES)
def test_the_board_shows_a_call_first_says_it_once_and_opens_the_table(
        axe, room, organiser, log_in, page, size):
    page.set_viewport_size(STAFF_SIZES[size])
    log_in("olga-organiser", next_url="/t/spring-open/room/")
    page.goto("/t/spring-open/room/")
    _clean(axe, page)
    session = Session.objects.get(tournament=room, number=1)
    services.call_make(table=session.tables.get(number=2), reason="dispute",
                       code=table_code(room.pk, 2))
    first_row = page.locator("#board tbody tr").first
    expect(first_row).to_have_attribute("data-table", "2", timeout=8000)
    expect(page.locator("#board-status")).to_contain_text("2")
    _clean(axe, page)
    # the keyboard alone: to the first table's link, Enter opens its match
    page.keyboard.press("Tab")
    for _ in range(40):
        if page.evaluate("document.activeElement.classList.contains('board__open')"):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/matches/\d+/"))


def test_a_phone_calls_with_the_keyboard_and_the_referees_tablet_shows_it(
        axe, room, referee, page, browser, live_server, staff_password):
    page.set_viewport_size(PHONE)
    page.goto("/t/spring-open/tables/2/call/")
    _clean(axe, page)
    page.locator("input[name=reason]").first.focus()
    page.keyboard.press("ArrowDown")  # a question
    page.keyboard.press("Tab")
    page.keyboard.type("0000" if table_code(room.pk, 2) != "0000" else "1111")
    page.keyboard.press("Enter")
    expect(page.locator("#id_code_error")).to_be_visible()
    _clean(axe, page)
    page.locator("#id_code").fill(table_code(room.pk, 2))
    page.locator("#id_code").press("Enter")
    expect(page.locator("#call-sent")).to_be_visible()
    # the tablet of table 2's referee shows the call until it is answered
    tablet = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                 viewport={"width": 1024, "height": 768}).new_page()
    tablet.goto("/login/?next=/t/spring-open/tables/2/")
    tablet.locator("#id_username").fill("remi-referee")
    tablet.locator("#id_password").fill(staff_password)
    tablet.locator("main form button[type=submit]").click()
    tablet.wait_for_url(re.compile(r"/matches/\d+/"))
    expect(tablet.locator(".tournament-nav [data-clock-call]")).to_be_visible()
    _clean(axe, tablet)
    tablet.context.close()


def test_a_tablet_with_a_wrong_clock_shows_the_servers_time_left(axe, room, page):
    page.add_init_script("""(() => {
        const shift = 3 * 3600 * 1000, RealDate = Date;
        Date = class extends RealDate {
          constructor(...a) { super(...(a.length ? a : [RealDate.now() + shift])); }
          static now() { return RealDate.now() + shift; }
        };
    })();""")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto("/t/spring-open/tables/1/")
    expect(page.locator(".session-clock")).to_be_visible()
    assert 19 <= _clock_minutes(page) <= 20
    _clean(axe, page)


def test_the_organiser_runs_the_clock_with_the_keyboard(axe, room, organiser, log_in, page):
    page.set_viewport_size(STAFF_SIZES["laptop"])
    log_in("olga-organiser")
    page.goto("/t/spring-open/organise/sessions/1/clock/")
    _clean(axe, page)
    page.locator("#clock-pause").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    expect(page.locator("#clock-state")).to_have_attribute("data-state", "paused")
    page.locator("#id_extra_minutes").fill("500")
    page.locator("#id_extra_minutes").press("Enter")
    expect(page.locator("#id_extra_minutes_error")).to_be_visible()
    _clean(axe, page)
