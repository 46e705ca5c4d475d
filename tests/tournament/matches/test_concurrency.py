"""Two people at one table: two saves from the same view of the match, at the same moment.

Run on PostgreSQL (``DATABASE_URL=postgres://postgres@127.0.0.1:5432/triominos pytest ...``),
where two connections really write at once; SQLite serialises every write, and the stale
save is tested there sequentially (test_services.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pytest
from django.db import connection, connections

from tests.factories import fresh, match_at
from tests.tournament.matches.test_signatures import one_round_entered
from tournament import engine
from tournament.matches import services
from tournament.matches.scorers import ScorerActor
from tournament.matches.services import write
from tournament.matches.services.signatures import round_sign
from tournament.matches.signatures import round_to_sign
from tournament.models import AuditEntry, RoundSignature, Turn

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two connections writing at once: run with DATABASE_URL=postgres://...",
    ),
]


def opening(player: int, tile: str) -> services.TurnInput:
    return services.TurnInput(
        player=player, cell=engine.Cell(0, 0, "U"),
        corners=tuple(int(v) for v in tile.split("-")),
    )


def save_in_thread(name: str, match, user, seen: int, turn, results: dict, barrier=None,
                   submission_key: str = ""):
    """A thread named ``name`` that saves ``turn`` and puts in ``results[name]`` how it went:
    "saved", "stale", "already saved", or the error."""

    def save():
        if barrier is not None:
            barrier.wait()
        services.match_turns_add(match=match, user=user, seen_revision=seen, turns=[turn],
                                 submission_key=submission_key)

    return reported_thread(name, save, results)


def reported_thread(name: str, write, results: dict) -> threading.Thread:
    """A thread named ``name`` that runs ``write()`` on its own connections and puts in
    ``results[name]`` how it went: "saved", "stale", "already saved", or the error."""

    def run():
        try:
            write()
            results[name] = "saved"
        except services.StaleMatch:
            results[name] = "stale"
        except services.AlreadySaved:
            results[name] = "already saved"
        except Exception as error:  # noqa: BLE001 - reported by the test
            results[name] = repr(error)
        finally:
            connections.close_all()

    return threading.Thread(target=run, name=name)


@dataclass
class FirstSaveHeld:
    holding: threading.Event
    release: threading.Event

    def run(self, first: threading.Thread, second: threading.Thread) -> None:
        """Start ``first``, and once it holds the match start ``second``, which must wait for
        the first one's transaction; then let the first go on, and both end."""
        first.start()
        assert self.holding.wait(timeout=30)
        second.start()
        second.join(timeout=1.0)
        assert second.is_alive(), "the second save must wait for the first one's transaction"
        self.release.set()
        first.join(timeout=30)
        second.join(timeout=30)


@pytest.fixture
def first_save_held(monkeypatch) -> FirstSaveHeld:
    """The save made in the thread named "first" pauses once it has claimed the match's
    revision (its row locked, not yet committed), until released."""
    held = FirstSaveHeld(threading.Event(), threading.Event())
    real_match_rows = write.match_rows

    def match_rows_pausing_the_first(*, match):
        if threading.current_thread().name == "first":
            held.holding.set()
            held.release.wait(timeout=30)
        return real_match_rows(match=match)

    monkeypatch.setattr(write, "match_rows", match_rows_pausing_the_first)
    return held


def test_two_saves_at_once_exactly_one_wins(tournament, referee):
    match = fresh(match_at(tournament=tournament))
    for attempt in range(5):
        match = fresh(match)
        seen = match.revision
        results: dict[str, str] = {}
        barrier = threading.Barrier(2)
        threads = [
            save_in_thread("first", match, referee, seen, opening(0, "5-5-5"), results, barrier),
            save_in_thread("second", match, referee, seen, opening(1, "4-4-4"), results, barrier),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert sorted(results.values()) == ["saved", "stale"], results
        turns = list(Turn.objects.current().filter(round__match=match))
        assert len(turns) == 1
        winner = "first" if results["first"] == "saved" else "second"
        assert turns[0].tile == ("5-5-5" if winner == "first" else "4-4-4")
        assert fresh(match).revision == seen + 1
        assert AuditEntry.objects.filter(match=match, action="turn-added").count() == attempt + 1
        # back to an empty match for the next attempt
        services.match_turn_undo(match=fresh(match), user=referee, seen_revision=seen + 1)


def test_the_second_save_waits_for_the_first_then_is_refused(tournament, referee,
                                                            first_save_held):
    """The first save holds the match (its revision updated, not yet committed) while the
    second arrives: the second waits on the row, then finds the revision moved and is refused.
    """
    match = fresh(match_at(tournament=tournament))
    seen = match.revision
    results: dict[str, str] = {}
    first_save_held.run(
        save_in_thread("first", match, referee, seen, opening(0, "5-5-5"), results),
        save_in_thread("second", match, referee, seen, opening(1, "4-4-4"), results),
    )
    assert results == {"first": "saved", "second": "stale"}
    (turn,) = Turn.objects.current().filter(round__match=match)
    assert turn.tile == "5-5-5" and turn.player == 0
    assert Turn.objects.filter(round__match=match).count() == 1
    assert fresh(match).revision == seen + 1


def test_the_same_submission_sent_twice_at_once_is_saved_once(tournament, referee,
                                                              first_save_held):
    """A tablet resends a turn whose first sending is still being saved: the second waits for
    the first, then finds its key and answers "already saved" (not stale, not a second turn).
    """
    match = fresh(match_at(tournament=tournament))
    seen = match.revision
    results: dict[str, str] = {}
    first_save_held.run(*(
        save_in_thread(name, match, referee, seen, opening(0, "5-5-5"), results,
                       submission_key="tablet-key-0001")
        for name in ("first", "second")
    ))
    assert results == {"first": "saved", "second": "already saved"}
    assert Turn.objects.filter(round__match=match).count() == 1
    assert fresh(match).revision == seen + 1


def sign_in_thread(name: str, match, seat: int, digest: str, results: dict) -> threading.Thread:
    """A thread named ``name`` in which seat ``seat`` agrees to round 1 read at ``digest``
    (from its own phone), putting in ``results[name]`` how it went (``reported_thread``)."""
    return reported_thread(name, lambda: round_sign(
        match=match, user=ScorerActor(scorer_device=f"phone-{seat}", seat=seat),
        round_index=0, digest=digest, agreed=True, own_phone=True), results)


def test_two_seats_signing_at_once_are_both_taken(tournament, first_save_held):
    """Two seats sign the round they read at once: the second waits for the first's
    transaction, then writes its word against the match as it now is (a seat signs the
    round's digest, not the revision it was shown: no stale refusal)."""
    match, _phone = one_round_entered(tournament)
    digest = round_to_sign(match=fresh(match)).digest
    seen = fresh(match).revision
    results: dict[str, str] = {}
    first_save_held.run(sign_in_thread("first", fresh(match), 0, digest, results),
                        sign_in_thread("second", fresh(match), 1, digest, results))
    assert results == {"first": "saved", "second": "saved"}
    assert sorted(RoundSignature.objects.values_list("seat", flat=True)) == [0, 1]
    assert fresh(match).revision == seen + 2
