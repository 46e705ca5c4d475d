"""Browser tests: Playwright drives the system's Chromium against pytest-django's live_server.

- ``browser``: one headless Chromium for the whole run (``TRIOMINOS_CHROMIUM`` overrides the
  path, /usr/bin/chromium by default; ``playwright install`` is never needed).
- ``page``: a fresh browser context and page per test, French like a venue's tablets, its
  base URL the live server's, so ``page.goto("/t/demo/")`` works.
- ``phone``: the same on a phone (390 × 844, touch), French too (``PHONE``: its size).
- ``log_in(username, password=STAFF_PASSWORD)``: fills the login form in ``page``.
- ``axe``: axe-core's checks, with the axe-core vendored in ``tests/browser/axe/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect, sync_playwright

# An assertion waits up to 10 s, not Playwright's 5: a save or a preview on this shared
# machine, with another suite running beside, has taken longer than 5 s (the pages' own
# actions wait 20 s: the contexts below).
expect.set_options(timeout=10_000)

# Playwright's sync API runs an event loop in this thread; the tests still use the ORM
# synchronously (fixtures, checks), which Django would otherwise refuse.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("TRIOMINOS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="fr-FR", viewport={"width": 1024, "height": 768}
    )
    context.set_default_timeout(20_000)  # a shared machine under load answers slowly
    page = context.new_page()
    yield page
    context.close()


#: A phone's screen, as the phone tests hold it (a 390 px wide phone).
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="fr-FR", viewport=PHONE, is_mobile=True,
        has_touch=True, device_scale_factor=2,
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def log_in(page, staff_password):
    def log_in(username: str, password: str = staff_password, *, next_url: str = "/") -> None:
        page.goto(f"/login/?next={next_url}")
        page.locator("#id_username").fill(username)
        page.locator("#id_password").fill(password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_load_state()

    return log_in


#: axe-core as the npm package ships it (tests/browser/axe/README.md: version, licence, update).
AXE_JS = Path(__file__).parent / "axe" / "axe.min.js"


@pytest.fixture(scope="session")
def axe():
    """axe-core's checks with the vendored axe-core (4.10 or later), injected into the page."""
    return Axe.from_file(AXE_JS)
