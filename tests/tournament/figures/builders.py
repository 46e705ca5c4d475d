"""Tournaments built from a drawn plan through the services (``tests/factories.py``'s
builders and the sessions', seating's, final's and organiser's services), for the check of
every figure. A plan (``tournament_plans()``): players with clubs and categories, ranking
criteria, a check-in rule with absences, sessions seated in a drawn order, tables whose totals
are drawn from a few values (so that ties come often: at a table, in the standings, at the
final's cut line), a withdrawal, a final of 4 or 8, corrections of a confirmed match before
and after the final (a session reopened with a reason, a turn corrected, the match confirmed
again, the session closed)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from hypothesis import strategies as st

from tests.factories import confirmed_match, fresh, match_at, rounds_confirmed
from tournament import engine
from tournament.core.tournaments import tournament_create
from tournament.matches.services import TurnInput, match_turn_correct, match_turn_decide
from tournament.models import CheckInRule, Registration, Session, Tournament, Turn
from tournament.organiser.services import player_add, tournament_update
from tournament.organiser.services.registrations import registration_withdraw
from tournament.seating.final import final_open
from tournament.seating.services import session_seat, session_seat_players
from tournament.sessions.services import (
    check_in_mark,
    session_close,
    session_create,
    session_reopen,
    session_start,
)

CRITERIA = ["match_points", "table_wins", "total_points", "share", "best_match", "opponents"]
#: Few values, so that players tie (at a table, in the standings, at the final's cut line).
TOTALS = [40, 70, 70, 100]
CLUBS = ["Club A", " club a", "Club B", "Club C", ""]
CATEGORIES = ["Women", "Juniors"]


def tables_of(count: int) -> list[int]:
    """Tables of 2 to 4 for ``count`` players, as even as can be."""
    tables = -(-count // 4)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


@dataclass
class Plan:
    players: list[tuple[str, list[str]]]  # club, categories
    criteria: list[str]
    check_in: str
    team_size: int
    team_criterion: str
    prize_count: int
    sessions: list[dict]  # order (a permutation), absent (indices), totals (per table)
    withdraw: tuple[int, int] | None  # after session n, player index
    final_size: int
    final_totals: list[list[int] | None]
    #: (qualifying session number, seat at its table 1, points added to the seat's total)
    corrections_before: list[tuple[int, int, int]]
    corrections_after: list[tuple[int, int, int]]


@st.composite
def tournament_plans(draw, *, final: bool) -> Plan:
    final_size = draw(st.sampled_from([4, 8])) if final else 0
    count = draw(st.integers(9 if final_size == 8 else 8, 11))
    players = [(draw(st.sampled_from(CLUBS)),
                draw(st.lists(st.sampled_from(CATEGORIES), unique=True, max_size=2)))
               for _ in range(count)]
    criteria = draw(st.permutations(CRITERIA))[: draw(st.integers(1, 3))]
    check_in = draw(st.sampled_from([CheckInRule.OFF, CheckInRule.FORFEIT, CheckInRule.UNRANKED]))
    session_count = draw(st.integers(1, 3))
    sessions = []
    for number in range(1, session_count + 1):
        absent = (draw(st.lists(st.integers(0, count - 1), unique=True, max_size=2))
                  if check_in != CheckInRule.OFF and number > 1 else [])
        order = draw(st.permutations(range(count)))
        sizes = tables_of(count)  # at most; the tables of those present are drawn below
        totals = [None] + [draw(st.one_of(st.none(), st.lists(
            st.sampled_from(TOTALS), min_size=4, max_size=4))) for _ in sizes[1:]]
        sessions.append({"order": order, "absent": absent, "totals": totals})
    withdraw = None
    if session_count > 1 and draw(st.booleans()):
        withdraw = (draw(st.integers(1, session_count - 1)), draw(st.integers(0, count - 1)))
    numbers = list(range(1, session_count + 1))
    return Plan(
        players=players, criteria=criteria, check_in=check_in,
        team_size=draw(st.integers(1 if final else 0, 3)),
        team_criterion=draw(st.sampled_from(CRITERIA)),
        prize_count=draw(st.integers(1, 3)),
        sessions=sessions, withdraw=withdraw, final_size=final_size,
        final_totals=[draw(st.one_of(st.none(), st.lists(st.sampled_from(TOTALS), min_size=4,
                                                          max_size=4))) for _ in range(2)],
        corrections_before=draw(st.lists(corrections(numbers), max_size=1)),
        corrections_after=(draw(st.lists(corrections(numbers), min_size=1, max_size=2))
                           if final else []),
    )


def corrections(numbers: list[int]):
    """A correction: a session, a seat at its table 1, the points the seat's claim gains."""
    return st.tuples(st.sampled_from(numbers), st.integers(0, 3), st.sampled_from([5, 150]))


