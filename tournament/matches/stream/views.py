"""A match's stream: the phones following a match told when it moved (server-sent events).

The public's match page opens ``tournament:match_stream`` (``pages.js``); each time the match
is at a new revision, an event brings its live part (the one ``tournament:match_live``
answers, made once per revision and language in a worker: ``live.py``), which the page puts
in place, in place of asking for it every 15 seconds: a phone following a match costs the
server no request while it follows, and sees a turn within a second or two of its save.
Where the live part is not the public's to read (a private tournament), the event carries
the revision alone and the page takes its live part. Each event is named by the revision
(``id:``, so that a stream taken up again after a drop starts from the last one told:
``Last-Event-ID``); a comment every ``HEARTBEAT`` seconds
keeps the connection known alive. The table's clock comes in an event of its own (``clock``:
what its ``clock.json`` answers, made by that view), when the stream opens and each time the
session's clock or the table's call for a referee changes (``watch.py`` reads them with the
revisions), so that the page's clock, counting down by itself, asks for nothing while its
stream is open (``clock.js``). A stream ends after ``STREAM_SECONDS`` (the browser opens it
again) and once the match is confirmed (then the page follows it no more). The door
(``door.py``) bounds the streams a worker keeps open by client address, by match and in all:
beyond, a 429 or a 503 with ``Retry-After``, and the page polls until it asks again.

A stream waits in the event loop of an ASGI server (``tournament/serving.py``, the README's
command, or ``tournament/asgi.py``), at the cost of a coroutine and of the idle thread Django keeps for the request's
middleware. A WSGI server would give each one a thread of its few: there (``manage.py
runserver``, the tests' servers) it answers 204 No Content, which tells the browser not to open
it again, and the page polls its live part as it did.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.utils import translation
from django.views import View

from tournament.core.permissions import can_view
from tournament.kit.digits import ascii_number
from tournament.kit.inner_requests import host_of
from tournament.matches.stream.door import Admission, address_claim, door
from tournament.matches.stream.live import clock_answer, event_data
from tournament.matches.stream.watch import (
    INTERVAL,
    RevisionWatch,
    match_revisions,
    revision_watch,
)
from tournament.matches.views.base import addressed_match
from tournament.models import Match

#: Seconds between two comments on a stream with nothing to tell.
HEARTBEAT = 20
#: Seconds a stream lasts before the browser opens it again.
STREAM_SECONDS = 600

def followed_match(request, *, slug: str, match_id: int) -> Match:
    """The match of the address, if the user may see its tournament (else a 404, as its page).

    The connection goes back (to the pool) at once: the request lasts as long as its stream,
    and would hold it all along."""
    try:
        match = addressed_match(slug=slug, match_id=match_id)
        if not can_view(request.user, match.table.session.tournament):
            raise Http404
        return match
    finally:
        connection.close()


def shown_revision(request, current: int) -> int:
    """The revision the page shows: the last event's (the browser's ``Last-Event-ID`` when it
    opens the stream again), else the page's own (``?revision=``), else the current one."""
    for given in (request.headers.get("Last-Event-ID"), request.GET.get("revision")):
        if given is not None and (revision := ascii_number(given, digits=9)) is not None:
            return revision
    return current


def event(revision: int, part: str | None = None) -> bytes:
    """The event that the match is at ``revision``: its data the live part (``live.py``), or
    the revision alone (the page then fetches its live part)."""
    data = f"data: {revision}\n" if part is None else event_data(part)
    return f"id: {revision}\nevent: moved\n{data}\n".encode()


def clock_event(answer: str) -> bytes:
    """The event of the table's clock: its ``clock.json`` answer (``live.clock_answer``). It
    carries no id: the id a browser sends back when it opens the stream again is the
    revision its page shows."""
    return f"event: clock\n{event_data(answer)}\n".encode()


@dataclass(frozen=True)
class Following:
    """What a stream tells of: the match, the revision its page shows, the language and the
    address its live parts are made in."""

    match: Match
    slug: str
    shown: int
    language: str
    host: dict[str, str]


