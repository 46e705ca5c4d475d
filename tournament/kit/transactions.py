"""A write that PostgreSQL refuses because it deadlocked is done again, whole.

The writes take their locks in one order (a merge: the player records by id, with locks that
let the rating changes' foreign keys through, then the tournaments by id, then the ratings'
turn), so a deadlock should not happen; if one still does (PostgreSQL then aborts one of the
two transactions), :func:`retried_on_deadlock` runs the aborted one again from its start,
rather than answering a 500. It retries only a transaction of its own: inside a caller's
transaction, the error goes up to the caller.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.db import OperationalError, connection

T = TypeVar("T")

#: How many times a deadlocked write is run, at most.
ATTEMPTS = 4
#: The pause before the next attempt, times the attempt's number.
PAUSE_SECONDS = 0.05
#: PostgreSQL's code for a deadlock.
DEADLOCK = "40P01"


def is_deadlock(error: OperationalError) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == DEADLOCK


def retried_on_deadlock(write: Callable[[], T]) -> T:
    """``write()`` (which opens its own transaction), run again when the database aborted it
    for a deadlock, up to ``ATTEMPTS`` times."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return write()
        except OperationalError as error:
            if not is_deadlock(error) or attempt == ATTEMPTS or connection.in_atomic_block:
                raise
            time.sleep(PAUSE_SECONDS * attempt)
    raise AssertionError("unreachable")
