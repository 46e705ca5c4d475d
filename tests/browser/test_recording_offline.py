"""The venue's Wi-Fi drops while a referee enters turns: the turns are kept on the tablet,
shown as waiting to send, and sent in order once the server answers again; each is saved
once."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_recording_conflict import enter_opening, open_match
from tests.factories import match_at
from tournament.models import MatchSubmission, Turn


def draw_three_and_pass(page) -> None:
    """The draw-and-pass button, then its confirmation (a turn that costs 25 is asked twice)."""
    confirm = page.locator("#pass-confirm")
    if confirm.get_attribute("open") is None:
        page.locator("#pass-confirm .pass-button").click()
    confirm.locator("button[type=submit]").click()


def test_two_turns_entered_offline_are_saved_once_each_in_order(browser, live_server, tournament,
                                                                referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page = open_match(browser, live_server, staff_password,
                               f"/t/spring-open/matches/{match.pk}/")
    try:
        names = [text.strip() for text in page.locator(".seat-name").all_inner_texts()]
        enter_opening(page, names[0], "5-5-5", "25")
        expect(page.locator("#done")).to_have_text("Tour enregistré.")

        context.set_offline(True)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "2")
        expect(page.locator("#send-queue")).to_contain_text("en attente d’envoi")
        assert Turn.objects.filter(round__match=match).count() == 1  # nothing reached it
        queued = page.evaluate("() => JSON.parse(localStorage.getItem('triominos.send-queue'))")
        assert len(queued) == 2
        keys = [dict(item["fields"])["submission_key"] for item in queued]
        assert len(set(keys)) == 2 and all(keys)

        # the tablet is closed while offline; opened again once the server answers, the page
        # finds the turns kept and sends them
        page.close()
        context.set_offline(False)
        page = context.new_page()
        page.goto(f"/t/spring-open/matches/{match.pk}/")
        expect(page.locator("#send-queue")).to_have_count(0, timeout=15_000)
        expect(page.locator(".to-play")).to_contain_text(names[3])

        turns = list(Turn.objects.current().filter(round__match=match).order_by("index"))
        assert [(t.index, t.player, t.draws, t.tile) for t in turns] == [
            (0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, "")]
        assert Turn.objects.filter(round__match=match).count() == 3  # none saved twice
        assert set(MatchSubmission.objects.filter(match=match).values_list("key", flat=True)) \
            >= set(keys)
        assert page.evaluate("() => localStorage.getItem('triominos.send-queue')") == "[]"
    finally:
        context.close()
