"""The seating algorithm, pure: table sizes, everyone seated once, repeats avoided, seeded."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tournament.seating.algorithm import (
    W_REPEAT,
    SeatingError,
    SeatingPlayer,
    meetings,
    pair,
    seating_draw,
    table_sizes,
)
from tournament.seating.simulation import seating_simulate


@pytest.mark.parametrize("count", range(2, 41))
def test_table_sizes_for_every_head_count(count):
    sizes = table_sizes(count)
    assert sum(sizes) == count
    if count >= 6:
        assert set(sizes) <= {3, 4}
        assert sizes.count(3) == (4 - count % 4) % 4  # as few tables of 3 as possible
        assert sizes == sorted(sizes, reverse=True)
    elif count <= 4:
        assert sizes == [count]
    else:
        assert sizes == [3, 2]


def test_table_sizes_with_a_rule_set_of_six():
    assert table_sizes(5, max_players=6) == [5]
    assert table_sizes(6, max_players=6) == [3, 3]  # from 6 players: tables of 4 and 3


@pytest.mark.parametrize("count", [0, 1])
def test_fewer_than_two_players_is_an_error(count):
    with pytest.raises(SeatingError, match="at least 2"):
        table_sizes(count)


@pytest.mark.parametrize("count", range(2, 41))
def test_every_player_is_seated_exactly_once(count):
    players = [SeatingPlayer(id=100 + number, club=f"C{number % 3}") for number in range(count)]
    seating = seating_draw(players=players, seed=count, keep_clubs_apart=True)
    seated = [player_id for table in seating.tables for player_id in table]
    assert sorted(seated) == [player.id for player in players]
    assert [len(table) for table in seating.tables] == table_sizes(count)


def test_every_player_is_seated_once_with_standings_and_meetings():
    players = [SeatingPlayer(id=number, rank=(number + 1) // 2) for number in range(1, 24)]
    met = meetings([(1, 2, 3, 4), (5, 6, 7), (1, 5, 9, 13)])
    seating = seating_draw(players=players, seed=4, met=met)
    assert Counter(p for table in seating.tables for p in table) == Counter(range(1, 24))
    assert [len(table) for table in seating.tables] == [4, 4, 4, 4, 4, 3]


def test_the_same_seed_gives_the_same_seating_whatever_the_input_order():
    players = [SeatingPlayer(id=number, club=f"C{number % 4}", rank=number % 7 + 1)
               for number in range(1, 30)]
    met = meetings([(1, 2, 3, 4), (5, 6, 7, 8)])
    first = seating_draw(players=players, seed=11, met=met, keep_clubs_apart=True)
    shuffled = players[:]
    random.Random(3).shuffle(shuffled)
    again = seating_draw(players=shuffled, seed=11, met=dict(reversed(met.items())),
                         keep_clubs_apart=True)
    assert again == first
    other = seating_draw(players=players, seed=12, met=met, keep_clubs_apart=True)
    assert other.tables != first.tables


def test_the_seat_order_is_drawn_too():
    players = [SeatingPlayer(id=number) for number in range(1, 5)]
    orders = {seating_draw(players=players, seed=seed).tables[0] for seed in range(30)}
    assert len(orders) > 5  # not always the same clockwise order


def test_later_sessions_seat_the_leaders_together():
    players = [SeatingPlayer(id=number, rank=number) for number in range(1, 17)]
    seating = seating_draw(players=players, seed=1)
    assert [sorted(table) for table in seating.tables] == [
        [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]
    ]
    assert seating.spread == 4 * 3 and seating.repeat_pairs == 0


def test_a_repeat_is_avoided_by_a_swap_with_the_next_table():
    players = [SeatingPlayer(id=number, rank=number) for number in range(1, 9)]
    seating = seating_draw(players=players, seed=1, met=meetings([(1, 2)]))
    assert seating.repeat_pairs == 0
    table_of = {p: index for index, table in enumerate(seating.tables) for p in table}
    assert table_of[1] != table_of[2]
    # the cheapest way: 2 (or 1) swaps with a player of the second table
    assert seating.spread <= 3 + 3 + 2 * 4


def test_players_of_a_club_are_kept_apart_in_session_one():
    players = [SeatingPlayer(id=number, club=f"Club {number % 4}") for number in range(16)]
    seating = seating_draw(players=players, seed=5, keep_clubs_apart=True)
    assert seating.club_pairs == 0
    for table in seating.tables:
        assert len({number % 4 for number in table}) == 4
    loose = seating_draw(players=players, seed=5)
    assert loose.club_pairs == 0  # not counted when not asked for


def partitions(items, sizes):
    """Every way to cut ``items`` into tables of the given sizes (order ignored)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            remaining = [item for item in rest if item not in companions]
            for partition in partitions(remaining, left):
                yield [(first, *companions), *partition]


def repeats(tables, met) -> int:
    """Earlier meetings of the pairs seated together, each counted as many times as it met."""
    return sum(met.get(pair(a, b), 0) for table in tables for a, b in itertools.combinations(table, 2))


def random_case(case: int):
    rng = random.Random(case)
    count = rng.randint(6, 10)
    ids = list(range(1, count + 1))
    earlier = []
    for _session in range(rng.randint(1, 2)):
        rng.shuffle(ids)
        start = 0
        for size in table_sizes(count):
            earlier.append(tuple(ids[start : start + size]))
            start += size
    ranked = case % 2 == 0
    players = [SeatingPlayer(id=number, rank=rng.randint(1, count) if ranked else None)
               for number in range(1, count + 1)]
    return players, meetings(earlier)


@pytest.mark.parametrize("case", range(40))
def test_repeats_are_as_few_as_brute_force_finds(case):
    """Small cases, with and without standings: the fewest repeats any seating could have.

    Up to 12 players the whole spread of standings weighs less than one repeat (W_REPEAT), so
    the optimum is the brute-force one; in particular no repeat is kept when one is avoidable.
    """
    players, met = random_case(case)
    ids = [player.id for player in players]
    fewest = min(repeats(tables, met) for tables in partitions(ids, table_sizes(len(ids))))
    seating = seating_draw(players=players, seed=case, met=met)
    assert repeats(seating.tables, met) == fewest
    assert (seating.repeat_pairs == 0) == (fewest == 0)
    assert len(ids) * (len(table_sizes(len(ids))) - 1) < W_REPEAT  # the claim above holds


def test_sixteen_players_meet_no_one_twice_in_the_first_three_sessions():
    figures = seating_simulate(players=16, sessions=3, seed=0)
    assert [session.repeat_pairs for session in figures] == [0, 0, 0]


def test_sixty_four_players_meet_no_one_twice_in_eight_sessions():
    figures = seating_simulate(players=64, sessions=8, seed=0)
    assert sum(session.repeat_pairs for session in figures) == 0
    assert all(session.tables == 16 for session in figures)


def test_the_docstring_examples():
    import doctest

    from tournament.seating import algorithm
    from tournament.standings import ranking

    for module in (algorithm, ranking):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
