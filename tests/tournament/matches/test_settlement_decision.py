"""A settlement claimed that differs from the engine's waits for the referee's decision, as a
turn's claim does: keep the engine's figure, or the claim with a reason. The decision is a
new version of the round's end, counts in the totals, is carried by the record and the
archive, and a round whose decision is pending cannot be confirmed."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import blocked_racks, blocked_round, fresh, match_at, replay
from tests.pages import has_id, select
from tests.tournament.matches.helpers import settled_with_claim
from tests.tournament.printing.helpers import assert_pdf
from tournament import engine
from tournament.core.tournaments import staff_role_grant
from tournament.matches import services
from tournament.models import AuditEntry, Round, RoundEnd, StaffRole, Turn
from tournament.seating.selectors import session_attention

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def url(match, name="match", **kwargs):
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})




def decide(match, user, decision: str, reason: str = ""):
    return services.match_round_settlement_decide(
        match=fresh(match), user=user, seen_revision=fresh(match).revision, round_index=0,
        decision=decision, reason=reason)


def confirm(match, user):
    return services.match_round_confirm(match=fresh(match), user=user,
                                        seen_revision=fresh(match).revision, round_index=0)


def refused_with(code: str, write, match) -> ValidationError:
    """``write()`` is refused with ``code`` and writes nothing."""
    revision = fresh(match).revision
    ends = list(RoundEnd.objects.filter(round__match=match).values_list("pk", "superseded_at"))
    with pytest.raises(ValidationError) as error:
        write()
    codes = [e.code for errors in getattr(error.value, "error_dict", {}).values() for e in errors]
    assert code in (codes or [error.value.code])
    assert fresh(match).revision == revision
    assert list(RoundEnd.objects.filter(round__match=match).values_list(
        "pk", "superseded_at")) == ends
    return error.value


# -- the services ------------------------------------------------------------------------------


def test_a_differing_settlement_waits_and_the_claim_kept_counts(tournament, referee):
    match = match_at(tournament=tournament)
    figures, claim = settled_with_claim(match, referee)
    view = replay(match).rounds[0]
    assert view.settlement_differs and view.settlement_decision_pending
    assert view.decisions_to_take == 1 and not view.can_confirm
    engine_totals = list(fresh(match).totals)  # a pending claim counts the engine's figure
    error = refused_with("open_problems", lambda: confirm(match, referee), match)
    assert "Keep the engine's settlement" in error.messages[0]

    refused_with("reason_required", lambda: decide(match, referee, "claim", "   "), match)
    refused_with("invalid_decision", lambda: decide(match, referee, "both", "x"), match)

    old = RoundEnd.objects.current().get(round__match=match)
    kept = decide(match, referee, "claim", "Both players agreed on it before the count").saved
    assert (kept.decision, kept.settlement_claimed, kept.racks) == ("claim", claim, old.racks)
    old.refresh_from_db()
    assert old.superseded_by == kept and old.decision == ""
    assert fresh(match).totals == [t + c - f for t, c, f in zip(engine_totals, claim, figures)]
    view = replay(match).rounds[0]
    assert not view.settlement_decision_pending and view.can_confirm
    assert "settlement-mismatch" in [p.code for p in view.problems]  # still listed
    entry = AuditEntry.objects.filter(match=match, action="decision").get()
    assert entry.details["after"]["decision"] == "claim" and entry.reason.startswith("Both")
    confirm(match, referee)
    assert Round.objects.get(match=match, index=0).confirmed_at is not None


def test_the_engine_figure_kept_needs_no_reason_and_lets_the_round_be_confirmed(
        tournament, referee):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    totals = list(fresh(match).totals)
    decide(match, referee, "claim", "first thought")
    assert fresh(match).totals != totals
    decide(match, referee, "engine")  # changed before confirming, as a turn's decision
    assert fresh(match).totals == totals
    assert RoundEnd.objects.current().get(round__match=match).decision_reason == ""
    confirm(match, referee)


def _effects(match, write) -> dict:
    """What ``write()`` changed: the versions raised, the round's confirmation, the audit."""
    before = fresh(match)
    tournament = before.table.session.tournament
    versions_before = (tournament.data_version, tournament.results_version)
    audit = set(AuditEntry.objects.filter(match=match).values_list("pk", flat=True))
    write()
    after = fresh(match)
    versions = after.table.session.tournament
    return {
        "revision": after.revision - before.revision,
        "data_version": versions.data_version - versions_before[0],
        "results_version": versions.results_version - versions_before[1],
        "status": (before.status, after.status),
        "round_confirmed": Round.objects.get(match=match, index=0).confirmed_at is not None,
        "audit": list(AuditEntry.objects.filter(match=match).exclude(pk__in=audit)
                      .values_list("action", flat=True)),
    }


