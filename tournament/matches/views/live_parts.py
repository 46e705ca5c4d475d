"""A match's live part (the public's copy of ``tournament:match_live``) made by the app
itself: for a match's stream, which carries it in its events (``stream/live.py``), and ahead
of the streams, right after a write to the match (:class:`LivePartsAhead`); after a write that
changed its settled rounds, the public's whole match too, which every page following it
then takes again."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection
from django.urls import reverse

from tournament.kit.inner_requests import anonymous_answer, host_of
from tournament.matches.services import WriteResult

#: Live parts waiting to be made ahead in a worker; beyond, a write leaves its own to the
#: streams (each makes it on its first event, as without ``LivePartsAhead``).
AHEAD_WAITING = 32


def _public_answer(name: str, *, slug: str, match_id: int, language: str,
                   host: dict[str, str]) -> str | None:
    """The match's address ``name`` as htmx asks it for a phone of the public now, in
    ``language``: its kept copy, made if it must be (``CachedPageMixin``); None when the
    answer is not a plain 200 (a private tournament's match, a match gone)."""
    path = reverse(f"tournament:{name}", kwargs={"slug": slug, "match_id": match_id})
    answer = anonymous_answer(path, host=host, language=language, htmx=True)
    return None if answer is None else answer.decode()


def public_live_part(*, slug: str, match_id: int, language: str,
                     host: dict[str, str]) -> str | None:
    """The public's live part of the match (``tournament:match_live``), as
    :func:`_public_answer` gives it."""
    return _public_answer("match_live", slug=slug, match_id=match_id, language=language,
                          host=host)


def public_match_region(*, slug: str, match_id: int, language: str,
                        host: dict[str, str]) -> str | None:
    """The public's whole match (``tournament:match``) as a page following it takes it again
    when its settled rounds changed (``pages.js``: its ``#match`` region), as
    :func:`_public_answer` gives it."""
    return _public_answer("match", slug=slug, match_id=match_id, language=language, host=host)


class LivePartsAhead:
    """A write to a match of a public tournament, in a worker serving the matches' streams,
    makes the match's live part (the public's copy, in the site's language) right after its
    answer, on a thread of its own: from the replay the write kept in this process
    (``replay_cache``), where a stream, in whichever worker, would first replay the round in
    play from the database. The streams then find the copy made. A write that changed the
    match's settled rounds (a round's end, its confirmation, a closed round corrected:
    ``whole``) makes the public's whole match next, which each page following the match asks
    for once its stream brings the live part: they find it made.

    Off until :meth:`start` (the ASGI servings start it: ``tournament/serving.py``); at most
    ``AHEAD_WAITING`` waiting in a worker, the others left to the streams."""

    def __init__(self) -> None:
        self.pool: ThreadPoolExecutor | None = None
        self.waiting = 0
        self.lock = threading.Lock()

    def start(self) -> None:
        if self.pool is None:
            self.pool = ThreadPoolExecutor(1, thread_name_prefix="live-ahead")

    def stop(self) -> None:
        """Make what waits, then stop (the tests)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def after(self, response, *, request, written: object):
        """``response``, the answer to a write (``written``, what the service returned); once
        it is rendered (the write's replay kept), the match's live part made ahead, and the
        whole match when the write changed its settled rounds."""
        if self.pool is None or not isinstance(written, WriteResult):
            return response
        match, whole = written.replay.match, written.settled_changed
        if not match.table.session.tournament.is_public:
            return response

        def ahead(_response=None) -> None:
            with self.lock:
                if self.pool is None or self.waiting >= AHEAD_WAITING:
                    return
                self.waiting += 1
                self.pool.submit(self.make, slug=match.table.session.tournament.slug,
                                 match_id=match.pk, host=host_of(request.META), whole=whole)

        if hasattr(response, "add_post_render_callback") and not response.is_rendered:
            response.add_post_render_callback(ahead)
        else:
            ahead()
        return response

    def make(self, *, whole: bool = False, **arguments) -> None:
        try:
            public_live_part(language=settings.LANGUAGE_CODE, **arguments)
            if whole:
                public_match_region(language=settings.LANGUAGE_CODE, **arguments)
        finally:
            connection.close()
            with self.lock:
                self.waiting -= 1


live_parts_ahead = LivePartsAhead()
