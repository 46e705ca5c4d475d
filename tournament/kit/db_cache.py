"""The database cache (``settings.CACHES``), each write in one statement.

Django's ``DatabaseCache`` writes an entry in three statements and a transaction: it counts
the table's rows (to cull it when it holds more than ``MAX_ENTRIES``), reads the entry, then
updates or inserts it. A page made for the phones writes twice (the "one worker makes it" lock,
then the copy: ``tournament.kit.cache``), so under a room every page made paid for two counts
of the whole table. Here ``set`` and ``add`` are one ``INSERT ... ON CONFLICT`` each, which
PostgreSQL and SQLite both run atomically (``add`` replaces only an entry already expired, as
Django's does, and says whether it wrote), and the table is counted, and culled as Django
culls it, once every :data:`CULL_EVERY` writes of a process instead of at each: the table may
hold up to that many entries per process above ``MAX_ENTRIES`` between two culls.

Reads, deletions, ``touch`` and ``clear`` are Django's. Another database falls back on
Django's own writes.
"""

from __future__ import annotations

import base64
import itertools
import pickle
from contextlib import nullcontext
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

#: A process counts the table (and culls it if it must) once every this many writes.
CULL_EVERY = 50

#: The databases whose ``INSERT ... ON CONFLICT ... DO UPDATE ... WHERE ... RETURNING`` the
#: one-statement writes use.
UPSERT_VENDORS = {"postgresql", "sqlite"}


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table, params):
        super().__init__(table, params)
        self._writes = itertools.count(1)

    def _base_set(self, mode, key, value, timeout=DEFAULT_TIMEOUT):
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if mode not in ("set", "add") or connection.vendor not in UPSERT_VENDORS:
            return super()._base_set(mode, key, value, timeout)
        timeout = self.get_backend_timeout(timeout)
        now = tz_now().replace(microsecond=0)
        # the expiry as Django's own writes store it
        expires = (datetime.max if timeout is None else datetime.fromtimestamp(
            timeout, tz=UTC if settings.USE_TZ else None)).replace(microsecond=0)
        quote = connection.ops.quote_name
        table = quote(self._table)
        # an entry is replaced always by a set; by an add only when it has expired
        replace_when = "" if mode == "set" else f" WHERE {table}.{quote('expires')} < %s"
        sql = (
            f"INSERT INTO {table} ({quote('cache_key')}, {quote('value')}, {quote('expires')}) "
            f"VALUES (%s, %s, %s) ON CONFLICT ({quote('cache_key')}) DO UPDATE SET "
            f"{quote('value')} = excluded.{quote('value')}, "
            f"{quote('expires')} = excluded.{quote('expires')}{replace_when} "
            f"RETURNING {quote('cache_key')}"
        )
        value = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        adapt = connection.ops.adapt_datetimefield_value
        params = [key, value, adapt(expires)] + ([] if mode == "set" else [adapt(now)])
        with connection.cursor() as cursor:
            if next(self._writes) % CULL_EVERY == 0:
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                entries = cursor.fetchone()[0]
                if entries > self._max_entries:
                    self._cull(db, cursor, now, entries)
            try:
                # inside a transaction, a failed write must not break it: a savepoint
                with transaction.atomic(using=db) if connection.in_atomic_block else nullcontext():
                    cursor.execute(sql, params)
                    return cursor.fetchone() is not None
            except DatabaseError:
                # as Django's: a write that fails (a race, a full disk) is a cache miss
                return False
