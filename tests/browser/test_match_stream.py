"""A phone following a match on the README's server (ASGI): told by the match's stream, it
takes the live part once per turn within a second or two and polls no more; when the stream
cannot be had (a 503, a WSGI server), it polls as before."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn
from django.core.asgi import get_asgi_application
from django.db import connections
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import add, board_turn, fresh, in_play


@pytest.fixture
def asgi_server(transactional_db):
    """The app served by uvicorn, as gunicorn's ASGI worker serves it, on a thread of the
    tests' process (the same database as the tests). Each request runs on a thread made for
    it, which closes its connection when it ends, as the settings have it under ASGI."""
    database = connections.settings["default"]
    kept, database["CONN_MAX_AGE"] = database["CONN_MAX_AGE"], 0
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(get_asgi_application(), host="127.0.0.1",
                                           port=port, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    database["CONN_MAX_AGE"] = kept


@pytest.fixture
def follower(browser, asgi_server):
    context = browser.new_context(base_url=asgi_server, locale="fr-FR", viewport=PHONE,
                                  is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def playing(tournament, referee):
    return in_play(tournament, referee)


def watch_requests(page) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {"live": [], "stream": []}
    page.on("request", lambda request: seen["live"].append(request.url)
            if request.url.split("?")[0].endswith("/live/") else
            seen["stream"].append(request.url) if "/stream/" in request.url else None)
    return seen


def test_each_turn_is_taken_once_when_told_and_nothing_is_polled(
        follower, playing, referee, settings):
    settings.TRIOMINOS_POLL_SECONDS = 1  # were it polling, it would ask every second
    match, turns = playing
    seen = watch_requests(follower)
    follower.goto(f"/t/spring-open/matches/{match.pk}/")
    rows = follower.locator("#match-live tbody tr[id^='turn-']")
    expect(rows).to_have_count(2)
    follower.wait_for_timeout(2_500)
    assert seen["live"] == []  # the stream is open: no poll
    assert len(seen["stream"]) == 1

    for done, turn in enumerate(turns[2:4], start=3):
        add(match, referee, board_turn(turn))
        expect(rows).to_have_count(done, timeout=5_000)
        assert len(seen["live"]) == done - 2  # one request per turn, after its event
    assert len(seen["stream"]) == 1
    assert follower.locator("#match-live").get_attribute("data-stream").endswith(
        f"?revision={fresh(match).revision}")


def test_without_its_stream_the_page_polls_as_before(follower, playing, referee, settings):
    """The stream answered 503 (a proxy, a server restarting): the browser gives it up, the
    page does not ask for it again, and its polls show the turns."""
    settings.TRIOMINOS_POLL_SECONDS = 1
    match, turns = playing
    follower.route("**/stream/**", lambda route: route.fulfill(status=503, body="busy"))
    seen = watch_requests(follower)
    follower.goto(f"/t/spring-open/matches/{match.pk}/")
    rows = follower.locator("#match-live tbody tr[id^='turn-']")
    expect(rows).to_have_count(2)
    add(match, referee, board_turn(turns[2]))
    expect(rows).to_have_count(3, timeout=5_000)
    follower.wait_for_timeout(1_500)
    assert len(seen["live"]) >= 2  # polled: every second, not once per turn
    assert len(seen["stream"]) == 1  # refused once: not asked for again at each poll
