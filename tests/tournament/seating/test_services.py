"""Seating a session in the database: who is seated, from which standings, redraws, swaps."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError

from tests.factories import confirmed_match, match_at, matches_confirmed
from tournament.models import Match, Registration, Seat, Session
from tournament.organiser.services import player_add
from tournament.seating.selectors import session_repeat_pairs, session_seating
from tournament.seating.services import seating_swap, session_seat
from tournament.sessions.services import session_close, session_create, session_start

# The services' messages in English (the pages' tests ask for their language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@contextmanager
def refused_with(code: str):
    """The block raises a ValidationError of this code (the only one, or a field's)."""
    with pytest.raises(ValidationError) as refused:
        yield
    error = refused.value
    codes = ([item.code for items in error.error_dict.values() for item in items]
             if hasattr(error, "error_dict") else [item.code for item in error.error_list])
    assert codes == [code]


@pytest.fixture
def cup(make_tournament):
    """11 players registered, no session yet."""
    return make_tournament(slug="cup", players=11, sessions=0)


def finished_in_seat_order(session) -> None:
    """The session started, each table's match confirmed with the seat order as the finishing
    order (400, 300, 200, 100), the session closed."""
    session_start(session=session)
    for table in session_seating(session=session):
        match = match_at(tournament=session.tournament, session=session.number,
                         table=table["number"])
        confirmed_match(match=match,
                        totals=[400 - 100 * seat for seat in range(len(table["players"]))])
    session_close(session=session)


def seated_ids(session) -> list[int]:
    return list(Seat.objects.filter(session=session).values_list("player_id", flat=True))


def table_sizes(session) -> list[int]:
    return [len(table["players"]) for table in session_seating(session=session)]


def test_session_one_seats_every_active_player_once(cup):
    session = session_create(tournament=cup, seed=7)
    seating = session_seat(session=session)
    session.refresh_from_db()
    assert session.status == Session.Status.SEATED and session.seed == 7
    registered = set(cup.registrations.values_list("player_id", flat=True))
    assert Counter(seated_ids(session)) == Counter(registered)
    assert table_sizes(session) == [4, 4, 3]
    assert Match.objects.filter(table__session=session, status="pending").count() == 3
    assert [list(table) for table in seating.tables] == [
        [player["player_id"] for player in table["players"]]
        for table in session_seating(session=session)
    ]


def test_late_arrivals_and_withdrawals(cup):
    registrations = list(cup.registrations.order_by("pk"))
    Registration.objects.filter(pk=registrations[0].pk).update(status="withdrawn")
    Registration.objects.filter(pk=registrations[1].pk).update(status="late", first_session=2)
    one = session_create(tournament=cup)
    session_seat(session=one)
    assert registrations[0].player_id not in seated_ids(one)
    assert registrations[1].player_id not in seated_ids(one)
    assert table_sizes(one) == [3, 3, 3]
    matches_confirmed(tournament=cup)
    session_close(session=one)
    two = session_create(tournament=cup)
    session_seat(session=two)
    assert registrations[1].player_id in seated_ids(two)
    assert registrations[0].player_id not in seated_ids(two)
    assert table_sizes(two) == [4, 3, 3]


def test_the_same_seed_gives_the_same_seating_and_a_redraw_replaces_it(cup):
    session = session_create(tournament=cup, seed=3)
    first = session_seat(session=session)
    again = session_seat(session=session)  # a seated session that has not started: redrawn
    assert again.tables == first.tables
    other = session_seat(session=session, seed=4)
    assert other.tables != first.tables
    session.refresh_from_db()
    assert session.seed == 4 and session.tables.count() == 3
    assert Seat.objects.filter(session=session).count() == 11


def test_later_sessions_wait_for_the_earlier_ones_and_follow_the_standings(make_tournament):
    cup = make_tournament(slug="sixteen", players=16, sessions=0)
    one = session_create(tournament=cup, seed=1)
    session_seat(session=one)
    two = session_create(tournament=cup, seed=2)
    with refused_with("earlier-not-closed"):
        session_seat(session=two)
    # Session 1's results: at each table, the seat order is the finishing order.
    finished_in_seat_order(one)
    seating = session_seat(session=two)
    assert seating.by_standing and seating.repeat_pairs == 0
    # The four winners of session 1 (they have not met) sit at table 1 of session 2, the
    # four last at table 4.
    tables_one = session_seating(session=one)
    assert set(seating.tables[0]) == {table["players"][0]["player_id"] for table in tables_one}
    assert set(seating.tables[3]) == {table["players"][3]["player_id"] for table in tables_one}
    assert session_repeat_pairs(session=two) == []


def test_a_repeat_is_kept_only_when_unavoidable(cup):
    """11 players: 4 + 4 + 3 twice. A table of 4 in session 2 needs players from four tables
    of session 1, which has three: each table of 4 keeps one pair, no more."""
    one = session_create(tournament=cup, seed=1)
    session_seat(session=one)
    finished_in_seat_order(one)
    two = session_create(tournament=cup, seed=2)
    assert session_seat(session=two).repeat_pairs == 2
    assert len(session_repeat_pairs(session=two)) == 2


def test_clubs_are_kept_apart_in_session_one_when_asked(make_tournament):
    tournament = make_tournament(slug="clubs", players=12, sessions=0)  # clubs A, B, C by 4
    tournament.keep_clubs_apart = True
    tournament.save()
    session = session_create(tournament=tournament, seed=5)
    session_seat(session=session)
    for table in session_seating(session=session):
        clubs = [player["club"] for player in table["players"]]
        assert len(set(clubs)) == len(clubs) == 4 or len(set(clubs)) == 3


@pytest.mark.parametrize("players, sizes", [(2, [2]), (3, [3]), (4, [4]), (5, [3, 2]), (6, [3, 3])])
def test_small_head_counts(make_tournament, players, sizes):
    tournament = make_tournament(slug=f"small-{players}", players=players, sessions=0)
    session = session_create(tournament=tournament)
    session_seat(session=session)
    assert table_sizes(session) == sizes


def test_fewer_than_two_players_cannot_be_seated(make_tournament):
    tournament = make_tournament(slug="alone", players=1, sessions=0)
    session = session_create(tournament=tournament)
    with refused_with("too-few-players"):
        session_seat(session=session)
    assert not session.tables.exists()


def test_a_started_session_cannot_be_redrawn(cup):
    session = session_create(tournament=cup)
    session_seat(session=session)
    Session.objects.filter(pk=session.pk).update(status="playing")
    before = seated_ids(session)
    with refused_with("started"):
        session_seat(session=session, seed=99)
    assert seated_ids(session) == before


def test_a_redraw_is_refused_once_a_match_has_begun(cup):
    session = session_create(tournament=cup)
    session_seat(session=session)
    Match.objects.filter(table__session=session, table__number=2).update(status="playing")
    with refused_with("match-begun"):
        session_seat(session=session, seed=99)


def test_swap_two_players(cup):
    session = session_create(tournament=cup, seed=2)
    session_seat(session=session)
    tables = session_seating(session=session)
    a, b = tables[0]["players"][1], tables[2]["players"][0]
    players = {r.player_id: r.player for r in cup.registrations.select_related("player")}
    seating_swap(session=session, player_a=players[a["player_id"]], player_b=players[b["player_id"]])
    after = session_seating(session=session)
    assert after[0]["players"][1]["player_id"] == b["player_id"]
    assert after[2]["players"][0]["player_id"] == a["player_id"]
    assert Counter(seated_ids(session)) == Counter(list(players))


def test_swap_refusals(cup):
    session = session_create(tournament=cup)
    players = [r.player for r in cup.registrations.select_related("player").order_by("pk")]
    with refused_with("not-seated"):
        seating_swap(session=session, player_a=players[0], player_b=players[1])
    session_seat(session=session)
    with refused_with("same-player"):
        seating_swap(session=session, player_a=players[0], player_b=players[0])
    outsider = player_add(tournament=cup, name="Late Lou", first_session=2).player
    with pytest.raises(ValidationError) as refused:
        seating_swap(session=session, player_a=players[0], player_b=outsider)
    assert refused.value.error_dict["player_b"][0].code == "not-seated-player"
    Session.objects.filter(pk=session.pk).update(status="playing")
    with refused_with("started"):
        seating_swap(session=session, player_a=players[0], player_b=players[1])


def test_repeat_pairs_are_listed(make_tournament):
    tournament = make_tournament(slug="again", players=8, sessions=2)  # rotated by one
    two = tournament.sessions.get(number=2)
    repeats = session_repeat_pairs(session=two)
    # Session 1: players 1-4 and 5-8; session 2: 2-5 and 6-8,1: 2-3-4 and 6-7-8 meet again.
    assert len(repeats) == 6
    assert {repeat["table"] for repeat in repeats} == {1, 2}
    assert all(repeat["times"] == 1 for repeat in repeats)


@pytest.mark.parametrize("players", [8, 40])
def test_seating_stores_every_table_in_the_same_number_of_queries(make_tournament, players,
                                                                 django_assert_num_queries):
    tournament = make_tournament(slug=f"count-{players}", players=players, sessions=0)
    session = session_create(tournament=tournament, seed=1)
    with django_assert_num_queries(19):  # not three more per table; the data version raised
        session_seat(session=session)
    assert table_sizes(session) == [4] * (players // 4)
    assert Match.objects.filter(table__session=session).count() == players // 4
