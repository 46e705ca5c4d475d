"""Wrong tries limited: a code guessed from a phone is locked out after a few wrong ones.

A limit (:class:`TryLimit`) allows ``tries`` wrong tries per key (a client's address, a
table) in any ``seconds``; the next one is refused until the oldest of them is that old, and
the refusal says how long that is. The tries are counted in Django's ``default`` cache (the
database cache of ``settings.CACHES``), which every worker and every app server of the same
database share, so that no worker lets through what another refused.

Each key has ``tries`` slots; a try claims a free one *before* its code is checked, with the
cache's ``add`` (one atomic ``INSERT ... ON CONFLICT`` in the database cache: two workers
never claim the same slot), and gives it back when the code was right. Tries sent at once
therefore cannot all pass a count read before any of them is written. A slot holds the time
it frees itself, and the cache forgets it then.

The slots are written outside any transaction of the write they guard: a wrong code rolls
that write back, and must not roll back its own count. A caller checks the code between
:func:`try_claim` and :meth:`ClaimedTry.right`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class TryLimit:
    """At most ``tries`` wrong tries per key in any ``seconds``, under the name ``scope``.

    >>> TryLimit(scope="call:address", tries=5, seconds=900).per_hour
    20.0
    """

    scope: str
    tries: int
    seconds: int

    @property
    def per_hour(self) -> float:
        """The wrong tries a key may make in an hour, kept at the limit."""
        return self.tries * 3600 / self.seconds

    def slot_keys(self, key: str) -> list[str]:
        return [f"tries:{self.scope}:{key}:{slot}" for slot in range(self.tries)]


class LockedOut(Exception):
    """Too many wrong tries: the next is allowed in ``seconds`` (at least 1), for ``scope``."""

    def __init__(self, *, scope: str, seconds: int):
        super().__init__(f"{scope}: locked out for {seconds} s")
        self.scope = scope
        self.seconds = seconds


@dataclass
class ClaimedTry:
    """A try counted as wrong until :meth:`right` says its code was right."""

    slots: list[str]

    def right(self) -> None:
        """The code was right: the try is not a wrong one, its slots are free again."""
        if self.slots:
            cache.delete_many(self.slots)
            self.slots = []


def _claim(limit: TryLimit, key: str, *, now: float) -> str:
    """Claim a free slot of ``key`` under ``limit``; :class:`LockedOut` when none is free."""
    keys = limit.slot_keys(key)
    for _attempt in range(3):
        taken = cache.get_many(keys)
        free = [slot for slot in keys if slot not in taken]
        for slot in free:
            if cache.add(slot, now + limit.seconds, timeout=limit.seconds):
                return slot
        if not free:
            oldest = min(float(until) for until in taken.values())
            raise LockedOut(scope=limit.scope, seconds=max(1, math.ceil(oldest - now)))
    # every free slot was claimed by another worker meanwhile, three times over
    raise LockedOut(scope=limit.scope, seconds=1)


def try_claim(limits: Sequence[tuple[TryLimit, str]]) -> ClaimedTry:
    """Count one try under each ``(limit, key)``, before its code is checked.

    Raises :class:`LockedOut` (the longest wait of the limits reached) when a key has used
    its wrong tries: the try is then counted nowhere, and its code must not be checked."""
    now = time.time()
    claimed = ClaimedTry(slots=[])
    locked: list[LockedOut] = []
    for limit, key in limits:
        try:
            claimed.slots.append(_claim(limit, key, now=now))
        except LockedOut as error:
            locked.append(error)
    if locked:
        claimed.right()
        raise max(locked, key=lambda error: error.seconds)
    return claimed
