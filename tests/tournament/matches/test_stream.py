"""A match's stream (``tournament:match_stream``), as the ASGI server serves it: an event with
the new revision and the match's live part within a second of a write, from the revision the page shows or the last one
told; nothing for a match confirmed, another tournament's address or a private tournament; a
204 where the server is WSGI (the page then polls)."""

from __future__ import annotations

import asyncio
import doctest
import gc
import resource
import subprocess
import sys
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse

from tests.factories import add, board_turn, fresh, in_play
from tournament.matches.stream import door, live
from tournament.matches.stream import views as stream
from tournament.models import Match

pytestmark = pytest.mark.django_db(transaction=True)  # the watch reads on threads of its own


def on_own_thread(function):
    """``function()`` run on a thread of its own, its connections closed after: the browser
    tests' Playwright leaves an event loop running in the tests' thread, where neither
    ``asyncio.run`` nor an async view under the WSGI test client may run."""
    outcome = {}

    def target():
        try:
            outcome["value"] = function()
        except BaseException as error:  # raised again in the test's thread
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def run(coroutine):
    return on_own_thread(lambda: asyncio.run(coroutine))


@pytest.fixture(autouse=True)
def no_stream_left(transactional_db):
    """Each test starts with the worker's door empty (whatever another server of the tests'
    process left), and leaves it so: the streams its clients let go are counted until
    collected, and none is counted after. A response let go on the test's event loop may
    still be held a moment by the threads that served it (asgiref's, the watch's): collected
    again until none is counted, for a few seconds at most."""
    gc.collect()
    for counts in (door.door.streams, door.door.by_address, door.door.by_match):
        counts.clear()
    cache.clear()  # the addresses' slots (door.address_claim) another test may have left
    yield
    deadline = time.monotonic() + 5
    while True:
        gc.collect()
        if door.door.open == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert door.door.open == 0


@pytest.fixture
def playing(tournament, referee):
    """A match with two turns saved, and the next turn of its round."""
    match, turns = in_play(tournament, referee)
    return match, turns[2]


class AsyncClientAt(AsyncClient):
    """The ASGI test client as a client at ``ip`` (its scope's ``client``)."""

    def __init__(self, ip: str, **defaults) -> None:
        super().__init__(**defaults)
        self.ip = ip

    def _base_scope(self, **request):
        return {**super()._base_scope(**request), "client": [self.ip, 40000]}


def address(match: Match, slug: str = "spring-open") -> str:
    return reverse("tournament:match_stream", kwargs={"slug": slug, "match_id": match.pk})


async def read_events(response, *, count: int, seconds: float,
                      clocks: bool = False) -> list[str]:
    """The stream's first ``count`` messages (events, comments) read within ``seconds``; the
    clock's events (``event: clock``) left out unless ``clocks``."""
    messages, data = [], b""
    chunks = aiter(response.streaming_content)
    async with asyncio.timeout(seconds):
        while len(messages) < count:
            data += await anext(chunks)
            *done, data = data.split(b"\n\n")
            messages += [message.decode() for message in done
                         if clocks or not message.startswith(b"event: clock\n")]
    await chunks.aclose()
    return messages


def fields(message: str) -> dict[str, str]:
    """An event's fields as the browser reads them: its ``data:`` lines joined by newlines."""
    found: dict[str, list[str]] = {}
    for line in message.split("\n"):
        name, _colon, value = line.partition(": ")
        found.setdefault(name, []).append(value)
    return {name: "\n".join(values) for name, values in found.items()}


def live_part(match: Match, client=None, **headers) -> str:
    """The match's live part as the page fetches it (htmx), in a test client's answer."""
    url = reverse("tournament:match_live", kwargs={"slug": "spring-open", "match_id": match.pk})
    response = on_own_thread(lambda: (client or Client()).get(url, HTTP_HX_REQUEST="true",
                                                              **headers))
    assert response.status_code == 200
    return response.content.decode()


