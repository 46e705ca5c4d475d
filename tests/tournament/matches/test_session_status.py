"""A match takes writes only while its session is in play: a closed session's results are
frozen, a seated session waits for the organiser to start it. Every write service refuses,
nothing is written, and the pages offer no write."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import confirmed_match, fresh, match_at, played_record
from tournament import engine
from tournament.core.tournaments import staff_role_grant
from tournament.matches import services
from tournament.models import AuditEntry, Match, Round, RoundEnd, Session, StaffRole, Turn
from tournament.sessions.services import session_close

pytestmark = pytest.mark.django_db

Write = Callable[[Match, object], object]


def _turn(match: Match) -> Turn:
    return Turn.objects.current().filter(round__match=match).order_by("round__index", "index").first()


def _turn_id(match: Match) -> int:
    turn = _turn(match)
    return turn.pk if turn is not None else 0


#: Every write service, called as a referee would with arguments it would accept.
WRITES: dict[str, Write] = {
    "turns_add": lambda match, user: services.match_turns_add(
        match=match, user=user, seen_revision=match.revision,
        turns=[services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5))]),
    "turn_undo": lambda match, user: services.match_turn_undo(
        match=match, user=user, seen_revision=match.revision),
    "turn_correct": lambda match, user: services.match_turn_correct(
        match=match, user=user, seen_revision=match.revision, turn_id=_turn_id(match),
        turn=None, reason="not played"),
    "turn_insert": lambda match, user: services.match_turn_insert(
        match=match, user=user, seen_revision=match.revision, before_turn_id=_turn_id(match),
        turn=services.TurnInput(player=0, draws=1), reason="forgotten"),
    "turn_decide": lambda match, user: services.match_turn_decide(
        match=match, user=user, seen_revision=match.revision, turn_id=_turn_id(match),
        decision="engine"),
    "round_end": lambda match, user: services.match_round_end(
        match=match, user=user, seen_revision=match.revision, round_index=0,
        racks=[0, 0, 0, 0], reason="recount"),
    "settlement_decide": lambda match, user: services.match_round_settlement_decide(
        match=match, user=user, seen_revision=match.revision, round_index=0,
        decision="engine"),
    "round_confirm": lambda match, user: services.match_round_confirm(
        match=match, user=user, seen_revision=match.revision, round_index=0),
    "record_import": lambda match, user: services.match_record_import(
        match=match, user=user, seen_revision=match.revision, record=played_record(match=match, seed=3)),
}


def _written(match: Match) -> tuple:
    """Everything a write changes."""
    match = fresh(match)
    return (
        match.revision, match.status,
        Turn.objects.filter(round__match=match).count(),
        Round.objects.filter(match=match).count(),
        RoundEnd.objects.filter(round__match=match).count(),
        AuditEntry.objects.filter(match=match).count(),
        list(Round.objects.filter(match=match, confirmed_at__isnull=False).values_list("pk")),
    )


@pytest.fixture
def closed(tournament, referee):
    """Session 1 played to the end at both tables, every round confirmed, then closed."""
    session = tournament.sessions.get()
    for match in Match.objects.filter(table__session=session):
        confirmed_match(match=match, user=referee, seed=3)
    session_close(session=session)
    return match_at(tournament=tournament)


@pytest.mark.parametrize("write", WRITES)
def test_a_closed_sessions_matches_refuse_every_write(closed, referee, write):
    before = _written(closed)
    with pytest.raises(ValidationError) as refused:
        WRITES[write](fresh(closed), referee)
    assert refused.value.code == "session_closed"
    assert _written(closed) == before


@pytest.fixture
def seated(make_tournament, referee):
    """Another tournament, its session 1 seated and not started; ``referee`` referees it."""
    tournament = make_tournament(slug="seated-open")
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    return match_at(tournament=tournament)


@pytest.mark.parametrize("write", WRITES)
def test_a_seated_sessions_matches_wait_for_the_start(seated, referee, write):
    match = seated
    assert match.table.session.status == Session.Status.SEATED
    before = _written(match)
    with pytest.raises(ValidationError) as refused:
        WRITES[write](fresh(match), referee)
    assert refused.value.code == "session_not_started"
    assert _written(match) == before


def test_a_stale_revision_in_a_closed_session_is_told_the_session_is_closed(closed, referee):
    match = fresh(closed)
    match.revision -= 1
    with pytest.raises(ValidationError) as refused:
        WRITES["turn_correct"](match, referee)
    assert refused.value.code == "session_closed"


def _url(match: Match, name: str = "match", **kwargs) -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def test_the_page_of_a_closed_sessions_match_offers_no_write(closed, referee_client):
    response = referee_client.get(_url(closed))
    assert response.status_code == 200
    context = response.context
    assert context["can_write"] is False and context["write_refusal"]
    assert "turn_form" not in context and "round_end_form" not in context
    assert context["round_to_confirm"] is None
    page = response.content.decode()
    assert 'id="write-refusal"' in page
    assert _url(closed, "match_turn_correct", turn_id=_turn_id(closed)) not in page
    assert _url(closed, "match_sheet_mode") not in page


def test_a_correction_posted_to_a_closed_sessions_match_is_refused(closed, referee_client):
    before = _written(closed)
    turn = _turn(closed)
    response = referee_client.post(_url(closed, "match_turn_correct", turn_id=turn.pk), {
        "revision": fresh(closed).revision, "player": turn.player, "draws": 1,
        "tile": turn.tile, "cell": turn.cell, "corners": turn.corners,
        "reason": "the sheet shows a draw"})
    assert response.status_code == 400
    assert [e.code for e in response.context["form"].non_field_errors().as_data()] == [
        "session_closed"]
    assert _written(closed) == before


def test_the_page_of_a_seated_sessions_match_says_who_starts_it(seated, referee_client):
    match = seated
    response = referee_client.get(_url(match))
    assert response.context["can_write"] is False
    assert "turn_form" not in response.context
    assert response.context["write_refusal"]
    response = referee_client.post(_url(match, "match_turn_add"),
                                   {"revision": 0, "pass": "1", "draws": 3})
    assert response.status_code == 400
    assert Turn.objects.filter(round__match=match).count() == 0


def test_the_public_page_shows_no_refusal(closed, client):
    response = client.get(_url(closed))
    assert response.status_code == 200 and response.context["write_refusal"] == ""
