"""Every page lives with the Content-Security-Policy (settings.CONTENT_SECURITY_POLICY): a
visitor, a referee on the entry screen and an organiser walk the main pages, on the README's
server (ASGI, the matches' streams open) with DEBUG off and on, and the browser refuses
nothing and reports no error."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_match_stream import asgi_server  # noqa: F401 (a fixture)
from tests.browser.test_recording_conflict import enter_opening
from tests.factories import in_play, match_at

#: Each refusal, reported in the console with its directive and what it refused.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error("securitypolicyviolation " + event.effectiveDirective + " " + event.blockedURI
                + " " + event.sourceFile + ":" + event.lineNumber);
});
"""


@pytest.fixture(params=[False, True], ids=["debug off", "debug on"])
def walker(request, browser, asgi_server, settings):  # noqa: F811 (the fixture imported)
    settings.DEBUG = request.param
    problems: list[str] = []

    def visitor():
        context = browser.new_context(base_url=asgi_server, locale="fr-FR",
                                      viewport={"width": 1024, "height": 768})
        context.set_default_timeout(20_000)
        context.add_init_script(REPORT_VIOLATIONS)
        page = context.new_page()
        page.on("console", lambda message: problems.append(f"{page.url} {message.type}: {message.text}")
                if message.type in ("error", "warning") else None)
        page.on("pageerror", lambda error: problems.append(f"{page.url} pageerror: {error}"))
        return page

    yield visitor, problems


def walk(page, *addresses):
    for address in addresses:
        answer = page.goto(address)
        assert answer.status == 200, address
        assert answer.headers["content-security-policy"].startswith("default-src 'self'")
        page.wait_for_timeout(300)


def log_in(page, username, password):
    page.goto("/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def test_the_main_pages_live_with_the_policy(walker, tournament, referee, organiser,
                                            staff_password):
    visitor, problems = walker
    playing, _turns = in_play(tournament, referee)
    entry = match_at(tournament=tournament, table=2, started=True)

    public = visitor()
    streams = []
    public.on("request", lambda request: streams.append(request.url) if "/stream/" in request.url else None)
    walk(public, "/", "/login/", "/t/spring-open/", "/t/spring-open/standings/",
         "/leagues/", "/ratings/", f"/t/spring-open/matches/{playing.pk}/")
    expect(public.locator("#match-live tbody tr[id^='turn-']")).to_have_count(2)
    public.wait_for_timeout(1_000)
    assert streams  # the match page opened its stream

    tablet = visitor()
    log_in(tablet, referee.username, staff_password)
    walk(tablet, "/my-tables/", f"/t/spring-open/matches/{entry.pk}/")
    tablet.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    names = [text.strip() for text in tablet.locator(".seat-name").all_inner_texts()]
    enter_opening(tablet, names[0], "5-5-5", "25")  # the entry screen's htmx, its preview
    expect(tablet.locator("#done")).to_have_count(1)
    expect(tablet.locator("#match")).to_have_attribute("data-revision", str(entry.revision + 1))
    walk(tablet, "/logout/")

    desk = visitor()
    log_in(desk, organiser.username, staff_password)
    walk(desk, "/t/spring-open/organise/", "/t/spring-open/organise/settings/",
         "/t/spring-open/organise/players/", "/t/spring-open/staff/",
         "/t/spring-open/standings/")
    assert problems == []
