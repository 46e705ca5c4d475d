"""The referee decides on a settlement claimed that differs, on the match page, as on a
turn's claim: the claim kept without a reason is refused in place, with a reason it counts,
and the round can then be confirmed."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import blocked_racks, blocked_round, fresh, match_at, replay
from tournament.matches import services
from tournament.models import Round, RoundEnd


def test_the_settlement_claim_is_decided_then_the_round_confirmed(page, log_in, tournament,
                                                                  referee):
    match = match_at(tournament=tournament, started=True)
    blocked_round(match, referee)
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks())
    claim = [value + 5 if value else 0 for value in replay(match).rounds[0].settlement]
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks(), settlement_claimed=claim, reason="annonce")
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    box = page.locator("#settlement-decision-1")
    expect(box).to_be_visible()
    expect(page.locator(".confirm-round")).to_have_count(0)
    expect(page.locator("tr.settlement-claimed.decision-pending").first).to_be_visible()

    box.locator(".keep-claim > summary").click()
    box.locator(".keep-claim form button[type=submit]").click()
    expect(page.locator("#settlement-decision-1 .field-errors")).to_be_visible()
    expect(page.locator('#settlement-decision-1 input[name="reason"]')).to_be_visible()
    assert RoundEnd.objects.current().get(round__match=match).decision == ""

    page.locator('#settlement-decision-1 input[name="reason"]').fill("accord de la table")
    page.locator("#settlement-decision-1 .keep-claim form button[type=submit]").click()
    expect(page.locator("#settlement-decision-1 .decision--claim")).to_be_visible()
    end = RoundEnd.objects.current().get(round__match=match)
    assert (end.decision, end.decision_reason) == ("claim", "accord de la table")

    page.locator(".confirm-round").click()
    expect(page.locator(".confirm-round")).to_have_count(0)
    assert Round.objects.get(match=match, index=0).confirmed_at is not None
