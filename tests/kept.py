"""Every copy a page could be answered from, forgotten: so that a test's next request makes its
answer afresh, from the database."""

from __future__ import annotations

from django.core.cache import caches

from tournament.kit.cached_pages import forget_kept_pages
from tournament.matches.reading.replay_cache import forget_replays
from tournament.standings.selectors import forget_rankings


def forget_kept_copies() -> None:
    """The shared caches' copies, and the process's own: its pages in front of the shared
    cache, its replays, its players' rows of the standings."""
    for cache in caches.all():
        cache.clear()
    forget_kept_pages()
    forget_replays()
    forget_rankings()
