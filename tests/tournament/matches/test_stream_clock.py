"""The table's clock inside the match's stream: sent when the stream opens, and again within
a second or two of the head referee pausing it, adding minutes or a table calling a referee,
so that the page's clock (``clock.js``) asks for nothing while its stream is open. The
event says what the table's ``clock.json`` says."""

from __future__ import annotations

import asyncio
import datetime
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import in_play
from tests.tournament.matches.test_stream import (  # noqa: F401 (the autouse fixture)
    address,
    fields,
    no_stream_left,
    on_own_thread,
    read_events,
    run,
)
from tournament.models import RefereeCall, Session
from tournament.room import services as room

pytestmark = pytest.mark.django_db(transaction=True)  # the watch reads on threads of its own


@pytest.fixture
def playing(tournament, referee):
    """A match with two turns saved."""
    return in_play(tournament, referee)


def clock_json(match) -> tuple[str, dict]:
    """The table's clock.json address and its answer, as the page's clock asks it."""
    table = match.table
    url = reverse("tournament:table_clock_json", kwargs={
        "slug": "spring-open", "number": table.session.number, "table": table.number})
    response = on_own_thread(lambda: Client().get(url))
    assert response.status_code == 200
    return url, json.loads(response.content)


def clock_events(messages: list[str]) -> list[dict]:
    return [json.loads(fields(message)["data"]) for message in messages
            if fields(message).get("event") == "clock"]


@pytest.mark.slow
def test_the_stream_carries_the_clock_and_each_change_of_it(playing, referee):
    match, _turn = playing
    session = Session.objects.get(pk=match.table.session_id)
    room.clock_set(session=session, minutes=60, user=referee)
    room.clock_start(session=session, user=referee)
    # it has run ten minutes: paused, it is "paused" (a clock paused at 0 s is "ready")
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=10))
    url, answer = clock_json(match)

    async def scenario():
        response = await AsyncClient().get(address(match), {"revision": match.revision})
        assert response.status_code == 200
        reading = asyncio.ensure_future(read_events(response, count=3, seconds=8, clocks=True))
        await asyncio.sleep(0.5)
        await sync_to_async(room.clock_pause)(session=session, user=referee)
        return await reading

    messages = run(scenario())
    assert messages[0] == "retry: 5000"
    opened, paused = clock_events(messages)
    # the clock as clock.json says it, and the address it stands for
    assert opened["url"] == url and opened["version"] == answer["version"]
    assert opened["clock"]["state"] == "running" and opened["call"] is None
    assert paused["clock"]["state"] == "paused" and paused["version"] != opened["version"]
    assert paused["version"] == clock_json(match)[1]["version"]
    assert "id" not in fields(messages[1])  # the revision told stays the page's


@pytest.mark.slow
def test_a_call_for_a_referee_reaches_the_stream_and_nothing_else_wakes_it(playing, referee):
    match, _turn = playing

    async def scenario():
        response = await AsyncClient().get(address(match), {"revision": match.revision})
        reading = asyncio.ensure_future(read_events(response, count=3, seconds=8, clocks=True))
        await asyncio.sleep(0.5)
        await sync_to_async(RefereeCall.objects.create)(
            session_id=match.table.session_id, table=match.table, reason=RefereeCall.Reason.QUESTION)
        return await reading

    messages = run(scenario())
    opened, called = clock_events(messages)
    assert opened["clock"]["state"] == "none" and opened["call"] is None
    assert called["call"] is not None and called["call"]["times"] == 1
    assert called["version"] == clock_json(match)[1]["version"]