def test_a_turn_saved_is_told_within_a_second_with_its_live_part(playing, referee):
    """The event carries the live part the page would fetch, so the page asks for nothing;
    every stream of the match in the worker is sent the one part made for that revision."""
    match, turn = playing

    async def scenario():
        responses = [await AsyncClient().get(address(match), {"revision": match.revision})
                     for _ in range(3)]
        assert {response.status_code for response in responses} == {200}
        assert responses[0]["Content-Type"] == "text/event-stream"
        reading = [asyncio.ensure_future(read_events(response, count=2, seconds=5))
                   for response in responses]
        await asyncio.sleep(0.3)  # the streams wait: nothing moved
        await sync_to_async(add)(match, referee, board_turn(turn))
        return await asyncio.gather(*reading)

    made = []
    real = live.live_part

    def counted(**kwargs):
        made.append(kwargs["revision"])
        return real(**kwargs)

    live.live_part = counted
    try:
        told = run(scenario())
    finally:
        live.live_part = real
    revision = fresh(match).revision
    assert revision > match.revision
    assert made == [revision]  # once for the three streams
    for retry, moved in told:
        assert retry == "retry: 5000"
        event = fields(moved)
        assert (event["id"], event["event"]) == (str(revision), "moved")
        assert event["data"] == live_part(match).strip()
        assert f"?revision={revision}" in event["data"]


def test_a_private_tournaments_stream_tells_the_revision_alone(playing, referee):
    """The live part sent in an event is the public's: where the public may not read the
    match, its staff's page is told the revision and fetches its own."""
    match, turn = playing
    tournament = match.table.session.tournament
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])

    async def scenario():
        client = AsyncClient()
        await sync_to_async(client.force_login)(referee)
        response = await client.get(address(match), {"revision": match.revision - 1})
        assert response.status_code == 200
        return await read_events(response, count=2, seconds=5)

    _retry, moved = run(scenario())
    assert moved == f"id: {match.revision}\nevent: moved\ndata: {match.revision}"


def test_a_page_behind_the_match_is_told_at_once(playing):
    """A page made at an older revision (or a stream dropped since the last event told):
    the stream says the match's revision first thing, with nothing written meanwhile."""
    match, _ = playing

    async def scenario(**headers):
        response = await AsyncClient().get(address(match), {"revision": 1}, headers=headers)
        return await read_events(response, count=2, seconds=3)

    event = fields(run(scenario())[1])
    assert (event["id"], event["data"]) == (str(match.revision), live_part(match).strip())
    # the browser opening the stream again sends the last event's id, which wins over the
    # address's revision: up to date, nothing to tell but that it still waits
    stream_heartbeat, stream.HEARTBEAT = stream.HEARTBEAT, 0.5
    try:
        messages = run(scenario(**{"Last-Event-ID": str(match.revision)}))
    finally:
        stream.HEARTBEAT = stream_heartbeat
    assert messages == ["retry: 5000", ": still here"]


def test_no_stream_for_a_confirmed_match_a_wrong_address_or_a_private_tournament(
        playing, make_tournament):
    match, _ = playing

    async def status(url: str) -> int:
        return (await AsyncClient().get(url)).status_code

    other = make_tournament(slug="other-open")
    assert run(status(address(match, slug=other.slug))) == 404
    assert run(status(address(match, slug="no-such-open"))) == 404

    tournament = match.table.session.tournament
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert run(status(address(match))) == 404
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])

    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    assert run(status(address(match))) == 204


def test_a_wsgi_server_answers_204_and_the_page_polls(client, playing):
    match, _ = playing
    assert on_own_thread(lambda: client.get(address(match))).status_code == 204
    page = client.get(reverse("tournament:match", kwargs={"slug": "spring-open",
                                                         "match_id": match.pk}))
    live = page.content.decode()
    assert f'data-stream="{address(match)}?revision={match.revision}"' in live
    assert 'hx-trigger="every ' in live


def test_a_worker_with_its_streams_all_open_answers_503_with_when_to_ask_again(
        playing, monkeypatch):
    """The worker's own bound (set at start-up from its file descriptors): beyond, a 503
    with ``Retry-After``, the page polling meanwhile; a stream that ends lets the next in."""
    match, _ = playing
    monkeypatch.setattr(door, "MAX_STREAMS", 1)

    async def scenario():
        first = await AsyncClient().get(address(match))
        assert first.status_code == 200
        opened = aiter(first.streaming_content)
        assert await anext(opened) == b"retry: 5000\n\n"
        second = await AsyncClientAt("198.51.100.9").get(address(match))
        del first, opened  # the client gone: the server lets its response go
        await let_go()
        third = await AsyncClient().get(address(match))
        return second, third.status_code

    second, third = run(scenario())
    assert second.status_code == 503
    assert 0 < int(second["Retry-After"]) <= stream.STREAM_SECONDS
    assert third == 200


