"""The process's bounded maps (tournament/kit/bounded.py): the least recently used let go first,
within a count and a weight, a newer entry never replaced by an older one, and the count and
the weight kept right under threads."""

from __future__ import annotations

import threading

import pytest

from tournament.kit.bounded import BoundedMap


def test_the_least_recently_used_goes_first():
    kept: BoundedMap[str, int] = BoundedMap(entries=2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" used: "b" is now the oldest
    kept.put("c", 3)
    assert "b" not in kept and kept.get("a") == 1 and kept.get("c") == 3
    assert len(kept) == 2


def test_the_weight_bounds_what_is_kept_and_a_value_too_heavy_is_never_kept():
    kept: BoundedMap[str, bytes] = BoundedMap(entries=100, weight=10, weigh=len)
    kept.put("a", b"1234")
    kept.put("b", b"1234")
    kept.put("c", b"1234")  # 12 bytes: "a" goes
    assert "a" not in kept and kept.total_weight == 8
    assert kept.put("huge", b"x" * 11) is False
    assert "huge" not in kept and kept.total_weight == 8 and len(kept) == 2
    kept.put("b", b"12")  # replaced: its old weight taken off
    assert kept.total_weight == 6
    assert kept.pop("b") == b"12" and kept.total_weight == 4
    assert kept.pop("b") is None
    kept.clear()
    assert len(kept) == 0 and kept.total_weight == 0


def test_unless_keeps_the_entry_there():
    kept: BoundedMap[str, int] = BoundedMap(entries=4)
    kept.put("match", 7)
    assert kept.put("match", 5, unless=lambda current: current > 5) is False
    assert kept.get("match") == 7
    assert kept.put("match", 9, unless=lambda current: current > 9) is True
    assert kept.get("match") == 9


def test_a_weight_without_its_measure_is_refused():
    with pytest.raises(ValueError):
        BoundedMap(entries=1, weight=10)


def test_threads_putting_and_taking_at_once_leave_the_count_and_the_weight_right():
    kept: BoundedMap[int, bytes] = BoundedMap(entries=50, weight=400, weigh=len)

    def work(offset: int) -> None:
        for number in range(2000):
            key = (number * 7 + offset) % 120
            if number % 3 == 0:
                kept.pop(key)
            else:
                kept.put(key, b"x" * (number % 17))
                kept.get((key + 1) % 120)

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    values = [kept.get(key) for key in range(120)]
    held = [value for value in values if value is not None]
    assert len(held) == len(kept) <= 50
    assert kept.total_weight == sum(len(value) for value in held) <= 400
