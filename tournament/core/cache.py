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

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import timezone

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


def etag(key: str, version: int) -> str:
    """The ETag of the copy under ``key`` at data ``version`` (an HTTP header value)."""
    return f'"{hashlib.sha256(f"{key}@{version}".encode()).hexdigest()[:24]}"'


def cached_copy(
    *,
    key: str,
    version: int,
    make: Callable[[], Any],
    digest: Callable[[], str] | None = None,
    wait_seconds: float = 5.0,
) -> CachedCopy:
    """The copy under ``key`` for data ``version``: kept, relabelled, or made (once at a time).

    ``make()`` returns the content; ``digest()`` (optional, cheaper than ``make``) a digest of
    everything the content shows. ``version`` must be read before the data ``make`` reads, so
    that a copy is never labelled newer than what it shows.
    """
    entry: CachedCopy | None = cache.get(key)
    if entry is not None and entry.version >= version:
        return entry
    content_digest = digest() if digest is not None else ""
    if entry is not None and content_digest and entry.digest == content_digest:
        relabelled = replace(entry, version=version)
        cache.set(key, relabelled, CACHE_SECONDS)
        return relabelled
    lock = f"{key}:making"
    deadline = time.monotonic() + wait_seconds
    while True:
        if cache.add(lock, version, MAKING_SECONDS):
            try:
                made = CachedCopy(make(), version, timezone.now(), content_digest)
                latest: CachedCopy | None = cache.get(key)
                if latest is None or latest.version <= version:
                    cache.set(key, made, CACHE_SECONDS)
                return made
            finally:
                cache.delete(lock)
        if entry is not None:
            return entry  # being made again by another worker: the one before, with its time
        if time.monotonic() >= deadline:
            # The worker making it is too slow (or was killed): make it here, not kept.
            return CachedCopy(make(), version, timezone.now(), content_digest)
        time.sleep(WAIT_STEP_SECONDS)
        entry = cache.get(key)
        if entry is not None and entry.version >= version:
            return entry
