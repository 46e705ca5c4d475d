"""The printing tests start with an empty cache: a PDF kept by an earlier test (the cache
outlives a test's database) must not stand in for one of these."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()
