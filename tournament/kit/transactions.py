"""Writes run whole: a turn that a write takes without ever waiting for it while it holds a
row lock, and a write that PostgreSQL refuses because it deadlocked, done again from its start.

A *turn* is a PostgreSQL advisory lock held to the end of the transaction: the writes that
take it run one after the other. A deadlock needs a transaction that waits while it holds
something another waits for; so a turn is waited for only by a transaction that holds
nothing yet, as its first statement (:func:`retried_whole` with ``turns``). A write that finds
out only later that it needs a turn (it already holds row locks) takes it with
:func:`turn_take`, which never waits: the turn is free, or the transaction already holds it,
or :class:`TurnBusy` is raised, the write rolls back whole, and :func:`retried_whole` runs it
again with the turn taken first. A turn is therefore never part of a deadlock
(docs/development/architecture.md, "The lock order").

The row locks themselves are taken in one order (docs/development/architecture.md), so a deadlock should
not happen; if one still does (PostgreSQL then aborts one of the two transactions),
:func:`retried_whole` runs the aborted write again from its start, rather than answering a
500. Both retries belong to the transaction's owner: inside a caller's transaction, the error
goes up to the caller, whose own :func:`retried_whole` runs the whole of it again. SQLite has
one writer at a time: a turn there is always free, and nothing deadlocks.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import OperationalError, connection, transaction

T = TypeVar("T")
S = TypeVar("S", bound=Callable[..., Any])

#: How many times a deadlocked write is run, at most.
ATTEMPTS = 4
#: The pause before the next attempt, times the attempt's number.
PAUSE_SECONDS = 0.05
#: PostgreSQL's code for a deadlock.
DEADLOCK = "40P01"


class TurnBusy(Exception):
    """A write holding row locks needed a turn that another transaction holds: waiting could
    close a cycle, so the write is abandoned (its transaction rolls back) and run again from
    its start with the turn taken first (:func:`retried_whole`)."""

    def __init__(self, key: int) -> None:
        super().__init__(f"turn {key:#x} is held by another transaction")
        self.key = key


def is_deadlock(error: OperationalError) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == DEADLOCK


def turn_take(key: int) -> None:
    """Hold the turn ``key`` to the end of the transaction, without waiting: when another
    transaction holds it, :class:`TurnBusy`. Taking a turn the transaction already holds
    succeeds."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [key])
        (taken,) = cursor.fetchone()
    if not taken:
        raise TurnBusy(key)


def _turns_waited(keys: Sequence[int]) -> None:
    """Wait for each turn of ``keys``, in order: the first statements of a transaction."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in sorted(keys):
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def retried_whole(write: Callable[[], T], *, turns: Sequence[int] = ()) -> T:
    """``write()`` run whole, in a transaction of its own: its ``turns`` waited for first,
    before any row lock; run again with the turn taken first when it raised
    :class:`TurnBusy`; run again when the database aborted it for a deadlock, up to
    ``ATTEMPTS`` times. Inside a caller's transaction, ``write()`` is run once, as it is (the
    turns taken without waiting), and what it raises goes up to the caller."""
    if connection.in_atomic_block:
        for key in turns:
            turn_take(key)
        return write()
    wanted = set(turns)
    attempt = 0
    while True:
        attempt += 1
        try:
            with transaction.atomic():
                _turns_waited(sorted(wanted))
                return write()
        except TurnBusy as busy:
            if busy.key in wanted:  # cannot be: a turn held is taken again at once
                raise
            wanted.add(busy.key)
        except OperationalError as error:
            if not is_deadlock(error) or attempt >= ATTEMPTS:
                raise
            time.sleep(PAUSE_SECONDS * attempt)


def retried_on_deadlock(write: Callable[[], T]) -> T:
    """``write()`` run whole, again when the database aborted it for a deadlock
    (:func:`retried_whole` without a turn of its own)."""
    return retried_whole(write)


def whole_write(service: S) -> S:
    """A service that is one write, run whole (:func:`retried_whole`) when called."""

    @functools.wraps(service)
    def run(*args: Any, **kwargs: Any) -> Any:
        return retried_whole(lambda: service(*args, **kwargs))

    return run  # type: ignore[return-value]
