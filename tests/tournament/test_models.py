"""The database holds the tournament's invariants: these writes must be refused by it, not only
by a form, so each test goes around the services and writes directly."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from tournament.models import (
    AuditEntry,
    AuditEntryRefused,
    Match,
    Player,
    Registration,
    Round,
    RoundEnd,
    Seat,
    Session,
    StaffRole,
    Table,
    Tournament,
    Turn,
)

pytestmark = pytest.mark.django_db


def refused(write) -> bool:
    """True when the database refuses the write (inside a savepoint, so the test goes on)."""
    try:
        with transaction.atomic():
            write()
    except IntegrityError:
        return True
    return False


@pytest.fixture
def session(tournament):
    return tournament.sessions.get(number=1)


@pytest.fixture
def first_round(session):
    match = Match.objects.get(table__session=session, table__number=1)
    return Round.objects.create(match=match, index=0)


def test_a_second_seat_for_a_player_in_a_session_is_refused(session):
    seat = Seat.objects.filter(table__number=1).select_related("player").first()
    other_table = session.tables.get(number=2)
    assert refused(lambda: Seat.objects.create(table=other_table, player=seat.player, order=9))
    # The same player may sit in another session.
    second = Session.objects.create(tournament=session.tournament, number=2)
    table = Table.objects.create(session=second, number=1)
    Seat.objects.create(table=table, player=seat.player, order=0)


def test_a_duplicate_seat_order_at_a_table_is_refused(session, tournament):
    table = session.tables.get(number=1)
    newcomer = Player.objects.create(name="Late Lucie")
    Registration.objects.create(tournament=tournament, player=newcomer)
    assert refused(lambda: Seat.objects.create(table=table, player=newcomer, order=0))
    Seat.objects.create(table=table, player=newcomer, order=4)


def test_a_negative_seat_order_is_refused(session):
    seat = Seat.objects.filter(table__session=session).first()
    assert refused(lambda: Seat.objects.filter(pk=seat.pk).update(order=-1))


def test_a_seat_takes_the_session_of_its_table(session):
    seat = Seat.objects.filter(table__session=session).first()
    seat.session = Session.objects.create(tournament=session.tournament, number=7)
    seat.save()
    seat.refresh_from_db()
    assert seat.session_id == session.pk


def test_a_second_current_version_of_a_turn_is_refused(first_round):
    Turn.objects.create(round=first_round, index=0, player=0, tile="5-5-5", points_claimed=25)
    assert refused(
        lambda: Turn.objects.create(round=first_round, index=0, player=0, tile="4-4-4")
    )


def test_a_correction_keeps_the_old_version(first_round, organiser):
    original = Turn.objects.create(round=first_round, index=0, player=0, tile="5-5-5")
    now = timezone.now()
    correction = Turn(round=first_round, index=0, player=0, tile="4-4-4", created_by=organiser,
                      change_reason="the sheet said 4-4-4")
    with transaction.atomic():
        Turn.objects.filter(pk=original.pk).update(superseded_at=now)
        correction.save()
        Turn.objects.filter(pk=original.pk).update(superseded_by=correction)
    assert list(first_round.turns.current().values_list("tile", flat=True)) == ["4-4-4"]
    assert first_round.turns.count() == 2
    original.refresh_from_db()
    assert original.superseded_by == correction and not original.is_current


def test_a_turn_cell_is_whole_or_absent(first_round):
    assert refused(lambda: Turn.objects.create(round=first_round, index=0, player=0, cell_x=0))
    turn = Turn.objects.create(
        round=first_round, index=0, player=0, cell_x=0, cell_y=-1, cell_orientation="D"
    )
    assert turn.cell == "D(0,-1)"


def test_keeping_a_claim_needs_a_reason(first_round):
    assert refused(
        lambda: Turn.objects.create(round=first_round, index=0, player=0, decision="claim")
    )
    Turn.objects.create(
        round=first_round, index=0, player=0, decision="claim", decision_reason="seen by two"
    )


def test_one_current_end_per_round(first_round):
    RoundEnd.objects.create(round=first_round, racks=[["0-0-1"], [], [], []])
    assert refused(lambda: RoundEnd.objects.create(round=first_round, racks=[[], [], [], []]))


def test_round_index_and_confirmation(first_round):
    assert refused(lambda: Round.objects.create(match=first_round.match, index=0))
    first_round.confirmed_at = timezone.now()
    assert refused(lambda: first_round.save())  # an unfinished round cannot be confirmed


def test_session_and_table_numbers(tournament, session):
    assert refused(lambda: Session.objects.create(tournament=tournament, number=1))
    assert refused(lambda: Session.objects.create(tournament=tournament, number=0))
    assert refused(lambda: Table.objects.create(session=session, number=1))
    assert refused(lambda: Table.objects.create(session=session, number=0))


def test_registration_staff_and_tournament_constraints(tournament, organiser):
    player = Registration.objects.filter(tournament=tournament).first().player
    assert refused(lambda: Registration.objects.create(tournament=tournament, player=player))
    assert refused(lambda: StaffRole.objects.create(tournament=tournament, user=organiser,
                                                    role="referee"))
    other = Tournament.objects.create(name="Other", slug="other", start_date=datetime.date(2025, 1, 2))
    assert refused(lambda: StaffRole.objects.create(tournament=other, user=organiser,
                                                    role="organiser", tables="1-2"))
    assert refused(
        lambda: Tournament.objects.filter(pk=other.pk).update(end_date=datetime.date(2025, 1, 1))
    )
    assert refused(lambda: Tournament.objects.filter(pk=other.pk).update(target=0))
    assert refused(lambda: Tournament.objects.create(name="Dup", slug="other",
                                                     start_date=datetime.date(2025, 1, 2)))


def test_the_audit_log_is_append_only(first_round, referee):
    entry = AuditEntry.objects.create(
        match=first_round.match, user=referee, action=AuditEntry.Action.TURN_ADDED,
        summary="Turn 1: 5-5-5, 25 points",
    )
    entry.summary = "rewritten"
    with pytest.raises(AuditEntryRefused):
        entry.save()
    with pytest.raises(AuditEntryRefused):
        entry.delete()
    entry.refresh_from_db()
    assert entry.summary == "Turn 1: 5-5-5, 25 points"


def test_names_and_addresses(tournament, session):
    match = Match.objects.get(table__session=session, table__number=2)
    assert tournament.get_absolute_url() == "/t/spring-open/"
    assert session.get_absolute_url() == "/t/spring-open/sessions/1/"
    assert match.get_absolute_url() == f"/t/spring-open/matches/{match.pk}/"
    with translation.override("en"):
        assert str(match) == "Session 1, table 2"
        assert str(session) == "Spring Open, session 1"
    with translation.override("fr"):
        assert str(session) == "Spring Open, session 1"
        assert str(match.table) == "Table 2"
    assert str(Player(name="Chloé", club="Lyon")) == "Chloé (Lyon)"


def test_the_rule_set_and_its_target(tournament):
    assert tournament.rules == "goliath-tournament"
    assert tournament.ranking_criteria == ["match_points", "total_points", "share"]
    assert tournament.effective_target == tournament.rule_set.target == 400
    tournament.target = 250
    assert tournament.effective_target == tournament.rule_set.target == 250
    tournament.rules = "goliath-family"
    assert tournament.rule_set.max_players == 6


def test_bonus_and_verdict_choices_are_the_engines():
    import scoring
    from tournament.models import Bonus, Verdict

    assert Bonus.values == [bonus.value for bonus in scoring.Bonus]
    assert Verdict.values == [verdict.value for verdict in scoring.Verdict]


def test_rule_set_choices_are_the_engines():
    from scoring.rules import RULE_SETS

    choices = [name for name, _label in Tournament._meta.get_field("rules").choices]
    assert sorted(choices) == sorted(RULE_SETS) and choices[0] == "goliath-tournament"
