"""A match's live part sent inside its stream's event: made once per revision and language in
a worker, for every phone that follows the match there.

Told that its match moved, a page used to ask for its live part (``tournament:match_live``):
one request per phone and turn, each a 200. The stream now carries the live part itself, as
the public's page would fetch it: the same view answers a request made here (no one logged
in, the address as the site writes it), so the part is the public's kept copy of that
revision (``CachedPageMixin``), made once by one worker of the site for every worker. The
streams of one match in a worker wait on one making (:class:`LiveParts`). Where the public
may not read the match (a private tournament: its staff follow it), or the view answers
anything but a 200, the event carries the revision alone and the page fetches its live part
as before (``pages.js``).

The stream carries its table's clock the same way (:func:`clock_answer`): made by the view of
its ``clock.json``, sent when the stream opens and when the clock or the table's call changes,
so that the page's clock asks for nothing while its stream is open (``clock.js``).
"""

from __future__ import annotations

import asyncio
import json
import re
import time

from asgiref.sync import sync_to_async
from django.db import connection
from django.urls import reverse

from tournament.kit.bounded import BoundedMap
from tournament.kit.inner_requests import anonymous_answer
from tournament.matches.views.live_parts import public_live_part

#: Live parts a worker keeps, the oldest let go first (one a match at its last revision is
#: all the streams need: a few are kept for the streams still telling the one before).
KEPT = 512
#: Reads of the live part before the event says the revision alone, and the wait between
#: the first two (then longer each time): another worker may be making the new copy.
TRIES = 4
WAIT_SECONDS = 0.1
#: The revision a live part shows, in its stream's address (``_match_live.html``).
SHOWN_REVISION = re.compile(r'data-stream="[^"?]*\?revision=([0-9]+)"')


def live_part(*, slug: str, match_id: int, revision: int, language: str,
              host: dict[str, str]) -> str | None:
    """The public's live part of the match as ``tournament:match_live`` answers it now, in
    ``language``; None when the public may not read it, it is not a plain 200, or it still
    shows a revision older than ``revision`` after ``TRIES`` reads (another worker making
    the new copy, the older one served meanwhile). Run on a thread of its own, outside a
    request: its connection goes back at once."""
    try:
        for attempt in range(TRIES):
            part = public_live_part(slug=slug, match_id=match_id, language=language,
                                    host=host)
            if part is None:
                return None
            shown = SHOWN_REVISION.search(part)
            if shown is None:
                return None
            if int(shown.group(1)) >= revision:
                return part
            time.sleep(WAIT_SECONDS * (attempt + 1))  # the other worker's copy, soon made
        return None
    finally:
        connection.close()


def clock_answer(*, slug: str, session: int, table: int, language: str,
                 host: dict[str, str]) -> str | None:
    """The table's clock as its ``clock.json`` answers the public now (the session clock and
    the table's open call: ``tournament.room``), one line of JSON; None when it is not a plain
    200. Made by the view itself, as the live part is; run on a thread of its own, outside a
    request: its connection goes back at once."""
    path = reverse("tournament:table_clock_json",
                   kwargs={"slug": slug, "number": session, "table": table})
    try:
        content = anonymous_answer(path, host=host, language=language)
    finally:
        connection.close()
    if content is None:  # the page's clock asks clock.json itself, as without a stream
        return None
    answer = json.loads(content)
    answer["url"] = path  # the clock it is: the page's clock of this address takes it
    return json.dumps(answer, separators=(",", ":"))


class LiveParts:
    """The live parts of one event loop's streams: each (match, revision, language) made once,
    every stream that asks meanwhile waiting for that one making."""

    def __init__(self) -> None:
        self.parts: BoundedMap[tuple[int, int, str], asyncio.Future[str | None]] = BoundedMap(
            entries=KEPT)

    async def get(self, *, slug: str, match_id: int, revision: int, language: str,
                  host: dict[str, str]) -> str | None:
        key = (match_id, revision, language)
        made = self.parts.get(key)
        if made is None:
            made = asyncio.ensure_future(sync_to_async(live_part, thread_sensitive=False)(
                slug=slug, match_id=match_id, revision=revision, language=language,
                host=host))
            self.parts.put(key, made)
        return await asyncio.shield(made)


def event_data(part: str) -> str:
    """``part`` as the data of an event: each of its lines a ``data:`` line."""
    return "".join(f"data: {line}\n" for line in part.strip().replace("\r\n", "\n").split("\n"))
