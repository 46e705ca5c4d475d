"""A phone following a match on the README's server (ASGI): its match's stream brings the live
part of each turn within a second or two, and the page asks for nothing more; when the stream
is refused (a 503, a 429 for an address full of streams, a WSGI server), it polls and asks for
the stream again later, waiting longer each time."""

from __future__ import annotations

import datetime
import socket
import time

import pytest
from django.core.asgi import get_asgi_application
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import add, board_turn, fresh, in_play
from tests.servers import served_on_thread
from tournament.matches.stream import door
from tournament.models import Session
from tournament.room import services as room


@pytest.fixture
def asgi_server(transactional_db):
    """The app served by uvicorn, as gunicorn's ASGI worker serves it, on a thread of the
    tests' process (the same database as the tests)."""
    with served_on_thread(get_asgi_application()) as address:
        yield address


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


def test_each_turn_is_brought_by_the_stream_and_nothing_is_asked(
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

    french = follower.locator("#match-live").inner_text()
    for done, turn in enumerate(turns[2:4], start=3):
        add(match, referee, board_turn(turn))
        expect(rows).to_have_count(done, timeout=5_000)
    # each event brought the live part, in the page's language: no request for it
    assert seen["live"] == []
    assert len(seen["stream"]) == 1
    shown = follower.locator("#match-live").inner_text()
    assert shown != french and shown.split()[0] == french.split()[0]
    assert follower.locator("#live-status").inner_text() != ""
    assert follower.locator("#match-live").get_attribute("data-stream").endswith(
        f"?revision={fresh(match).revision}")


def test_the_clock_comes_in_the_stream_and_is_asked_for_once(follower, playing, referee):
    """The page's clock asks its clock.json once as the page opens; then the head referee's
    pause reaches it through the stream within a second or two, where its poll would have
    waited up to 20 s, and it asks for nothing more."""
    match, _turns = playing
    session = Session.objects.get(pk=match.table.session_id)
    room.clock_set(session=session, minutes=60, user=referee)
    room.clock_start(session=session, user=referee)
    # it has run ten minutes: paused, it is "paused" (a clock paused at 0 s is "ready")
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=10))
    clocks: list[str] = []
    follower.on("request", lambda request: clocks.append(request.url)
                if request.url.endswith("/clock.json") else None)
    follower.goto(f"/t/spring-open/matches/{match.pk}/")
    box = follower.locator(".session-clock")
    expect(box).to_have_attribute("data-state", "running")
    follower.wait_for_timeout(1_500)  # the stream open, its first clock event taken
    room.clock_pause(session=session, user=referee)
    expect(box).to_have_attribute("data-state", "paused", timeout=5_000)
    assert len(clocks) == 1


def test_a_stream_refused_is_asked_for_again_later_and_longer_each_time(
        follower, playing, referee, settings):
    """The stream answered 503 each time (a proxy, a server restarting): the page polls and
    shows the turns meanwhile, and asks for its stream again later, waiting longer each time
    (twice the polling interval, then twice as long: 1 to 2 s, 2 to 4 s, 4 to 8 s here), not
    at each poll."""
    settings.TRIOMINOS_POLL_SECONDS = 1
    match, turns = playing
    asked: list[float] = []

    def refuse(route):
        asked.append(time.monotonic())
        route.fulfill(status=503, headers={"Retry-After": "30"}, body="busy")

    follower.route("**/stream/**", refuse)
    seen = watch_requests(follower)
    follower.goto(f"/t/spring-open/matches/{match.pk}/")
    rows = follower.locator("#match-live tbody tr[id^='turn-']")
    expect(rows).to_have_count(2)
    add(match, referee, board_turn(turns[2]))
    expect(rows).to_have_count(3, timeout=5_000)
    deadline = time.monotonic() + 20
    while len(asked) < 4 and time.monotonic() < deadline:
        follower.wait_for_timeout(200)
    assert len(asked) >= 4, asked
    waits = [later - earlier for earlier, later in zip(asked, asked[1:])]
    assert all(wait >= 0.8 for wait in waits), waits
    assert all(later >= earlier - 0.3 for earlier, later in zip(waits, waits[1:])), waits
    assert len(seen["live"]) > len(asked)  # polled every second meanwhile


def test_a_phone_refused_by_an_address_full_of_streams_gets_its_stream_later(
        follower, playing, referee, settings, asgi_server, monkeypatch):
    """A client at the phone's address holds as many streams as an address may (one here):
    the phone's stream is refused (429), its page polls; once the client lets its stream go,
    the page asks again, gets its stream, and polls no more."""
    settings.TRIOMINOS_POLL_SECONDS = 1
    monkeypatch.setattr(door, "MAX_STREAMS_PER_ADDRESS", 1)
    match, turns = playing
    page = f"/t/spring-open/matches/{match.pk}/"
    host, port = asgi_server.removeprefix("http://").split(":")
    hostile = socket.create_connection((host, int(port)), timeout=10)
    hostile.sendall(f"GET {page}stream/ HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    received = b""
    while b"retry: 5000" not in received:
        received += hostile.recv(4096)
    assert received.startswith(b"HTTP/1.1 200")

    answers: list[int] = []
    follower.on("response", lambda response: answers.append(response.status)
                if "/stream/" in response.url else None)
    seen = watch_requests(follower)
    follower.goto(page)
    rows = follower.locator("#match-live tbody tr[id^='turn-']")
    expect(rows).to_have_count(2)
    follower.wait_for_timeout(1_500)
    assert answers[:1] == [429]
    assert len(seen["live"]) >= 1  # refused: it polls

    hostile.close()  # the server ends its stream
    deadline = time.monotonic() + 20
    while 200 not in answers and time.monotonic() < deadline:
        follower.wait_for_timeout(200)
    assert 200 in answers, answers
    follower.wait_for_timeout(1_500)  # the stream open: the polls stop
    polled = len(seen["live"])
    follower.wait_for_timeout(2_500)
    assert len(seen["live"]) == polled
    add(match, referee, board_turn(turns[2]))
    expect(rows).to_have_count(3, timeout=5_000)
    assert len(seen["live"]) == polled  # brought by its stream: no request
