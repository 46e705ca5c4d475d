"""Every write that changes what a page shows raises its tournament's data version, in its own
transaction (tournament/core/freshness.py): the kept pages and PDFs are keyed on it; every write
but a turn that changes no match's state raises its results version too. The pages themselves
are read around every write in test_page_versions.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import BOTH_CACHES
from tests.factories import (
    add,
    board_turn,
    confirmed_match,
    match_at,
    matches_confirmed,
    played_record,
    recorded_match,
)
from tests.tournament.tournaments import settings_of
from tournament.core.tournaments import staff_role_grant
from tournament.models import Match, Player, Registration, StaffRole, Tournament
from tournament.organiser import services as organiser
from tournament.organiser.services.staff import staff_role_revoke
from tournament.seating import services as seating
from tournament.sessions.services import session_close, session_create, session_start

pytestmark = [pytest.mark.django_db, *BOTH_CACHES]

APP = Path(__file__).resolve().parents[2] / "tournament"


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).data_version


def results_version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).results_version


def registration(tournament) -> Registration:
    return Registration.objects.filter(tournament=tournament).select_related("player").first()


def two_seated(tournament) -> tuple[Player, Player]:
    session = tournament.sessions.get(number=1)
    seats = session.seats.order_by("table__number", "order")
    return seats.first().player, seats.last().player


WRITES = {
    "settings": lambda t, user: organiser.tournament_update(**settings_of(t, venue="Hall 2")),
    "a player added": lambda t, user: organiser.player_add(tournament=t, name="Zoé"),
    "players imported": lambda t, user: organiser.players_import_csv(
        tournament=t, text="Yann,Club Y\nXavier,Club X\n"),
    "a player corrected": lambda t, user: organiser.registration_update(
        registration=registration(t), name="Renamed", club="Club A"),
    "a withdrawal": lambda t, user: organiser.registration_withdraw(registration=registration(t)),
    "a session opened": lambda t, user: session_create(tournament=t),
    "a session started": lambda t, user: session_start(session=t.sessions.get()),
    "a seating drawn again": lambda t, user: seating.session_seat(session=t.sessions.get()),
    "a swap": lambda t, user: seating.seating_swap(
        session=t.sessions.get(), player_a=two_seated(t)[0], player_b=two_seated(t)[1]),
    "a referee named": lambda t, user: staff_role_grant(
        tournament=t, user=user, role=StaffRole.Role.REFEREE),
}


@pytest.mark.parametrize("write", WRITES)
def test_each_write_raises_the_version(tournament, make_user, write):
    user = make_user("rita")
    before, results_before = version(tournament), results_version(tournament)
    WRITES[write](tournament, user)
    assert version(tournament) > before
    assert results_version(tournament) > results_before


def test_a_withdrawn_player_brought_back_and_a_role_revoked(tournament, make_user):
    entry = registration(tournament)
    organiser.registration_withdraw(registration=entry)
    before = version(tournament)
    organiser.registration_reinstate(registration=entry)
    assert version(tournament) > before
    role = staff_role_grant(tournament=tournament, user=make_user("rita"),
                                     role=StaffRole.Role.REFEREE)
    before = version(tournament)
    staff_role_revoke(staff_role=role)
    assert version(tournament) > before


def test_a_session_closed(tournament):
    session = tournament.sessions.get()
    session_start(session=session)
    matches_confirmed(tournament=tournament)
    before = version(tournament)
    session_close(session=session)
    assert version(tournament) > before


def test_a_player_renamed_raises_every_tournament_they_play_in(tournament, make_tournament):
    other = make_tournament(slug="autumn-open", sessions=0)
    player = registration(tournament).player
    Registration.objects.create(tournament=other, player=player)
    before = version(other)
    organiser.registration_update(registration=registration(tournament), name="Renamed")
    assert version(other) > before


def test_a_refused_write_raises_nothing(tournament):
    before = version(tournament)
    with pytest.raises(ValidationError):
        session_close(session=tournament.sessions.get())
    assert version(tournament) == before


def state_revision(match) -> int:
    return Match.objects.get(pk=match.pk).state_revision


def test_a_match_write_moves_its_state_when_its_state_moves_and_the_results_on_confirmation(
        tournament, referee):
    """The first turn (not started: in play) moves the match's state, not the results (the
    standings show confirmed matches only); a turn in the middle of a round moves neither;
    the match's confirmation moves both; a correction of the confirmed match, both again."""
    session_start(session=tournament.sessions.get())
    match = match_at(tournament=tournament)
    turns = played_record(match=match, seed=3)["rounds"][0]["turns"]
    steps = [
        ("the first turn", lambda: add(match, referee, board_turn(turns[0])), True, False),
        ("a turn in play", lambda: add(match, referee, board_turn(turns[1])), False, False),
        ("another", lambda: add(match, referee, board_turn(turns[2])), False, False),
    ]
    for step, write, moves_state, moves_results in steps:
        before, results_before = version(tournament), results_version(tournament)
        state_before = state_revision(match)
        write()
        assert version(tournament) > before, step
        assert (results_version(tournament) > results_before) == moves_results, step
        assert (state_revision(match) > state_before) == moves_state, step
        assert state_revision(match) <= Match.objects.get(pk=match.pk).revision, step