async def let_go(open_streams: int = 0) -> None:
    """Wait for the streams let go to be closed (run by the event loop once collected)."""
    for _ in range(200):
        if door.door.open <= open_streams:
            return
        gc.collect()
        await asyncio.sleep(0.01)
    raise AssertionError(f"{door.door.open} streams still open")


def test_one_address_opening_streams_by_the_hundred_gets_its_share_and_no_more(playing):
    """The audit's client: streams opened one after the other from one address, never read.
    It gets ``MAX_STREAMS_PER_ADDRESS``, then 429s telling when its oldest stream ends at the
    latest; a phone at another address still gets its stream, and once the client lets its
    streams go, its address is let in again."""
    match, _ = playing
    hostile = AsyncClientAt("203.0.113.7")

    async def scenario():
        held = [await hostile.get(address(match)) for _ in range(door.MAX_STREAMS_PER_ADDRESS)]
        assert {response.status_code for response in held} == {200}
        refused = [await hostile.get(address(match)) for _ in range(20)]
        phone = await AsyncClientAt("198.51.100.20").get(address(match))
        phone_status = phone.status_code
        del phone
        held.clear()
        await let_go()
        again = await hostile.get(address(match))
        return refused, phone_status, again.status_code

    refused, phone, again = run(scenario())
    assert {response.status_code for response in refused} == {429}
    for response in refused:
        # its oldest stream ends STREAM_SECONDS after it opened, at the latest
        assert stream.STREAM_SECONDS - 60 <= int(response["Retry-After"]) <= stream.STREAM_SECONDS
    assert phone == 200
    assert again == 200


def test_an_ipv6_subscriber_counts_as_one_address(playing, monkeypatch):
    """An IPv6 client has a /64 of its own, 2⁶⁴ addresses: they count together."""
    match, _ = playing
    monkeypatch.setattr(door, "MAX_STREAMS_PER_ADDRESS", 3)

    async def statuses(addresses):
        held = [await AsyncClientAt(ip).get(address(match)) for ip in addresses]
        return [response.status_code for response in held]

    network = [f"2001:db8:5:7:{n:x}::{n:x}" for n in range(1, 6)]
    # the five from one /64, then another subscriber's /64 while they are held
    assert run(statuses([*network, "2001:db8:5:8::1"])) == [200, 200, 200, 429, 429, 200]


def test_a_match_followed_by_a_crowd_keeps_the_worker_for_the_others(playing, monkeypatch):
    """Many addresses on one match: beyond ``MAX_STREAMS_PER_MATCH``, a 429 with
    ``Retry-After``."""
    match, _ = playing
    monkeypatch.setattr(door, "MAX_STREAMS_PER_MATCH", 4)

    async def scenario():
        held = [await AsyncClientAt(f"198.51.100.{n}").get(address(match))
                for n in range(1, 7)]
        return [(response.status_code, response.get("Retry-After")) for response in held]

    answers = run(scenario())
    assert [status for status, _ in answers] == [200] * 4 + [429] * 2
    assert all(0 < int(retry) <= stream.STREAM_SECONDS for _, retry in answers[4:])


def test_a_stream_answered_but_never_read_is_let_go(playing, monkeypatch):
    """A client that asks for streams and drops them before their first byte (a raw socket
    closed) holds nothing once its responses are let go."""
    match, _ = playing
    monkeypatch.setattr(door, "MAX_STREAMS_PER_ADDRESS", 2)

    async def scenario():
        for _ in range(5):
            response = await AsyncClient().get(address(match))
            assert response.status_code == 200
            del response
            await let_go()
        return door.door.open

    assert run(scenario()) == 0


