"""Session 1 seated by rating: the strongest spread across the tables (snake order) or
together from table 1, the table sizes kept, reproducible from the seed; through the
service and the organiser's page."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError

from tests.factories import matches_confirmed
from tests.pages import by_id, has_id, messages
from tournament.core.tournaments import staff_role_grant
from tournament.models import PlayerRating, Seat, SeatingMethod, Session
from tournament.ratings.model import INITIAL, Skill
from tournament.seating.algorithm import (
    RANDOM,
    RATING_GROUPED,
    RATING_SPREAD,
    SeatingError,
    SeatingPlayer,
    seating_draw,
    snake_deal,
    table_sizes,
)
from tournament.seating.selectors import session_seating
from tournament.seating.services import session_seat
from tournament.sessions.services import session_close, session_create, session_start

COUNTS = [5, 6, 7, 8, 11, 12, 13, 17, 22, 40]


def rated_players(count: int, *, seed: int = 0, clubs: int = 0) -> list[SeatingPlayer]:
    """``count`` players with distinct ratings in a shuffled id order (clubs "C0".. if any)."""
    rng = random.Random(seed)
    ratings = rng.sample(range(-500, 2500), count)
    return [
        SeatingPlayer(id=100 + index, club=f"C{index % clubs}" if clubs else "",
                      rating=rating / 100)
        for index, rating in enumerate(ratings)
    ]


def strongest_first(players: list[SeatingPlayer]) -> list[int]:
    return [player.id for player in sorted(players, key=lambda player: -player.rating)]


# --- the algorithm ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("method", [RATING_SPREAD, RATING_GROUPED])
def test_the_table_sizes_are_the_random_draws(count, method):
    players = rated_players(count, seed=count)
    seating = seating_draw(players=players, seed=3, method=method)
    assert [len(table) for table in seating.tables] == table_sizes(count)
    assert sorted(player for table in seating.tables for player in table) == sorted(
        player.id for player in players)
    assert seating.method == method and not seating.by_standing


@pytest.mark.parametrize("count", COUNTS)
def test_spread_puts_one_of_each_tier_at_every_table(count):
    players = rated_players(count, seed=count)
    seating = seating_draw(players=players, seed=5, method=RATING_SPREAD)
    tables = len(seating.tables)
    order = strongest_first(players)
    table_of = {player: number for number, table in enumerate(seating.tables) for player in table}
    # The T strongest lead the T tables, table 1 the strongest; each tier of T is spread.
    assert [min(table, key=order.index) for table in seating.tables] == order[:tables]
    for start in range(0, count, tables):
        tier = order[start : start + tables]
        assert len({table_of[player] for player in tier}) == len(tier)


def test_spread_deals_serpentine_wise():
    # 11 players at 4, 4, 3: 1 2 3 | 3 2 1 | 1 2 3 | (3 full) 2 1
    tables, tiers = snake_deal(list(range(11)), [4, 4, 3])
    assert tables == [[0, 5, 6, 10], [1, 4, 7, 9], [2, 3, 8]]
    assert [tiers[player] for player in range(11)] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
    with pytest.raises(SeatingError):
        snake_deal(list(range(5)), [4, 4])


@pytest.mark.parametrize("count", COUNTS)
def test_grouped_puts_the_strongest_together_from_table_1(count):
    players = rated_players(count, seed=count)
    seating = seating_draw(players=players, seed=5, method=RATING_GROUPED)
    order = strongest_first(players)
    start = 0
    for table in seating.tables:
        assert set(table) == set(order[start : start + len(table)])
        start += len(table)


@pytest.mark.parametrize("method", [RANDOM, RATING_SPREAD, RATING_GROUPED])
def test_the_same_seed_gives_the_same_seating(method):
    players = rated_players(17, seed=1, clubs=4)
    first = seating_draw(players=players, seed=9, method=method, keep_clubs_apart=True)
    again = seating_draw(players=list(reversed(players)), seed=9, method=method,
                         keep_clubs_apart=True)
    assert first == again


@pytest.mark.parametrize("method", [RATING_SPREAD, RATING_GROUPED])
def test_ties_are_broken_by_the_seed(method):
    """Unrated players all share the initial rating: the seed orders them, reproducibly."""
    players = [SeatingPlayer(id=index, rating=INITIAL.conservative) for index in range(16)]
    seatings = {seed: seating_draw(players=players, seed=seed, method=method) for seed in range(6)}
    assert len({seating.tables for seating in seatings.values()}) > 1
    assert seatings[2] == seating_draw(players=players, seed=2, method=method)


def test_the_seat_order_at_a_table_is_drawn():
    players = rated_players(8, seed=2)
    orders = {seating_draw(players=players, seed=seed, method=RATING_GROUPED).tables[0]
              for seed in range(8)}
    assert len({frozenset(order) for order in orders}) == 1  # the same four players
    assert len(orders) > 1  # in seat orders that the seed draws


def test_spread_keeps_clubs_apart_within_the_tiers():
    # Ratings by id, 8 players at 2 tables: the snake gives {1, 4, 5, 8} and {2, 3, 6, 7}.
    clubs = {1: "A", 4: "A", 2: "B", 3: "B", 5: "", 6: "", 7: "", 8: ""}
    players = [SeatingPlayer(id=id_, club=club, rating=100 - id_) for id_, club in clubs.items()]
    loose = seating_draw(players=players, seed=1, method=RATING_SPREAD)
    assert loose.club_pairs == 0  # not counted when the clubs are not kept apart
    assert {frozenset(table) for table in loose.tables} == {
        frozenset({1, 4, 5, 8}), frozenset({2, 3, 6, 7})}
    kept = seating_draw(players=players, seed=1, method=RATING_SPREAD, keep_clubs_apart=True)
    assert kept.club_pairs == 0
    # One swap within tier 2 (players 3 and 4): each table still has one of each tier.
    assert {frozenset(table) for table in kept.tables} == {
        frozenset({1, 3, 5, 8}), frozenset({2, 4, 6, 7})}


def test_grouped_keeps_clubs_apart_with_the_neighbouring_table():
    # 12 players, 3 tables; the two strongest of club A would sit at table 1.
    clubs = {1: "A", 2: "A"}
    players = [SeatingPlayer(id=id_, club=clubs.get(id_, ""), rating=100 - id_)
               for id_ in range(1, 13)]
    seating = seating_draw(players=players, seed=4, method=RATING_GROUPED, keep_clubs_apart=True)
    assert seating.club_pairs == 0
    first, second, third = (set(table) for table in seating.tables)
    assert len(first & {1, 2}) == 1  # one of them moved to table 2 ...
    assert first <= {1, 2, 3, 4, 5} and second <= {1, 2, 3, 4, 5, 6, 7, 8, 9}
    assert third == {9, 10, 11, 12}  # ... and no further


def test_a_seating_by_rating_is_for_session_1_only():
    players = [SeatingPlayer(id=index, rank=index) for index in range(1, 9)]
    with pytest.raises(SeatingError, match="^method"):
        seating_draw(players=players, seed=1, method=RATING_SPREAD)
    with pytest.raises(SeatingError, match="^method"):
        seating_draw(players=rated_players(8), seed=1, method="alphabetical")


# --- the service and the organiser's page ----------------------------------------------------


def rate(player_ids: list[int], ratings: list[float | None]) -> None:
    """Current ratings for these players (None: unrated, no row), as the rating history
    leaves them: conservative = mu - 3 sigma."""
    for player_id, rating in zip(player_ids, ratings, strict=True):
        if rating is not None:
            skill = Skill(rating + 15.0, 5.0)
            PlayerRating.objects.create(player_id=player_id, mu=skill.mu, sigma=skill.sigma,
                                        conservative=skill.conservative, matches=3)


@pytest.fixture
def rated_cup(make_tournament, organiser):
    """11 players, no session, the organiser's: ratings 10, 9, ... 3, then two unrated
    (the initial rating, 0), then one below them (-1)."""
    tournament = make_tournament(slug="rated-cup", players=11, sessions=0)
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    ids = list(tournament.registrations.order_by("player__name").values_list("player_id",
                                                                              flat=True))
    rate(ids, [10, 9, 8, 7, 6, 5, 4, 3, None, None, -1])
    tournament.strongest = ids
    return tournament


def leaders(session) -> list[set[int]]:
    return [{player["player_id"] for player in table["players"]}
            for table in session_seating(session=session)]


def test_the_service_seats_by_rating_and_keeps_the_method(rated_cup):
    session = session_create(tournament=rated_cup, seed=11)
    seating = session_seat(session=session, method=SeatingMethod.RATING_GROUPED)
    session.refresh_from_db()
    assert session.seating == SeatingMethod.RATING_GROUPED
    ids = rated_cup.strongest
    tables = leaders(session)
    assert [len(table) for table in tables] == [4, 4, 3]
    assert tables[0] == set(ids[:4]) and tables[1] == set(ids[4:8])
    assert tables[2] == set(ids[8:])  # the unrated two with the one rated below them
    # Drawn again without a method: the session's is kept, with a new seed.
    again = session_seat(session=session, seed=12)
    session.refresh_from_db()
    assert session.seating == SeatingMethod.RATING_GROUPED and again.method == seating.method
    assert leaders(session) == tables


def test_later_sessions_refuse_a_method_by_rating(rated_cup):
    one = session_create(tournament=rated_cup, seed=1)
    session_seat(session=one, method=SeatingMethod.RATING_SPREAD)
    session_start(session=one)
    matches_confirmed(tournament=rated_cup)
    session_close(session=one)
    two = session_create(tournament=rated_cup, seed=2)
    with pytest.raises(ValidationError) as refused:
        session_seat(session=two, method=SeatingMethod.RATING_GROUPED)
    assert refused.value.error_dict["method"][0].code == "rating-after-first"
    two.refresh_from_db()
    assert two.status == Session.Status.DRAFT and two.seating == SeatingMethod.RANDOM
    assert not Seat.objects.filter(session=two).exists()
    session_seat(session=two)  # from the standings, as before
    assert Seat.objects.filter(session=two).count() == 11


def test_the_organiser_seats_session_1_by_rating(organiser_client, rated_cup):
    session = session_create(tournament=rated_cup, seed=5)
    page = organiser_client.get("/t/rated-cup/organise/sessions/1/")
    assert has_id(page, "id_method")
    response = organiser_client.post("/t/rated-cup/organise/sessions/1/seat/",
                                     {"method": "rating-spread"})
    assert response.status_code == 302 and messages(response) == [("success", "")]
    session.refresh_from_db()
    assert session.status == Session.Status.SEATED
    assert session.seating == SeatingMethod.RATING_SPREAD
    ids = rated_cup.strongest
    tables = leaders(session)
    assert [len(table) for table in tables] == [4, 4, 3]
    # Snake order: 1 2 3 | 3 2 1 | 1 2 3 | 2 1, the strongest leading table 1; the two
    # unrated players (8th and 9th, tied) go to tables 3 and 2 in the order the seed draws.
    unrated = {ids[8], ids[9]}
    assert [table - unrated for table in tables] == [
        {ids[0], ids[5], ids[6], ids[10]}, {ids[1], ids[4], ids[7]}, {ids[2], ids[3]}]
    assert len(tables[1] & unrated) == 1 and len(tables[2] & unrated) == 1
    page = organiser_client.get("/t/rated-cup/organise/sessions/1/")
    assert by_id(page, "seating-method").get("data-method") == "rating-spread"
    assert page.context["method_form"].initial["method"] == "rating-spread"


def test_a_bad_method_is_explained_next_to_the_field(organiser_client, rated_cup):
    session_create(tournament=rated_cup, seed=5)
    response = organiser_client.post("/t/rated-cup/organise/sessions/1/seat/",
                                     {"method": "by-age"})
    assert response.status_code == 400
    assert response.context["method_form"].has_error("method", "invalid_choice")
    assert has_id(response, "id_method_error")
    assert not Seat.objects.filter(session__tournament=rated_cup).exists()


def test_session_2_offers_no_method_and_refuses_one_posted(organiser_client, rated_cup):
    one = session_create(tournament=rated_cup, seed=1)
    session_seat(session=one)
    session_start(session=one)
    matches_confirmed(tournament=rated_cup)
    session_close(session=one)
    session_create(tournament=rated_cup, seed=2)
    page = organiser_client.get("/t/rated-cup/organise/sessions/2/")
    assert has_id(page, "draw") and not has_id(page, "id_method")
    response = organiser_client.post("/t/rated-cup/organise/sessions/2/seat/",
                                     {"method": "rating-grouped"})
    assert response.status_code == 400
    assert response.context["method_form"].has_error("method", "rating-after-first")
    assert not Seat.objects.filter(session__number=2).exists()
    response = organiser_client.post("/t/rated-cup/organise/sessions/2/seat/")
    assert response.status_code == 302 and messages(response) == [("success", "")]
    page = organiser_client.get("/t/rated-cup/organise/sessions/2/")
    assert by_id(page, "seating-method").get("data-method") == "standings"
