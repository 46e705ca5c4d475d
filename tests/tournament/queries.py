"""Counting a page's own queries: those of the kept pages' cache (its table, the savepoints
around its writes) set aside, since a test's first request makes and keeps the page
(``tournament/kit/cache.py``), and a kept page is answered with one read of the tournament and one
of the cache."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

CACHE_TABLE = settings.CACHES["default"]["LOCATION"]


def own_queries(captured: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"] for query in captured.captured_queries
        if CACHE_TABLE not in query["sql"] and "SAVEPOINT" not in query["sql"].upper()
    ]


@contextmanager
def page_queries(expected: int, *, at_most: bool = False):
    """Assert the page's own queries: ``expected`` of them (or at most that many)."""
    with CaptureQueriesContext(connection) as captured:
        yield captured
    queries = own_queries(captured)
    count = len(queries)
    assert count <= expected if at_most else count == expected, "\n".join(queries)
