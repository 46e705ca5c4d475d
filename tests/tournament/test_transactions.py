"""A write aborted for a deadlock is run again (``tournament/kit/transactions.py``): two
transactions locking two rows in opposite orders (PostgreSQL detects the cycle and aborts one
of them) both end done, the aborted one on its second run."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from tournament.kit.transactions import is_deadlock, retried_on_deadlock
from tournament.models import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="a real deadlock: run with DATABASE_URL=postgres://..."),
]


def crossed_writes(*, retried: bool) -> dict[str, object]:
    first, second = Player.objects.create(name="A"), Player.objects.create(name="B")
    both_hold = threading.Barrier(2)
    runs: dict[str, int] = {"ab": 0, "ba": 0}
    outcomes: dict[str, object] = {}

    def write(name: str, order: list[int]) -> None:
        @transaction.atomic
        def locking():
            runs[name] += 1
            Player.objects.select_for_update().get(pk=order[0])
            if runs[name] == 1:
                both_hold.wait(timeout=10)  # each holds its first row: the cycle is made
            Player.objects.select_for_update().get(pk=order[1])

        return retried_on_deadlock(locking) if retried else locking()

    def run(name, order):
        try:
            write(name, order)
            outcomes[name] = "done"
        except OperationalError as error:
            outcomes[name] = "deadlock" if is_deadlock(error) else repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=("ab", [first.pk, second.pk])),
               threading.Thread(target=run, args=("ba", [second.pk, first.pk]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return {**outcomes, "runs": sorted(runs.values())}


def test_without_the_retry_one_of_two_crossed_writes_fails():
    assert sorted(value for key, value in crossed_writes(retried=False).items()
                  if key != "runs") == ["deadlock", "done"]


def test_with_the_retry_both_crossed_writes_are_done():
    outcome = crossed_writes(retried=True)
    assert (outcome["ab"], outcome["ba"], outcome["runs"]) == ("done", "done", [1, 2])
