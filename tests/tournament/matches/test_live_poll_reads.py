"""What a phone's poll of the match's live part reads when it is made from the database (no
replay kept, no copy of the answer): the seats, the rounds with their current ends (one
query, the turns of the settled rounds counted in it) and the turns of the rounds not
settled; no turn of a confirmed round. And what ``match_rows`` gives that way is what it
gave round by round."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import add, board_turn, fresh, match_at, played_record
from tests.kept import forget_kept_copies
from tests.tournament.matches.helpers import confirmed_through
from tournament.matches.reading.rows import match_rows
from tournament.models import Round, RoundEnd, Turn

pytestmark = pytest.mark.django_db


def selects_from(queries: CaptureQueriesContext, table: str) -> list[str]:
    """The queries that read rows of ``table`` (their first column is of it)."""
    return [q["sql"] for q in queries.captured_queries
            if q["sql"].startswith((f'SELECT "{table}".', f'SELECT DISTINCT "{table}".'))]


@pytest.fixture
def second_round(tournament, referee):
    """Rounds 1 and 2 confirmed, two turns of round 3 saved."""
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    confirmed_through(match, referee, record, rounds=2)
    for turn in record["rounds"][2]["turns"][:2]:
        add(match, referee, board_turn(turn))
    return fresh(match)


def test_the_live_part_made_reads_the_rounds_once_and_no_settled_turn(second_round, client):
    match = second_round
    forget_kept_copies()
    live = reverse("tournament:match_live", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(live, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert len(selects_from(queries, "tournament_seat")) == 1
    assert len(selects_from(queries, "tournament_round")) == 1
    assert selects_from(queries, "tournament_roundend") == []  # with the rounds
    turns = selects_from(queries, "tournament_turn")
    assert len(turns) == 1
    settled = list(Round.objects.filter(match=match, index__lt=2).values_list("pk", flat=True))
    assert all(f"IN ({settled[0]}, " not in sql for sql in turns)


def test_match_rows_holds_each_round_its_current_end_and_turns(second_round):
    match = second_round
    whole = match_rows(match=match)
    stored = match_rows(match=match, settled_stored=True)
    rounds = list(Round.objects.filter(match=match).order_by("index"))
    assert [r.pk for r in whole.rounds] == [r.pk for r in stored.rounds] == [r.pk for r in rounds]
    ends = {end.round_id: end.pk for end in RoundEnd.objects.current().filter(round__match=match)}
    assert {pk: end.pk for pk, end in whole.ends.items()} == ends
    assert {pk: end.pk for pk, end in stored.ends.items()} == ends
    current = Turn.objects.current().filter(round__match=match).order_by("round_id", "index")
    by_round: dict[int, list[int]] = {r.pk: [] for r in rounds}
    for turn in current:
        by_round[turn.round_id].append(turn.pk)
    assert {pk: [t.pk for t in turns] for pk, turns in whole.turns.items()} == by_round
    settled = [r.pk for r in rounds[:2]]
    assert stored.unloaded == {pk: len(by_round[pk]) for pk in settled}
    assert {pk: [t.pk for t in turns] for pk, turns in stored.turns.items()} == {
        pk: turns for pk, turns in by_round.items() if pk not in settled}