def test_a_decision_on_a_confirmed_round_unconfirms_it_as_a_turn_decision_does(
        tournament, referee):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    opening = Turn.objects.current().get(round__match=match, index=0)
    services.match_turn_correct(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision,
        turn_id=opening.pk, reason="the table announced 30",
        turn=services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                                points_claimed=30))
    opening = Turn.objects.current().get(round__match=match, index=0)
    assert opening.verdict == "mismatch"
    services.match_turn_decide(match=fresh(match), user=referee,
                               seen_revision=fresh(match).revision, turn_id=opening.pk,
                               decision="engine")
    decide(match, referee, "engine")
    confirm(match, referee)

    def turn_claim_kept():
        services.match_turn_decide(
            match=fresh(match), user=referee, seen_revision=fresh(match).revision,
            turn_id=Turn.objects.current().get(round__match=match, index=0).pk,
            decision="claim", reason="seen again")

    by_turn = _effects(match, turn_claim_kept)
    confirm(match, referee)
    by_settlement = _effects(match, lambda: decide(match, referee, "claim", "seen again"))
    assert by_settlement == by_turn
    assert by_turn["revision"] == by_turn["data_version"] == 1
    assert not by_turn["round_confirmed"] and by_turn["audit"] == ["decision"]
    end = RoundEnd.objects.current().get(round__match=match)
    assert (end.decision, end.decision_reason) == ("claim", "seen again")
    view = replay(match).rounds[0]
    assert not view.confirmed and view.can_confirm
    confirm(match, referee)  # confirmed again, with the claim counted


def test_a_decision_on_a_confirmed_round_is_offered_to_the_referee_as_a_turn_s_is(
        tournament, referee, referee_client):
    """A round confirmed before its settlement's decision was asked (stored so before the
    rule): its forms are offered, as a turn's claim's are."""
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    decide(match, referee, "engine")
    confirm(match, referee)
    RoundEnd.objects.current().filter(round__match=match).update(decision="")
    page = referee_client.get(url(match)).content.decode()
    decide_url = url(match, "match_round_settlement_decide", number=1)
    assert page.count(f'hx-post="{decide_url}"') == 2


def test_nothing_to_decide_without_racks_or_without_a_differing_claim(tournament, referee):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    refused_with("round_not_closed", lambda: decide(match, referee, "engine"), match)
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks())
    refused_with("nothing_to_decide", lambda: decide(match, referee, "engine"), match)


def test_racks_entered_again_ask_for_the_decision_again(tournament, referee):
    match = match_at(tournament=tournament)
    _figures, claim = settled_with_claim(match, referee)
    decide(match, referee, "claim", "agreed")
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks(), settlement_claimed=claim,
                             reason="a rack recounted")
    assert replay(match).rounds[0].settlement_decision_pending
    refused_with("open_problems", lambda: confirm(match, referee), match)


# -- the pages ---------------------------------------------------------------------------------