def _play(session: Session, totals: list[list[int] | None]) -> None:
    session = session_start(session=session)
    tournament = session.tournament
    for number in range(1, session.tables.count() + 1):
        match = match_at(tournament=tournament, session=session.number, table=number)
        wanted = totals[number - 1] if number - 1 < len(totals) else None
        seats = match.table.seats.count()
        confirmed_match(match=match, totals=None if wanted is None else wanted[:seats])
    session_close(session=session)


def _corrected(tournament: Tournament, correction: tuple[int, int, int]) -> None:
    """A confirmed match corrected as an organiser and a referee do: the session reopened with
    a reason, the last tile the seat placed at table 1 claimed for ``points`` more (a turn
    corrected, the referee keeping the claim), the match confirmed again, the session
    closed."""
    number, seat, points = correction
    session = tournament.sessions.get(number=number)
    session_reopen(session=session, user=None, reason="a claim written wrong")
    match = match_at(tournament=tournament, session=number, table=1)
    row = (Turn.objects.current().filter(round__match=match, player=seat, cell_x__isnull=False)
           .order_by("-round__index", "-index").first())
    if row is not None:
        turn = TurnInput(
            player=row.player, draws=row.draws, tile=row.tile,
            cell=engine.Cell(row.cell_x, row.cell_y, row.cell_orientation),
            corners=tuple(int(value) for value in row.corners.split("-")),
            bonus_claimed=row.bonus_claimed, points_claimed=row.points + points)
        match = fresh(match)
        saved = match_turn_correct(match=match, user=None, seen_revision=match.revision,
                                   turn_id=row.pk, turn=turn, reason="claim written wrong").saved
        match = fresh(match)
        match_turn_decide(match=match, user=None, seen_revision=match.revision,
                          turn_id=saved.pk, decision="claim", reason="agreed at the table")
    rounds_confirmed(match=fresh(match))
    session_close(session=tournament.sessions.get(number=number))


def tournament_built(plan: Plan, *, slug: str) -> Tournament:
    """The tournament of ``plan``, played through the services."""
    tournament = tournament_create(name=slug.title(), slug=slug, start_date=datetime.date(
        2025, 5, 17), match_rounds=1, check_in=plan.check_in, final_size=plan.final_size)
    tournament = tournament_update(
        tournament=tournament, name=tournament.name, start_date=tournament.start_date,
        end_date=None, venue="", rules=tournament.rules, target=None,
        ranking_criteria=plan.criteria, keep_clubs_apart=False, is_public=True,
        match_rounds=1, team_size=plan.team_size, team_criterion=plan.team_criterion,
        prize_count=plan.prize_count)
    players = [
        player_add(tournament=tournament, name=f"Player {index:02d}", club=club,
                   categories=categories).player
        for index, (club, categories) in enumerate(plan.players)
    ]
    withdrawn: set[int] = set()
    for number, session_plan in enumerate(plan.sessions, start=1):
        present = [index for index in session_plan["order"]
                   if index not in withdrawn and index not in session_plan["absent"]]
        session = session_create(tournament=tournament, seed=number)
        if plan.check_in != CheckInRule.OFF:
            for index in present:
                check_in_mark(session=session, player=players[index], present=True, user=None)
        tables, start = [], 0
        for size in tables_of(len(present)):
            tables.append([players[index] for index in present[start:start + size]])
            start += size
        session_seat_players(session=session, tables=tables)
        _play(session, session_plan["totals"])
        if plan.withdraw is not None and plan.withdraw[0] == number:
            index = plan.withdraw[1]
            registration_withdraw(registration=Registration.objects.get(
                tournament=tournament, player=players[index]))
            withdrawn.add(index)
    for correction in plan.corrections_before:
        _corrected(tournament, correction)
    if plan.final_size:
        final = final_open(tournament=tournament)
        session_seat(session=final, seed=7)
        _play(final, plan.final_totals)
        for correction in plan.corrections_after:
            _corrected(tournament, correction)
    return Tournament.objects.get(pk=tournament.pk)
