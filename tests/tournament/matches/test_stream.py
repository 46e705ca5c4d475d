"""A match's stream (``tournament:match_stream``), as the ASGI server serves it: an event with
the new revision within a second of a write, from the revision the page shows or the last one
told; nothing for a match confirmed, another tournament's address or a private tournament; a
204 where the server is WSGI (the page then polls)."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse

from tests.factories import add, board_turn, fresh, in_play
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


@pytest.fixture
def playing(tournament, referee):
    """A match with two turns saved, and the next turn of its round."""
    match, turns = in_play(tournament, referee)
    return match, turns[2]


def address(match: Match, slug: str = "spring-open") -> str:
    return reverse("tournament:match_stream", kwargs={"slug": slug, "match_id": match.pk})


async def read_events(response, *, count: int, seconds: float) -> list[str]:
    """The stream's first ``count`` messages (events, comments) read within ``seconds``."""
    messages, data = [], b""
    chunks = aiter(response.streaming_content)
    async with asyncio.timeout(seconds):
        while len(messages) < count:
            data += await anext(chunks)
            *done, data = data.split(b"\n\n")
            messages += [message.decode() for message in done]
    await chunks.aclose()
    return messages


def test_a_turn_saved_is_told_within_a_second_with_its_revision(playing, referee):
    match, turn = playing

    async def scenario():
        response = await AsyncClient().get(address(match), {"revision": match.revision})
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        reading = asyncio.ensure_future(read_events(response, count=2, seconds=5))
        await asyncio.sleep(0.3)  # the stream waits: nothing moved
        await sync_to_async(add)(match, referee, board_turn(turn))
        return await reading

    retry, moved = run(scenario())
    assert retry == "retry: 5000"
    revision = fresh(match).revision
    assert revision > match.revision
    assert moved == f"id: {revision}\nevent: moved\ndata: {revision}"


def test_a_page_behind_the_match_is_told_at_once(playing):
    """A page made at an older revision (or a stream dropped since the last event told):
    the stream says the match's revision first thing, with nothing written meanwhile."""
    match, _ = playing

    async def scenario(**headers):
        response = await AsyncClient().get(address(match), {"revision": 1}, headers=headers)
        return await read_events(response, count=2, seconds=3)

    assert run(scenario())[1] == f"id: {match.revision}\nevent: moved\ndata: {match.revision}"
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


def test_a_worker_with_its_streams_all_open_answers_204(playing, monkeypatch):
    """A client opening streams by the thousand gets no more than the worker keeps; the pages
    it answers 204 poll as without a stream."""
    match, _ = playing
    monkeypatch.setattr(stream, "MAX_STREAMS", 1)

    async def scenario():
        first = await AsyncClient().get(address(match))
        assert first.status_code == 200
        opened = aiter(first.streaming_content)
        assert await anext(opened) == b"retry: 5000\n\n"  # open: counted
        second = (await AsyncClient().get(address(match))).status_code
        del first, opened  # the client gone: the server lets its response go
        for _ in range(100):  # the stream's end, run by the event loop once it is collected
            if stream._open_streams == 0:
                break
            gc.collect()
            await asyncio.sleep(0.01)
        third = await AsyncClient().get(address(match))
        return second, third.status_code

    assert run(scenario()) == (204, 200)


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
