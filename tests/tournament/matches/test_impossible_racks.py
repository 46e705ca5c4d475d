"""Round ends that cannot have happened: a rack holding a tile already on the table, a tile
twice, or more tiles than the hand and the pool allow is refused at entry, next to its field,
naming the tile; a round with an open problem (a settlement claim the engine does not give,
a rack a record brought in) cannot be confirmed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.factories import blocked_racks, blocked_round, fresh, match_at, replay
from tournament.matches import services
from tournament.models import Round, RoundEnd

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def enter(match, referee, racks, **options):
    return services.match_round_end(match=fresh(match), user=referee,
                                    seen_revision=fresh(match).revision, round_index=0,
                                    racks=racks, **options)


def refused(match, referee, racks) -> ValidationError:
    revision = fresh(match).revision
    with pytest.raises(ValidationError) as error:
        enter(match, referee, racks)
    assert fresh(match).revision == revision and not RoundEnd.objects.filter(
        round__match=match).exists()
    return error.value


def test_a_rack_holding_a_tile_already_played_is_refused(tournament, referee):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    racks = blocked_racks()
    racks[2][0] = "555"  # on the table since the opening
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_2"]
    (problem,) = error.error_dict["rack_2"]
    assert problem.code == "tile-already-played" and problem.params["tile"] == "5-5-5"


def test_a_tile_twice_is_refused_in_one_rack_or_two(tournament, referee):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    racks = blocked_racks()
    racks[1][1] = racks[1][0]
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_1"]
    assert error.error_dict["rack_1"][0].params["tile"] == racks[1][0]
    racks = blocked_racks()
    racks[3][0] = racks[0][0]
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_3"]
    assert error.error_dict["rack_3"][0].code == "tile-already-played"


def test_more_tiles_than_the_hand_and_the_pool_allow_are_refused(tournament, referee):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    racks = blocked_racks()
    racks[0].append(racks[1].pop())  # 13 tiles: 12 in hand, the pool is empty
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_0"]
    assert error.error_dict["rack_0"][0].code == "rack-impossible"


def test_a_rack_short_of_tiles_is_still_taken_and_flagged(tournament, referee):
    """Fewer tiles than expected can happen (a tile not noted): kept, shown as a mismatch."""
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    racks = blocked_racks()
    racks[0] = racks[0][:-1]
    enter(match, referee, racks)
    codes = [p.code for p in replay(match).rounds[0].problems]
    assert codes.count("rack-mismatch") == 1 and "false-block" in codes
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)


def test_a_round_whose_settlement_claim_differs_cannot_be_confirmed(tournament, referee):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    enter(match, referee, blocked_racks(), settlement_claimed=[0, 0, 0, 0])
    assert "settlement-mismatch" in [p.code for p in replay(match).rounds[0].problems]
    with pytest.raises(ValidationError) as error:
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=0)
    assert error.value.code == "open_problems"
    assert Round.objects.get(match=match, index=0).confirmed_at is None
