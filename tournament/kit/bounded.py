"""A map a process keeps in memory, bounded: at most so many entries (and, with a weight, so
many bytes), the least recently used let go first.

The process's own copies (the kept replays, the players' rows of the standings, the public
pages in front of the shared cache, the streams' live parts) are each one of these: what is
kept is always something that could be made again, so letting one go costs a making, never
a wrong answer. Safe to share between a process's threads: each call holds the map's lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedMap(Generic[K, V]):
    """At most ``entries`` entries; with ``weigh`` (an entry's weight, its bytes), at most
    ``weight`` in all, an entry heavier than ``weight`` alone never kept. ``get`` and ``put``
    make an entry the most recent; the oldest go first."""

    def __init__(self, *, entries: int, weight: int | None = None,
                 weigh: Callable[[V], int] | None = None) -> None:
        if (weight is None) != (weigh is None):
            raise ValueError("a weight bound needs a weigh function, and the other way round")
        self.entries = entries
        self.weight = weight
        self.weigh = weigh
        self._map: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._map.get(key)
            if found is None:
                return None
            self._map.move_to_end(key)
            return found[0]

    def pop(self, key: K) -> V | None:
        """The entry under ``key``, taken out (None when there is none)."""
        with self._lock:
            found = self._map.pop(key, None)
            if found is None:
                return None
            self._total -= found[1]
            return found[0]

    def put(self, key: K, value: V, *, unless: Callable[[V], bool] | None = None) -> bool:
        """Keep ``value`` under ``key`` (in place of the one there), unless ``unless`` says
        the one there must stay (a newer one); whether it was kept."""
        weight = self.weigh(value) if self.weigh is not None else 0
        if self.weight is not None and weight > self.weight:
            return False
        with self._lock:
            current = self._map.get(key)
            if current is not None:
                if unless is not None and unless(current[0]):
                    return False
                self._total -= current[1]
            self._map[key] = (value, weight)
            self._map.move_to_end(key)
            self._total += weight
            while len(self._map) > self.entries or (
                    self.weight is not None and self._total > self.weight):
                _key, (_value, gone) = self._map.popitem(last=False)
                self._total -= gone
            return True

    def clear(self) -> None:
        with self._lock:
            self._map.clear()
            self._total = 0

    def __len__(self) -> int:
        return len(self._map)

    def __contains__(self, key: object) -> bool:
        return key in self._map

    @property
    def total_weight(self) -> int:
        return self._total
