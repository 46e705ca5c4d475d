"""Pages and documents kept once made: shared by every worker, made once per change.

A reader keeps what it made under a key that names *what* it is (a page of a tournament, a
PDF) and stores with it the tournament's data version it was made at
(:mod:`tournament.core.freshness`: every write raises it in its own transaction). A reader whose
tournament is at that version (or an older one) takes the kept copy; otherwise the copy is made
again, by one worker at a time:

- the first to see the new version takes a lock in the cache (``cache.add``, atomic in every
  shared backend: the database cache inserts a row under a primary key) and makes it;
- the others answer meanwhile with the copy made before, which says when it was made
  (``made_at``: the responses' ``Last-Modified``, a PDF's own "printed" line); with no copy
  at all, they wait for the one being made (``wait_seconds``), then make it themselves.

So a page polled by every phone of the room is computed once per change, whatever the number
of phones, and a document that takes seconds never holds more than one worker. The cache is
Django's ``default`` one: the database cache (``settings.CACHES``), which every worker and
every app server of the same database share.

A copy may also carry a ``digest`` of its content: when the version moved but the content did
not (most writes do not change the standings), the copy is relabelled instead of made again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.crypto import salted_hmac

#: How long a copy is kept when nobody changes it (a new version replaces it at once).
CACHE_SECONDS = 24 * 3600
#: A lock left by a worker killed while making a copy frees itself after this long.
MAKING_SECONDS = 120
#: How often a reader waiting for a first copy looks for it.
WAIT_STEP_SECONDS = 0.05


@dataclass(frozen=True)
class CachedCopy:
    """A copy: its content, the data version it shows (at least), when it was made."""

    content: Any
    version: int
    made_at: datetime
    digest: str = ""


#: The salt of the ETags' keyed hash (with ``settings.SECRET_KEY``).
ETAG_SALT = "tournament.kit.cache.etag"


def etag(key: str, version: int | str) -> str:
    """The ETag of the copy under ``key`` at data ``version`` (an HTTP header value).

    A keyed hash (HMAC-SHA256 under a key derived from ``settings.SECRET_KEY``): the key and
    the version are easy to guess (a tournament's id, a small counter), so a plain hash of
    them could be searched back to the version, and the version says how much was written.
    Without the secret, the ETag says nothing but "same" or "different"."""
    digest = salted_hmac(ETAG_SALT, f"{key}@{version}", algorithm="sha256").hexdigest()
    return f'"{digest[:32]}"'


def conditional_answer(request, tag: str):
    """The 304 to a reader whose ``If-None-Match`` names ``tag`` (Django's conditional
    answer), else None. ``If-None-Match: *`` ("any copy you have") is never answered from a
    version: the page it asks may not exist (a session number made up), and the view's own
    answer, a 404 among them, must be the one given."""
    if request.META.get("HTTP_IF_NONE_MATCH", "").strip() == "*":
        return None
    return get_conditional_response(request, etag=tag)


def cached_copy(
    *,
    key: str,
    version: int | None,
    make: Callable[[], Any],
    digest: Callable[[], str] | None = None,
    wait_seconds: float = 5.0,
) -> CachedCopy:
    """The copy under ``key`` for data ``version``: kept, relabelled, or made (once at a time).

    ``make()`` returns the content; ``digest()`` (optional, cheaper than ``make``) a digest of
    everything the content shows. ``version`` must be read before the data ``make`` reads, so
    that a copy is never labelled newer than what it shows.

    ``version`` None (a document across tournaments, which no one data version follows: the
    ratings, a league, a career): the copy is kept while ``digest()``, required then, is the
    same, and made again, once at a time, when it differs.
    """
    entry: CachedCopy | None = cache.get(key)
    if version is None:
        content_digest = digest()
    elif entry is not None and entry.version >= version:
        return entry
    else:
        content_digest = digest() if digest is not None else ""

    def current(copy: CachedCopy | None) -> bool:
        if copy is None:
            return False
        if version is None:
            return copy.digest == content_digest
        return copy.version >= version

    if current(entry):
        return entry
    if version is not None and entry is not None and content_digest \
            and entry.digest == content_digest:
        relabelled = replace(entry, version=version)
        cache.set(key, relabelled, CACHE_SECONDS)
        return relabelled
    label = 0 if version is None else version
    lock = f"{key}:making"
    deadline = time.monotonic() + wait_seconds
    while True:
        if cache.add(lock, label, MAKING_SECONDS):
            try:
                latest: CachedCopy | None = cache.get(key)
                if current(latest):  # made by the worker that held the lock just before
                    return latest
                made = CachedCopy(make(), label, timezone.now(), content_digest)
                latest = cache.get(key)
                if version is None or latest is None or latest.version <= version:
                    cache.set(key, made, CACHE_SECONDS)
                return made
            finally:
                cache.delete(lock)
        if entry is not None:
            return entry  # being made again by another worker: the one before, with its time
        if time.monotonic() >= deadline:
            # The worker making it is too slow (or was killed): make it here, not kept.
            return CachedCopy(make(), label, timezone.now(), content_digest)
        time.sleep(WAIT_STEP_SECONDS)
        entry = cache.get(key)
        if current(entry):
            return entry
