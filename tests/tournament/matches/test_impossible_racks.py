"""Round ends that cannot have happened: a rack holding a tile already on the table, a tile
twice, or more tiles than the hand and the pool allow is refused at entry, next to its field,
naming the tile; a round with an open problem (a settlement claim the engine does not give,
a rack a record brought in) cannot be confirmed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.factories import match_at
from tests.tournament.matches.helpers import add, fresh, replay
from tournament import engine
from tournament.matches import services
from tournament.models import Round, RoundEnd

pytestmark = pytest.mark.django_db

HANDS = [12, 16, 14, 13]


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def blocked(match, referee):
    """Seat A opens with 5-5-5, then every draw empties the pool: the table is blocked with
    hands of ``HANDS`` tiles and nothing left to draw."""
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                           corners=(5, 5, 5), points_claimed=25))
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))
    assert replay(match).live.end_kind == "blocked"


def good_racks() -> list[list[str]]:
    """Racks of ``HANDS`` tiles: every tile but 5-5-5 (the pool is empty). One of them fits
    next to 5-5-5: a false block, shown to the referee, which does not stop the round."""
    free = [str(t) for t in engine.ALL_TILES if str(t) != "5-5-5"]
    racks, start = [], 0
    for count in HANDS:
        racks.append(free[start:start + count])
        start += count
    return racks


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
    blocked(match, referee)
    racks = good_racks()
    racks[2][0] = "555"  # on the table since the opening
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_2"]
    (problem,) = error.error_dict["rack_2"]
    assert problem.code == "tile-already-played" and problem.params["tile"] == "5-5-5"


def test_a_tile_twice_is_refused_in_one_rack_or_two(tournament, referee):
    match = match_at(tournament=tournament)
    blocked(match, referee)
    racks = good_racks()
    racks[1][1] = racks[1][0]
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_1"]
    assert error.error_dict["rack_1"][0].params["tile"] == racks[1][0]
    racks = good_racks()
    racks[3][0] = racks[0][0]
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_3"]
    assert error.error_dict["rack_3"][0].code == "tile-already-played"


def test_more_tiles_than_the_hand_and_the_pool_allow_are_refused(tournament, referee):
    match = match_at(tournament=tournament)
    blocked(match, referee)
    racks = good_racks()
    racks[0].append(racks[1].pop())  # 13 tiles: 12 in hand, the pool is empty
    error = refused(match, referee, racks)
    assert list(error.error_dict) == ["rack_0"]
    assert error.error_dict["rack_0"][0].code == "rack-impossible"


def test_a_rack_short_of_tiles_is_still_taken_and_flagged(tournament, referee):
    """Fewer tiles than expected can happen (a tile not noted): kept, shown as a mismatch."""
    match = match_at(tournament=tournament)
    blocked(match, referee)
    racks = good_racks()
    racks[0] = racks[0][:-1]
    enter(match, referee, racks)
    codes = [p.code for p in replay(match).rounds[0].problems]
    assert codes.count("rack-mismatch") == 1 and "false-block" in codes
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)


def test_a_round_whose_settlement_claim_differs_cannot_be_confirmed(tournament, referee):
    match = match_at(tournament=tournament)
    blocked(match, referee)
    enter(match, referee, good_racks(), settlement_claimed=[0, 0, 0, 0])
    assert "settlement-mismatch" in [p.code for p in replay(match).rounds[0].problems]
    with pytest.raises(ValidationError) as error:
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=0)
    assert error.value.code == "open_problems"
    assert Round.objects.get(match=match, index=0).confirmed_at is None