def test_the_match_page_shows_the_pending_settlement_and_takes_the_decision(
        tournament, referee, referee_client):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    decide_url = url(match, "match_round_settlement_decide", number=1)
    page = referee_client.get(url(match)).content.decode()
    assert has_id(page, "settlement-decision-1") and page.count(f'hx-post="{decide_url}"') == 2
    assert select(page, "#settlement-decision-1 .keep-claim input[name=reason]")
    assert select(page, "tr.settlement-claimed.decision-pending")
    assert not select(page, ".confirm-round")

    revision = fresh(match).revision
    response = referee_client.post(decide_url, {"revision": revision, "decision": "claim",
                                                "reason": ""}, **HTMX)
    assert response.status_code == 400 and response.context["settlement_error_round"] == 1
    assert response.context["decision_error_messages"]
    assert select(response.content.decode(), "#settlement-decision-1 details[open]")
    assert fresh(match).revision == revision

    response = referee_client.post(decide_url, {"revision": revision, "decision": "claim",
                                                "reason": "accord des joueurs"}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert select(page, "#settlement-decision-1 .decision--claim")
    assert "accord des joueurs" in page and select(page, ".confirm-round")
    public = Client().get(url(match)).content.decode()
    assert select(public, ".settlement-decision .decision--claim")


def test_the_public_sees_a_pending_settlement_without_the_forms(tournament, referee, client):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    page = client.get(url(match)).content.decode()
    assert select(page, ".settlement-decision .decision--pending")
    assert url(match, "match_round_settlement_decide", number=1) not in page


def test_a_referee_of_another_table_or_tournament_cannot_decide(
        tournament, referee, referee_of_table_2, make_tournament, make_user):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    other = make_tournament(slug="autumn-open")
    stranger = make_user("rita-other-tournament")
    staff_role_grant(tournament=other, user=stranger, role=StaffRole.Role.REFEREE)
    revision = fresh(match).revision
    for user in (referee_of_table_2, stranger):
        client = Client()
        client.force_login(user)
        response = client.post(url(match, "match_round_settlement_decide", number=1),
                               {"revision": revision, "decision": "claim", "reason": "mine"},
                               **HTMX)
        assert response.status_code == 403
    assert fresh(match).revision == revision
    assert RoundEnd.objects.current().get(round__match=match).decision == ""


def test_sheet_mode_takes_the_decision_and_comes_back_to_the_sheet(
        tournament, referee, referee_client):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    decide_url = url(match, "match_round_settlement_decide", number=1)
    page = referee_client.get(url(match, "match_sheet_mode")).content.decode()
    assert f'action="{decide_url}"' in page and f'hx-post="{decide_url}"' not in page
    revision = fresh(match).revision
    response = referee_client.post(decide_url, {"revision": revision, "decision": "claim",
                                                "reason": "", "next": "sheet"})
    assert response.status_code == 302 and response["Location"] == url(match, "match_sheet_mode")
    assert fresh(match).revision == revision
    response = referee_client.post(decide_url, {"revision": revision, "decision": "engine",
                                                "next": "sheet"})
    assert response.status_code == 302 and response["Location"] == url(match, "match_sheet_mode")
    assert RoundEnd.objects.current().get(round__match=match).decision == "engine"


# -- the record --------------------------------------------------------------------------------


def test_the_record_carries_the_decision_and_fills_another_match_alike(tournament, referee):
    match = match_at(tournament=tournament)
    _figures, claim = settled_with_claim(match, referee)
    decide(match, referee, "claim", "agreed at the table")
    response = Client().get(url(match, "match_record"))
    record = json.loads(response.content)
    (round0,) = record["rounds"]
    assert (round0["settlement_claimed"], round0["settlement_decision"],
            round0["settlement_reason"]) == (claim, "claim", "agreed at the table")
    other = match_at(tournament=tournament, table=2)
    services.match_record_import(match=other, user=referee, seen_revision=other.revision,
                                 record=record, names_must_match=False)
    end = RoundEnd.objects.current().get(round__match=other)
    assert (end.decision, end.decision_reason) == ("claim", "agreed at the table")
    assert fresh(other).totals == fresh(match).totals
    assert not replay(other).rounds[0].settlement_decision_pending


def test_the_match_report_prints_the_claim_and_the_decision(tournament, referee,
                                                            referee_client):
    match = match_at(tournament=tournament)
    _figures, claim = settled_with_claim(match, referee)
    decide(match, referee, "claim", "Chloé et Bruno d’accord")
    response = referee_client.get(url(match, "match_report_pdf"), HTTP_ACCEPT_LANGUAGE="en")
    text = " ".join(assert_pdf(response))
    assert "Chloé et Bruno d’accord" in text
    assert str(max(claim)) in text.split()


def test_the_room_counts_a_pending_settlement_among_the_decisions_to_take(tournament, referee):
    match = match_at(tournament=tournament)
    settled_with_claim(match, referee)
    session = match.table.session
    assert RoundEnd.objects.current().get(round__match=match).settlement_differs
    waiting = session_attention(session=session)[match.pk]
    assert (waiting["pending_decisions"], waiting["rounds_to_confirm"]) == (1, [1])
    decide(match, referee, "engine")
    assert session_attention(session=session)[match.pk]["pending_decisions"] == 0


def test_racks_saved_with_a_differing_claim_are_announced_as_awaiting_a_decision(
        tournament, referee, referee_client):
    match = match_at(tournament=tournament)
    blocked_round(match, referee)
    data = {"revision": fresh(match).revision}
    for seat, rack in enumerate(blocked_racks()):
        data[f"rack_{seat}"] = " ".join(rack)
    data["settlement_0"] = "1"  # the engine pays another seat, or this one more
    response = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert response.status_code == 200 and response["X-Submission"] == "saved"
    announce = json.loads(response["HX-Trigger-After-Settle"])["entry-announce"]
    assert announce["kind"] == "pending"
    assert has_id(response.content.decode(), "settlement-decision-1")