@pytest.mark.parametrize("header, query", [
    ({"Last-Event-ID": "²"}, {}), ({"Last-Event-ID": "³³"}, {}), ({}, {"revision": "²"}),
    ({}, {"revision": "٣"}), ({}, {"revision": "３"}),
], ids=["last-event-id-superscript", "last-event-id-two-superscripts",
        "revision-superscript", "revision-arabic-indic", "revision-fullwidth"])
def test_unicode_digits_for_a_revision_are_no_revision(playing, header, query):
    """``²`` is a digit to ``str.isdigit()`` that ``int()`` refuses (a 500 once: a header's
    bytes are read as Latin-1, where ``²`` is one byte); ``٣`` and ``３`` are digits ``int()``
    reads that no page sends: all count as no revision given, the stream starts from the
    match's."""
    match, _ = playing
    stream_heartbeat, stream.HEARTBEAT = stream.HEARTBEAT, 0.3

    async def scenario():
        response = await AsyncClient(raise_request_exception=False).get(
            address(match), query, headers=header)
        if response.status_code != 200:
            return response.status_code, []
        return 200, await read_events(response, count=2, seconds=3)

    try:
        status, messages = run(scenario())
    finally:
        stream.HEARTBEAT = stream_heartbeat
    assert status == 200
    assert messages == ["retry: 5000", ": still here"]  # at the match's revision: nothing to tell


def test_the_doors_doctests():
    assert doctest.testmod(door).failed == 0


def start_up(soft: int, hard: int) -> subprocess.CompletedProcess:
    """``tournament/asgi.py`` imported, as a worker starts, under ``ulimit -n`` soft and hard."""
    code = ("import resource\n"
            f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard}))\n"
            "import tournament.asgi\n"
            "from tournament.matches.stream import door\n"
            "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0], door.MAX_STREAMS)\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)


@pytest.mark.skipif(resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 4096,
                    reason="the tests' own hard limit is too low to set these")
def test_a_worker_starts_within_its_file_descriptors():
    """Under ``ulimit -n 1024`` (soft) a worker raises its soft limit toward the hard one as
    far as its streams and the connections kept alive need; where the hard limit is lower, it
    keeps fewer streams, leaving room for the pool, the pages and the connections kept alive;
    the figures are logged at start-up."""
    wanted = door.DESCRIPTORS_WANTED
    assert wanted == 2 * door.STREAMS_CEILING + door.KEPT_DESCRIPTORS
    raised = start_up(1024, 4096)
    assert raised.stdout.split() == [str(wanted), str(door.STREAMS_CEILING)]
    assert f"soft limit {wanted} (was 1024), hard limit 4096" in raised.stderr
    short = start_up(1024, 2048)  # raised as far as it may: half the rest for the streams
    assert short.stdout.split() == ["2048", str((2048 - door.KEPT_DESCRIPTORS) // 2)]
    held = start_up(1024, 1024)
    streams = (1024 - door.KEPT_DESCRIPTORS) // 2
    assert held.stdout.split() == ["1024", str(streams)]
    assert f"streams at most {streams} a worker" in held.stderr
    none = start_up(200, 200)
    assert none.stdout.split() == ["200", "0"]


def test_streams_beyond_the_descriptors_left_are_refused_before_they_run_out(
        playing, monkeypatch):
    """Clients at many addresses open streams in a worker whose limit leaves room for 3
    beside the pool, the pages and as many connections kept alive: the fourth is answered 503 with ``Retry-After`` (the page
    polls), not a worker out of descriptors failing every request."""
    match, _ = playing
    monkeypatch.setattr(door, "MAX_STREAMS", door.MAX_STREAMS)  # put back after the test
    limit = door.KEPT_DESCRIPTORS + 6
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (limit, limit))
    monkeypatch.setattr(resource, "setrlimit", lambda kind, limits: None)
    assert door.open_to_descriptors().streams == 3

    async def scenario():
        held = [await AsyncClientAt(f"198.51.100.{n}").get(address(match)) for n in range(1, 9)]
        return [(response.status_code, response.get("Retry-After")) for response in held]

    answers = run(scenario())
    assert [status for status, _ in answers] == [200] * 3 + [503] * 5
    assert all(0 < int(retry) <= stream.STREAM_SECONDS for _, retry in answers[3:])
