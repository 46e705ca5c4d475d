"""The database cache's one-statement writes (``tournament/kit/db_cache.py``) keep Django's
meaning: a set replaces, an add writes only where nothing live is kept and says whether it
wrote (the "one worker makes it" lock of ``tournament.kit.cache`` rests on it, under
workers racing), an entry expires, the table is culled. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache, caches
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from tournament.kit import db_cache
from tournament.kit.db_cache import DatabaseCache

pytestmark = pytest.mark.django_db


def stored_rows() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM tournament_cache")
        return cursor.fetchone()[0]


def test_a_write_is_one_statement(monkeypatch):
    assert isinstance(caches["default"], DatabaseCache)
    monkeypatch.setattr(db_cache, "CULL_EVERY", 1000)
    with CaptureQueriesContext(connection) as queries:
        cache.set("page", "made", 60)
        cache.add("page:making", 1, 60)
        cache.add("page:making", 2, 60)
    # (the savepoints are the test's transaction: a server's request writes in autocommit)
    statements = [query["sql"] for query in queries.captured_queries
                  if "SAVEPOINT" not in query["sql"]]
    assert len(statements) == 3 and all(sql.startswith("INSERT") for sql in statements)


def test_a_set_replaces_what_was_kept():
    cache.set("page", {"made": 1}, 60)
    cache.set("page", {"made": 2}, 60)
    assert cache.get("page") == {"made": 2}
    cache.set("forever", "kept", None)
    assert cache.get("forever") == "kept"


def test_an_add_writes_only_where_nothing_live_is_kept():
    assert cache.add("lock", "first", 60) is True
    assert cache.add("lock", "second", 60) is False
    assert cache.get("lock") == "first"
    cache.delete("lock")
    assert cache.add("lock", "third", 60) is True
    assert cache.get("lock") == "third"


def test_an_add_replaces_an_expired_entry_and_an_expired_entry_is_not_read():
    cache.set("lock", "left by a killed worker", 1)
    time.sleep(2.1)  # the expiry is stored to the second
    assert cache.get("lock") is None
    cache.set("old", "expired", 1)
    time.sleep(2.1)
    assert cache.add("old", "new", 60) is True
    assert cache.get("old") == "new"


def test_a_timeout_of_zero_keeps_nothing():
    cache.set("page", "gone at once", 0)
    assert cache.get("page") is None
    assert cache.add("page", "written", 60) is True


def test_a_write_inside_a_transaction_is_rolled_back_with_it():
    cache.set("page", "before", 60)
    with pytest.raises(RuntimeError), transaction.atomic():
        cache.set("page", "during", 60)
        assert cache.get("page") == "during"
        raise RuntimeError
    assert cache.get("page") == "before"


def test_the_table_is_culled_every_so_many_writes(monkeypatch):
    monkeypatch.setattr(db_cache, "CULL_EVERY", 5)
    small = DatabaseCache("tournament_cache", {"OPTIONS": {"MAX_ENTRIES": 10,
                                                           "CULL_FREQUENCY": 2}})
    for number in range(40):
        small.set(f"page-{number}", number, 60)
        # at most CULL_EVERY writes above MAX_ENTRIES, then culled
        assert stored_rows() <= 10 + 5
    assert small.get("page-39") == 39  # the newest kept


@pytest.mark.django_db(transaction=True)
def test_workers_racing_for_one_lock_one_takes_it():
    """Eight threads (each its own connection) add the same lock at once: one wins."""
    won: list[str] = []
    start = threading.Barrier(8)

    def worker(name: str) -> None:
        try:
            start.wait()
            if cache.add("page:making", name, 60):
                won.append(name)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(f"w{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    assert cache.get("page:making") == won[0]
