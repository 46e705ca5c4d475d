"""A table that keeps its own score, on a player's phone (docs/guides/organiser.md, "Tables
that keep their own score"): the phone opens the private link of the table's score sheet,
becomes the table's scorer and enters turns as a referee's tablet does; it loses the Wi-Fi
mid-round and keeps entering; meanwhile the referee hands the sheet over to another phone:
when the network is back, the turn it had queued is not saved and not lost, kept on the
phone with why; the new phone enters from the match as the server has it."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_recording_conflict import enter_opening
from tests.browser.test_recording_offline import draw_three_and_pass, queued, stored
from tests.factories import entered_by_tables, match_at
from tournament.matches.scorers import scorer_path, table_scorer
from tournament.matches.services.scorers import scorer_hand_over
from tournament.models import AuditEntry


def scorer_phone(browser, live_server, link):
    """A phone of its own that opened ``link`` and tapped "keep the score"."""
    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(link)
    page.locator("#scorer-bind").click()
    expect(page.locator("#scorer-banner")).to_have_attribute("data-scorer", "bound")
    expect(page.locator("#turn-form")).to_be_visible()
    return context, page


def test_a_scorer_phone_loses_the_wifi_and_the_sheet_is_handed_over(browser, live_server,
                                                                    tournament, referee):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    context, page = scorer_phone(browser, live_server, scorer_path(table_scorer(match=match)))
    try:
        names = [text.strip() for text in page.locator(".seat-name").all_inner_texts()]
        enter_opening(page, names[0], "5-5-5", "25")
        expect(page.locator("#done")).to_have_text("Tour enregistré.")
        assert len(stored(match)) == 1
        device = table_scorer(match=match).device
        assert AuditEntry.objects.filter(match=match, device=device,
                                         action=AuditEntry.Action.TURN_ADDED).count() == 1

        context.set_offline(True)  # the Wi-Fi drops mid-round: the phone keeps entering
        draw_three_and_pass(page)
        panel = page.locator("#send-queue")
        expect(panel).to_have_attribute("data-count", "1")

        scorer_hand_over(match=match, user=referee)  # the referee gives the sheet to another
        context.set_offline(False)
        expect(panel).to_have_attribute("data-state", "login", timeout=40_000)
        expect(panel).to_have_attribute("data-count", "1")
        assert len(queued(page, match)) == 1  # kept on the phone
        assert len(stored(match)) == 1  # and not saved
        link = panel.locator(".send-queue__login a")
        expect(link).to_have_attribute("href", f"/t/{tournament.slug}/matches/{match.pk}/")

        # the new phone, from the new link: the match as the server has it, one turn
        other, new_page = scorer_phone(browser, live_server,
                                       scorer_path(table_scorer(match=match)))
        try:
            draw_three_and_pass(new_page)
            expect(new_page.locator("#done")).to_have_text("Tour enregistré.")
            assert len(stored(match)) == 2
            assert len(queued(page, match)) == 1  # the old phone's still waits to be shown
        finally:
            other.close()
    finally:
        context.close()
