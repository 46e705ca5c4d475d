"""Writes run whole (``tournament/kit/transactions.py``). A write aborted for a deadlock is run
again: two transactions locking two rows in opposite orders (PostgreSQL detects the cycle and
aborts one of them) both end done, the aborted one on its second run. A turn (an advisory
lock) is never waited for by a write holding a row: it runs again with the turn taken first,
and the cycle the ratings' turn made cannot form."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from tournament.kit.transactions import (
    TurnBusy,
    is_deadlock,
    retried_on_deadlock,
    retried_whole,
    turn_take,
)
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


TURN = 0x7465_7374  # a turn of this test's own


def test_a_write_holding_a_row_never_waits_for_a_turn_it_runs_again_with_the_turn_first():
    """The cycle the ratings' turn made: a write holding the turn waits for a row that a
    second write holds, and the second wants the turn. The second does not wait for it: it
    rolls back (freeing the row), then runs again whole, the turn waited for first."""
    row = Player.objects.create(name="A")
    holds_turn, holds_row = threading.Event(), threading.Event()
    runs: dict[str, int] = {"turn first": 0, "row first": 0}
    outcomes: dict[str, object] = {}

    def turn_then_row():
        runs["turn first"] += 1
        turn_take(TURN)
        holds_turn.set()
        assert holds_row.wait(timeout=10)
        Player.objects.select_for_update().get(pk=row.pk)

    def row_then_turn():
        runs["row first"] += 1
        Player.objects.select_for_update().get(pk=row.pk)
        if runs["row first"] == 1:
            assert holds_turn.wait(timeout=10)
            holds_row.set()
        turn_take(TURN)

    def run(name, write):
        try:
            retried_whole(write)
            outcomes[name] = "done"
        except Exception as error:  # noqa: BLE001 - reported by the test
            outcomes[name] = repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=("turn first", turn_then_row)),
               threading.Thread(target=run, args=("row first", row_then_turn))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcomes == {"turn first": "done", "row first": "done"}
    assert runs == {"turn first": 1, "row first": 2}


def test_inside_a_callers_transaction_a_busy_turn_goes_up_to_the_caller():
    """Only the transaction's owner can run it again: inside another transaction, the busy
    turn is the caller's to handle."""
    taken = threading.Event()
    release = threading.Event()

    def holder():
        try:
            with transaction.atomic():
                turn_take(TURN)
                taken.set()
                release.wait(timeout=10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert taken.wait(timeout=10)
        with pytest.raises(TurnBusy), transaction.atomic():
            retried_whole(lambda: turn_take(TURN))
    finally:
        release.set()
        thread.join(timeout=10)
