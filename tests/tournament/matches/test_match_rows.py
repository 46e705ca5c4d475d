"""A match's rows read by ``match_rows`` through its three reads compiled once per process
(``tournament/kit/prepared.py``), against the ORM's own querysets written here apart: the same
seats, rounds, current ends and current turns, field by field (dates, JSON, flags), in each of
its three ways (every turn, the settled rounds not loaded, the closed ones too), on a match
with a confirmed round, a closed round not confirmed, a round in play, turns undone and a round
whose end was entered again."""

from __future__ import annotations

import pytest
from django.db.models import Count, FilteredRelation, Max, OuterRef, Q, Subquery

from tests.factories import add, board_turn, fresh, match_at, played_record
from tournament.matches import services
from tournament.matches.reading import rows as rows_module
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.models import Match, Round, Seat, Turn

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


def orm_rows(match: Match) -> dict:
    """The rows as the ORM reads them: seats with players, rounds with their current end and
    current turns' count and greatest id, the current turns by round."""
    seats = Seat.objects.filter(table_id=match.table_id).select_related("player").order_by("order")
    current = Turn.objects.current().filter(round=OuterRef("pk")).order_by().values("round")
    rounds = (Round.objects.filter(match=match)
              .annotate(current_end=FilteredRelation(
                  "ends", condition=Q(ends__superseded_at__isnull=True)))
              .select_related("current_end")
              .annotate(current_turns=Subquery(current.annotate(n=Count("pk")).values("n")),
                        last_turn=Subquery(current.annotate(n=Max("pk")).values("n")))
              .order_by("index"))
    turns: dict[int, list[dict]] = {}
    for turn in Turn.objects.current().filter(round__match=match).order_by("round_id", "index"):
        turns.setdefault(turn.round_id, []).append(_fields(turn))
    return {
        "seats": [(_fields(seat), _fields(seat.player)) for seat in seats],
        "rounds": [(_fields(round_),
                    _fields(round_.current_end) if getattr(round_, "current_end", None) else None,
                    round_.current_turns, round_.last_turn) for round_ in rounds],
        "turns": turns,
    }


def read_rows(match: Match, **way: bool) -> dict:
    rows = match_rows(match=match_with_tournament(match.pk).get(), **way)
    counted = bool(way)
    for round_ in rows.rounds:  # the end found is the round's, as select_related sets it
        end = getattr(round_, "current_end", None)
        assert end is None or (end.round is round_ and rows.ends[round_.pk] is end)
    return {
        "seats": [(_fields(seat), _fields(seat.player)) for seat in rows.seats],
        "rounds": [(_fields(round_),
                    _fields(rows.ends[round_.pk]) if round_.pk in rows.ends else None,
                    round_.current_turns if counted else None,
                    round_.last_turn if counted else None) for round_ in rows.rounds],
        "turns": {pk: [_fields(turn) for turn in turns] for pk, turns in rows.turns.items()},
        "unloaded": rows.unloaded,
    }


@pytest.fixture
def mixed_match(tournament, referee) -> Match:
    """Round 1 confirmed, round 2 closed (its end entered twice) and not confirmed, round 3 in
    play with a turn undone."""
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    head = {**record, "rounds": record["rounds"][:2]}
    services.match_record_import(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, record=head)
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)
    racks = record["rounds"][1]["racks"]
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=1,
                             racks=racks, reason="entered again")
    for turn in record["rounds"][2]["turns"][:3]:
        add(fresh(match), referee, board_turn(turn))
    services.match_turn_undo(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision)
    return fresh(match)


def test_the_compiled_reads_give_the_orms_rows_in_every_way(mixed_match, tournament):
    match = mixed_match
    expected = orm_rows(match)
    rounds = expected["rounds"]
    assert len(rounds) == 3 and rounds[0][0]["confirmed_at"] and rounds[1][1] is not None
    assert rounds[1][0]["confirmed_at"] is None and rounds[2][1] is None
    ways = ({}, {"settled_stored": True}, {"closed_stored": True})
    for way, unloaded in zip(ways, (0, 1, 2)):
        read = read_rows(match, **way)
        assert read["seats"] == expected["seats"], way
        if way:
            assert read["rounds"] == rounds, way
        else:  # no count asked: the rounds and their ends
            assert [row[:2] for row in read["rounds"]] == [row[:2] for row in rounds]
        skipped = [row[0]["id"] for row in rounds[:unloaded]]
        assert list(read["unloaded"]) == skipped, way
        assert read["turns"] == {pk: turns for pk, turns in expected["turns"].items()
                                 if pk not in skipped}, way
        assert {pk: len(turns) for pk, turns in expected["turns"].items()} == {
            row[0]["id"]: row[2] for row in rounds}


def test_the_reads_follow_each_calls_match(mixed_match, tournament, referee):
    """Compiled with the first match, read for another: that one's rows, never the first's; a
    match with no round reads none."""
    other = match_at(tournament=tournament, table=2, started=True)
    first = read_rows(mixed_match, settled_stored=True)
    second = read_rows(other, settled_stored=True)
    assert second["rounds"] == [] and second["turns"] == {}
    assert [seat["id"] for seat, _player in second["seats"]] == list(
        Seat.objects.filter(table_id=other.table_id).order_by("order").values_list("id", flat=True))
    assert {seat["id"] for seat, _ in first["seats"]}.isdisjoint(
        {seat["id"] for seat, _ in second["seats"]})
    assert read_rows(mixed_match, settled_stored=True) == first


def test_a_round_added_between_the_reads_is_left_out_with_its_turns(
        mixed_match, referee, monkeypatch):
    """Another write adds a round, with a turn, after the rounds were read and before the
    turns are (each read is a statement of its own): the rows are the ones read, the new
    round's turn not among them, and nothing fails."""
    match = mixed_match
    real = rows_module._match_rounds

    def then_another_write(match_id, *, counted):
        rounds = real(match_id, counted=counted)
        added = Round.objects.create(match_id=match_id, index=rounds[-1].index + 1)
        Turn.objects.create(round=added, index=0, player=0, draws=0, points=0,
                            created_by=referee)
        return rounds

    monkeypatch.setattr(rows_module, "_match_rounds", then_another_write)
    expected = orm_rows(match)
    read = read_rows(match)
    added = Round.objects.get(match=match, index=3)
    assert [row[0]["id"] for row in read["rounds"]] == [row[0]["id"] for row in expected["rounds"]]
    assert added.pk not in read["turns"]
    assert read["turns"] == expected["turns"]