def test_a_match_that_ends_unconfirmed_moves_its_state_not_the_results(tournament, referee):
    session_start(session=tournament.sessions.get())
    match = match_at(tournament=tournament, table=2)
    results_before = results_version(tournament)
    recorded_match(match=match, user=referee, seed=4)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert results_version(tournament) == results_before
    assert match.state_revision == match.revision


def test_a_confirmation_raises_the_results_version(tournament, referee):
    session_start(session=tournament.sessions.get())
    match = match_at(tournament=tournament)
    add(match, referee, board_turn(played_record(match=match, seed=3)["rounds"][0]["turns"][0]))
    results_before = results_version(tournament)
    other = match_at(tournament=tournament, table=2)
    confirmed_match(match=other, user=referee, seed=4)
    assert results_version(tournament) > results_before
    other.refresh_from_db()
    assert other.state_revision == other.revision > 0


def test_a_match_write_locks_the_tournament_row_for_its_commit_alone(tournament, referee):
    """Every table's writes raise the one tournament row, whose lock is held from that UPDATE
    to the commit: the raise is the write's last statement, after the turn, the figures and
    the audit entries, so tables wait on each other for a commit, not for a write's work."""
    session_start(session=tournament.sessions.get())
    match = match_at(tournament=tournament)
    turns = played_record(match=match, seed=3)["rounds"][0]["turns"]
    add(match, referee, board_turn(turns[0]))
    with CaptureQueriesContext(connection) as queries:
        add(match, referee, board_turn(turns[1]))
    statements = [query["sql"] for query in queries.captured_queries
                  if "SAVEPOINT" not in query["sql"]]
    raised = [index for index, sql in enumerate(statements)
              if sql.startswith('UPDATE "tournament_tournament"')]
    assert raised, statements
    assert raised[-1] == len(statements) - 1, statements[raised[-1]:]
    assert any(sql.startswith('INSERT INTO "tournament_auditentry"')
               for sql in statements[:raised[-1]])


@pytest.mark.django_db(False)
def test_only_the_tournament_write_raises_a_version():
    """No module raises a version by hand: ``tournament_write`` is the one way."""
    raising = re.compile(
        r"""F\(["'](data|results)_version["']\)|state_revision=|freshness\.touch\(""")
    found = sorted(str(path.relative_to(APP.parent)) for package in ("tournament", "bench")
                   for path in (APP.parent / package).rglob("*.py")
                   if "migrations" not in path.parts and raising.search(path.read_text()))
    assert found == ["tournament/core/freshness.py"]


def test_a_write_that_changed_nothing_raises_nothing(tournament):
    """A check-in marked as it was, a tournament write that says so, a refused one."""
    from tournament.core.freshness import tournament_write

    before = version(tournament), results_version(tournament)
    with tournament_write(tournament_id=tournament.pk) as write:
        write.nothing_changed()
    with pytest.raises(ValidationError), tournament_write(tournament_id=tournament.pk):
        Tournament.objects.filter(pk=tournament.pk).update(venue="Written, then rolled back")
        raise ValidationError("refused")
    assert (version(tournament), results_version(tournament)) == before
    assert Tournament.objects.get(pk=tournament.pk).venue != "Written, then rolled back"
    with pytest.raises(RuntimeError), tournament_write():
        pass  # names no tournament
