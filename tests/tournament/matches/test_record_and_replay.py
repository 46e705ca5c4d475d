"""The record built from the rows, and the replay the pages and the printed sheet read."""

from __future__ import annotations

import json

import pytest

from scoring import check_record, parse_record
from tests.factories import fresh, import_record, match_at, played_record, truncated
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.rows import match_record

pytestmark = pytest.mark.django_db


def test_a_whole_match_imported_gives_back_the_same_record(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, record)
    assert match_record(match=fresh(match)).to_dict() == record


def test_the_replay_has_every_round_turn_board_and_the_winners(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, record)
    expected = check_record(parse_record(record))
    view = match_replay(match=fresh(match))

    assert [seat.letter for seat in view.seats] == ["A", "B", "C", "D"]
    assert len(view.rounds) == len(record["rounds"])
    assert view.finished and view.live is None
    assert view.totals == tuple(fresh(match).totals)
    assert max(view.totals) >= 400
    assert view.winners == tuple(i for i, t in enumerate(view.totals) if t == max(view.totals))
    first = view.rounds[0]
    assert len(first.turns) == len(record["rounds"][0]["turns"])
    opening = first.turns[0]
    assert opening.bonus == "opening" and opening.verdict == "ok" and opening.number == 1
    assert opening.points == record["rounds"][0]["turns"][0]["claimed"]
    assert first.closed and first.end_kind in ("out", "blocked") and first.settlement is not None
    assert sum(first.scores) > 0 and first.totals_after == first.scores
    assert view.rounds[-1].totals_after == view.totals
    svg = first.board_svg(side=40)
    placed = sum(1 for t in record["rounds"][0]["turns"] if "place" in t)
    assert svg.startswith("<svg") and svg.count('class="tile') == placed
    assert view.totals == expected.totals and view.winners == expected.winners


def test_a_match_under_way_has_its_round_in_play(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=5)
    import_record(match, referee, truncated(record, rounds=0, turns=6))
    view = match_replay(match=fresh(match))
    live = view.live
    assert live is not None and live.index == 0 and live.started and live.counted
    assert len(view.rounds) == 1 and not view.rounds[0].closed
    assert live.next_player == (record["rounds"][0]["turns"][5]["player"] + 1) % 4
    assert sum(live.hand_counts) + live.pool_size + len(live.tiles_played) == 56
    assert live.board is not None and len(live.board) == len(live.tiles_played)
    assert all(cell for cells in live.legal_cells.values() for cell in cells)
    assert 'class="open"' in live.board_svg()
    assert fresh(match).status == "playing"
    # the record of a match under way has its round without racks
    exported = match_record(match=fresh(match)).to_dict()
    assert exported["rounds"] == [{"turns": record["rounds"][0]["turns"][:6]}]
    assert json.loads(match_record(match=fresh(match)).to_json()) == exported


def test_an_empty_match_is_about_to_begin(tournament):
    match = match_at(tournament=tournament)
    view = match_replay(match=match)
    assert view.rounds == [] and not view.finished and view.totals == (0, 0, 0, 0)
    assert view.live is not None and view.live.is_opening and view.live.next_player is None
    assert view.live.pool_size == 28 and view.live.hand_counts == (7, 7, 7, 7)
    assert match_record(match=match).to_dict()["rounds"] == []