async def match_events(following: Following, admission: Admission) -> AsyncIterator[bytes]:
    """What the stream says: an event each time the match is at a new revision."""
    try:
        async with aclosing(_events(following)) as messages:
            async for message in messages:
                yield message
    finally:  # the stream ended, or was dropped (the client gone: the response let go)
        admission.release()


async def _told(following: Following, revision: int, watch: RevisionWatch) -> bytes:
    part = await watch.live_parts.get(
        slug=following.slug, match_id=following.match.pk, revision=revision,
        language=following.language, host=following.host)
    if part is None:
        # the pages fetch: the streams of the matches that moved in one interval are woken
        # together; told spread over the next interval, their requests do not come at once
        await asyncio.sleep(random.uniform(0, INTERVAL))
    return event(revision, part)


async def _clock(following: Following) -> tuple[str | None, bytes | None]:
    """What the match's clock says now (``watch.clock_said``, read first) and its event
    (None when its answer could not be made: the page's clock then asks for it itself)."""
    said = (await sync_to_async(match_revisions, thread_sensitive=False)(
        [following.match.pk])).get(following.match.pk)
    table = following.match.table
    answer = await sync_to_async(clock_answer, thread_sensitive=False)(
        slug=following.slug, session=table.session.number, table=table.number,
        language=following.language, host=following.host)
    if said is None or answer is None:
        return None, None
    return said[2], clock_event(answer)


async def _events(following: Following) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    ends = loop.time() + STREAM_SECONDS
    match, shown = following.match, following.shown
    watch = revision_watch()
    yield b"retry: 5000\n\n"  # the browser's wait before opening a dropped stream again
    # the table's clock, then again each time it changes: the page's clock asks for nothing
    clock, told_clock = await _clock(following)
    if told_clock is not None:
        yield told_clock
    if match.revision != shown:
        shown = match.revision
        yield await _told(following, shown, watch)
    while (left := ends - loop.time()) > 0:
        moved = await watch.moved(match.pk, shown, timeout=min(HEARTBEAT, left), clock=clock)
        if moved is None:
            yield b": still here\n\n"
            continue
        revision, status, said = moved
        if not status:  # the match is gone
            return
        if clock is not None and said != clock:
            clock, told_clock = await _clock(following)
            if told_clock is not None:
                yield told_clock
        if revision != shown:
            shown = revision
            yield await _told(following, shown, watch)
        if status == Match.Status.CONFIRMED:
            return


class MatchStreamView(View):
    """``GET``: the match's stream (``text/event-stream``); 204 where streams are not served
    (a WSGI server) or no longer needed (the match is confirmed); 429 or 503 with
    ``Retry-After`` beyond the door's bounds (``door.py``), before any query but the
    address's count in the shared cache."""

    async def get(self, request, *args, slug: str, match_id: int, **kwargs):
        if not isinstance(request, ASGIRequest):
            return HttpResponse(status=204)
        admission = door.admit(address=request.META.get("REMOTE_ADDR") or "",
                               match_id=match_id, lasts=STREAM_SECONDS)
        if isinstance(admission, Admission):
            # the address's budget across the site's workers and servers (the shared cache)
            refusal = await sync_to_async(address_claim, thread_sensitive=False)(
                admission, lasts=STREAM_SECONDS)
        else:
            refusal = admission
        if refusal is not None:
            refused = HttpResponse(status=refusal.status)
            refused["Retry-After"] = str(refusal.retry_after)
            refused["Cache-Control"] = "no-store"
            return refused
        try:
            match = await sync_to_async(followed_match)(request, slug=slug, match_id=match_id)
        except BaseException:
            admission.release()
            raise
        if match.status == Match.Status.CONFIRMED:
            admission.release()
            return HttpResponse(status=204)
        following = Following(
            match=match, slug=slug, shown=shown_revision(request, match.revision),
            language=translation.get_language(),
            host=host_of(request.META))
        response = StreamingHttpResponse(match_events(following, admission),
                                         content_type="text/event-stream")
        response["Cache-Control"] = "no-store"
        # each event goes out as it is made: neither compressed (GZipMiddleware would pack
        # each alone) nor held by a proxy (nginx)
        response["Content-Encoding"] = "identity"
        response["X-Accel-Buffering"] = "no"
        return response
