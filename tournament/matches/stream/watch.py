"""Which matches moved: one query a second for all the phones following a match in a process.

A phone on a match's public page keeps a stream open (``stream/views.py``) and is told the
match's new revision as soon as a write raised it, instead of asking for the match's live part
every 15 seconds whether it changed or not. The streams of a process wait on one
:class:`RevisionWatch` (per event loop): while any waits, it reads the revisions of the matches
waited on, in one query, every ``INTERVAL`` seconds, and wakes those whose match is at another
revision than the one they show. Every write raises its match's revision in its transaction
(``tournament/matches/services``), so a write of any worker, or of another app server on the
same database, is seen within the interval, once committed; nothing else has to run.

The same query reads what each match's clock says (:func:`clock_said`: its session's clock and
its table's open call for a referee): a stream waiting with the clock it told is woken when
that changed too, and tells the new clock (``views.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref
from collections import defaultdict

from asgiref.sync import sync_to_async
from django.db import DatabaseError, connection
from django.db.models import OuterRef, Subquery

from tournament.matches.stream.live import LiveParts
from tournament.models import Match, RefereeCall

logger = logging.getLogger(__name__)

#: Seconds between two reads of the revisions waited on.
INTERVAL = 1.0


def clock_said(*fields: object) -> str:
    """A short name of what a match's clock says but the seconds left: its session's clock
    fields and its table's open call (the figures ``clock.json``'s version is made of)."""
    return hashlib.sha256(repr(fields).encode()).hexdigest()[:16]


def match_revisions(match_ids: list[int]) -> dict[int, tuple[int, str, str]]:
    """The revision and status of each match of ``match_ids`` that still exists, and what
    its clock says (:func:`clock_said`), in one query.

    Run on a thread of its own, outside a request: the connection goes back at once (to the
    pool under ASGI), rather than waiting for a request's end that never comes."""
    call = (RefereeCall.objects.filter(table=OuterRef("table"), answered_at__isnull=True)
            .order_by("called_at", "id"))
    try:
        rows = (Match.objects.filter(pk__in=match_ids)
                .annotate(call_id=Subquery(call.values("pk")[:1]),
                          call_times=Subquery(call.values("times")[:1]),
                          call_reason=Subquery(call.values("reason")[:1]))
                .values_list("pk", "revision", "status", "table__session__clock_seconds",
                             "table__session__clock_started_at", "table__session__clock_elapsed",
                             "call_id", "call_times", "call_reason"))
        return {pk: (revision, status, clock_said(*clock)) for pk, revision, status, *clock in rows}
    finally:
        connection.close()


class RevisionWatch:
    """The streams of one event loop waiting for their match to move."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.waiting: dict[int, set[tuple[int, str | None, asyncio.Future]]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        #: The live parts its streams send, each made once (``live.py``).
        self.live_parts = LiveParts()

    async def moved(self, match_id: int, revision: int, *, timeout: float,
                    clock: str | None = None) -> tuple[int, str, str] | None:
        """The match's revision, status and clock (:func:`clock_said`) once it is at another
        revision than ``revision`` or, given ``clock``, its clock says another thing (or gone:
        ``(0, "", "")``); None after ``timeout`` seconds without a change."""
        loop = asyncio.get_running_loop()
        entry = (revision, clock, loop.create_future())
        self.waiting[match_id].add(entry)
        if self.task is None or self.task.done():
            self.task = loop.create_task(self.run())
        try:
            return await asyncio.wait_for(entry[2], timeout)
        except TimeoutError:
            return None
        finally:
            entries = self.waiting.get(match_id)
            if entries is not None:
                entries.discard(entry)
                if not entries:
                    del self.waiting[match_id]

    async def run(self) -> None:
        while self.waiting:
            try:
                revisions = await sync_to_async(match_revisions, thread_sensitive=False)(
                    list(self.waiting))
            except DatabaseError:  # the database away for a moment: the streams wait, read again
                logger.warning("The matches' revisions could not be read", exc_info=True)
                revisions = None
            if revisions is not None:
                for match_id, entries in list(self.waiting.items()):
                    now = revisions.get(match_id, (0, "", ""))
                    for revision, clock, future in list(entries):
                        if ((now[0] != revision or (clock is not None and now[2] != clock))
                                and not future.done()):
                            future.set_result(now)
            await asyncio.sleep(self.interval)


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RevisionWatch] = (
    weakref.WeakKeyDictionary())


def revision_watch() -> RevisionWatch:
    """The watch of the running event loop (a worker has one loop; a test may make several)."""
    loop = asyncio.get_running_loop()
    watch = _watches.get(loop)
    if watch is None:
        watch = _watches[loop] = RevisionWatch()
    return watch
