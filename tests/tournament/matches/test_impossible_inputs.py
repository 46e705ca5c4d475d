"""What cannot have happened, entered as a clumsy or dishonest referee would: the racks at a
round's end and a record uploaded. The records are the engine's tests' own
(tests/scoring/impossible_records.py), so that one record gets one verdict on every path: what
``python -m scoring check`` reports as a rack that cannot have happened, the form and the upload
refuse, with the engine's problem code, and write nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import check_record, parse_record
from tests.factories import add, board_turn, fresh, match_at, replay, seated_names
from tests.scoring.impossible_records import (
    ONE_TILE_SEAT,
    OUT_SEAT,
    legal_match,
    rack_value,
    unseen_tiles,
    with_corner,
    with_rack,
)
from tournament.matches import services
from tournament.models import Round, RoundEnd, Turn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def seated(tournament):
    match = match_at(tournament=tournament, started=True)
    return match, legal_match(seated_names(match))


def played_first_round(match, referee, data) -> None:
    for turn in data["rounds"][0]["turns"]:
        add(match, referee, board_turn(turn))


def racks_entered(match, referee, racks):
    match = fresh(match)
    return services.match_round_end(match=match, user=referee, seen_revision=match.revision,
                                    round_index=0, racks=racks)


def refused_at_the_round_end(match, referee, racks) -> ValidationError:
    revision = fresh(match).revision
    with pytest.raises(ValidationError) as error:
        racks_entered(match, referee, racks)
    assert fresh(match).revision == revision
    assert not RoundEnd.objects.filter(round__match=match).exists()
    return error.value


def refused_upload(match, referee, record) -> list[ValidationError]:
    match = fresh(match)
    with pytest.raises(ValidationError) as error:
        services.match_record_import(match=match, user=referee, seen_revision=match.revision,
                                     record=record)
    assert fresh(match).revision == match.revision
    assert not Round.objects.filter(match=match).exists()
    assert not Turn.objects.filter(round__match=match).exists()
    return error.value.error_dict["record"]


# --- 1. a rack given as a total ---------------------------------------------------------------


@pytest.mark.parametrize("total", [500, 16])
def test_the_round_end_refuses_a_total_a_one_tile_rack_cannot_hold(tournament, referee, total):
    match, data = seated(tournament)
    played_first_round(match, referee, data)
    racks = [list(rack) for rack in data["rounds"][0]["racks"]]
    racks[ONE_TILE_SEAT] = total
    error = refused_at_the_round_end(match, referee, racks)
    assert [e.code for e in error.error_dict[f"rack_{ONE_TILE_SEAT}"]] == [
        "rack-total-impossible"]


def test_the_round_end_refuses_points_for_the_player_who_went_out(tournament, referee):
    match, data = seated(tournament)
    played_first_round(match, referee, data)
    racks = [list(rack) for rack in data["rounds"][0]["racks"]]
    racks[OUT_SEAT] = 10
    error = refused_at_the_round_end(match, referee, racks)
    assert [e.code for e in error.error_dict[f"rack_{OUT_SEAT}"]] == ["rack-total-impossible"]
    racks[OUT_SEAT] = []
    racks[ONE_TILE_SEAT] = rack_value(data, ONE_TILE_SEAT)  # the true total is taken
    racks_entered(match, referee, racks)


def test_the_round_end_page_refuses_a_total_of_500_typed_in_its_field(
        tournament, referee, referee_client):
    match, data = seated(tournament)
    played_first_round(match, referee, data)
    post = {"revision": fresh(match).revision, "page": "round_end"}
    for seat, rack in enumerate(data["rounds"][0]["racks"]):
        post[f"rack_{seat}"] = " ".join(rack)
    post[f"rack_{ONE_TILE_SEAT}"] = ""
    post[f"total_{ONE_TILE_SEAT}"] = "500"
    url = reverse("tournament:match_round_end", kwargs={
        "slug": tournament.slug, "match_id": match.pk, "number": 1})
    response = referee_client.post(url, post)
    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()
    assert [e.code for e in errors[f"rack_{ONE_TILE_SEAT}"]] == ["rack-total-impossible"]
    assert not RoundEnd.objects.filter(round__match=match).exists()


@pytest.mark.parametrize(("seat", "total"), [(ONE_TILE_SEAT, 500), (ONE_TILE_SEAT, 16),
                                             (OUT_SEAT, 10)])
def test_the_upload_refuses_a_total_the_rack_cannot_hold(tournament, referee, seat, total):
    match, data = seated(tournament)
    (error,) = refused_upload(match, referee, with_rack(data, seat, total))
    assert error.code == "rack-total-impossible"
    assert error.params == {"round": 0, "seat": seat}


# --- 2. a rack holding more tiles than can exist ----------------------------------------------


def crowded(data, seat: int = 2) -> list:
    """The first round's racks, ``seat`` showing every tile the pool still holds besides its
    own: the pool's count counted in, no rack can hold them."""
    racks = [list(rack) for rack in data["rounds"][0]["racks"]]
    racks[seat] += unseen_tiles(data)
    return racks


def test_the_round_end_refuses_a_rack_holding_the_pools_tiles(tournament, referee):
    """A rack of 17 tiles where 3 can be: was a warning, saved, confirmed, and its tiles
    settled to the winner."""
    match, data = seated(tournament)
    played_first_round(match, referee, data)
    error = refused_at_the_round_end(match, referee, crowded(data))
    assert [e.code for e in error.error_dict["rack_2"]] == ["rack-impossible"]
    assert error.error_dict["rack_2"][0].params["allowed"] == 3


def test_the_upload_refuses_a_rack_holding_the_pools_tiles(tournament, referee):
    match, data = seated(tournament)
    record = with_rack(data, 2, crowded(data)[2])
    (error,) = refused_upload(match, referee, record)
    assert (error.code, error.params) == ("rack-impossible", {"round": 0, "seat": 2})


# --- 3. a corner that shows no tile: one verdict with the check -------------------------------


@pytest.mark.parametrize("value", [-1, 6, 12, -10**9])
def test_the_upload_keeps_a_corner_that_shows_no_tile_and_flags_it_as_the_check_does(
        tournament, referee, value):
    """-1 refused the whole record, 6 was kept and flagged: both are kept, the turn flagged
    with the problems ``python -m scoring check`` gives the same record, and it round-trips."""
    match, data = seated(tournament)
    record = with_corner(data, value)
    checked = check_record(parse_record(record))
    written = services.match_record_import(match=fresh(match), user=referee,
                                           seen_revision=fresh(match).revision, record=record)
    saved = written.replay.rounds[0]
    assert [[p.code for p in line.problems] for line in saved.turns] == [
        [p.code for p in report.problems] for report in checked.rounds[0].turns]
    assert [p.code for p in saved.problems] == [
        p.code for p in checked.problems if p.turn is None]
    assert replay(match).record.to_dict()["rounds"] == parse_record(record).to_dict()["rounds"]
