"""Every seat signs (docs/guides/organiser.md, "Every seat signs"), as the players' phones do
it: a table of four, one scorer phone and three players signing from their own phones
through their seats' links, a round disputed and decided by a referee; a table of three
passing the scorer phone round, each seat typing its code."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_scorer_phone import scorer_phone
from tests.factories import entered_by_tables, fresh, match_at, played_record
from tournament.matches.scorers import ScorerActor, scorer_path, table_scorer
from tournament.matches.services import match_record_import
from tournament.matches.signatures import seat_code, seat_path
from tournament.models import AuditEntry, Match, RefereeCall, Round


def entered_by_the_scorer(match) -> None:
    """The match's rounds entered by its bound scorer phone (its record, as sheet mode would
    bring them: the test is about the signatures, the entry has its own tests)."""
    match = fresh(match)
    record = played_record(match=match)
    match_record_import(match=match, user=ScorerActor(scorer_device=table_scorer(
        match=match).device), seen_revision=match.revision, record=record)


def own_phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(20_000)
    return context, context.new_page()


def sign_here(page, *, dispute: str = "", seat: int | None = None, code: str = "") -> None:
    """Give a word on the signing page open on ``page``: on the scorer phone, as ``seat``
    with its ``code``."""
    if seat is not None:
        page.locator("#id_seat").select_option(str(seat))
        page.locator("#id_code").fill(code)
    page.locator(f'input[name="word"][value="{"dispute" if dispute else "agree"}"]').check()
    if dispute:
        page.locator("#id_reason").fill(dispute)
    page.locator("#sign-submit").click()
    page.wait_for_load_state()


def test_a_table_of_four_phones_signs_and_a_referee_decides_a_dispute(
        browser, live_server, tournament, referee, page, log_in):
    entered_by_tables(tournament=tournament, match_rounds=2)
    match = match_at(tournament=tournament, started=True)
    contexts = []
    try:
        context, scorer = scorer_phone(browser, live_server,
                                       scorer_path(table_scorer(match=match)))
        contexts.append(context)
        entered_by_the_scorer(match)
        rounds = Round.objects.filter(match=match).count()
        assert rounds == 2
        sheet = table_scorer(match=match)
        phones = []
        for seat in (1, 2, 3):
            context, phone = own_phone(browser, live_server)
            contexts.append(context)
            phone.goto(seat_path(sheet, seat))
            expect(phone.locator("#round-sign-page")).to_have_attribute("data-seat", str(seat))
            phones.append(phone)

        # round 1: the scorer's seat on the scorer phone, the others on their own
        scorer.locator("#sign-link").click()
        expect(scorer.locator("#round-sign-page")).to_have_attribute("data-round", "1")
        sign_here(scorer, seat=0, code=seat_code(sheet, 0))
        expect(scorer.locator("#round-sign-page")).to_have_attribute("data-signed", "1")
        for phone in phones:
            phone.reload()
            sign_here(phone)
        assert Round.objects.get(match=match, index=0).confirmed_at is not None

        # round 2: seat D disputes from its phone; the round is frozen, a referee called
        for phone in phones[:2]:
            phone.reload()
            expect(phone.locator("#round-sign-page")).to_have_attribute("data-round", "2")
            sign_here(phone)
        phones[2].reload()
        sign_here(phones[2], dispute="my rack held 12, not 21")
        expect(phones[2].locator("#round-sign-page")).to_have_attribute("data-disputed", "true")
        scorer.reload()
        sign_here(scorer, seat=0, code=seat_code(sheet, 0))
        assert RefereeCall.objects.get(table=match.table).reason == RefereeCall.Reason.DISPUTE
        assert Round.objects.get(match=match, index=1).confirmed_at is None

        # the referee reads the reason, confirms the round as it is: the match confirmed
        log_in(referee.username, next_url=f"/t/{tournament.slug}/matches/{match.pk}/")
        page.locator(".confirm-round").first.click()
        expect(page.locator(".confirm-round")).to_have_count(0)
        page.reload()
        expect(page.locator("#match-provenance")).to_have_attribute("data-confirmed",
                                                                    "referee")
        assert fresh(match).status == Match.Status.CONFIRMED
        decided = AuditEntry.objects.filter(match=match,
                                            action=AuditEntry.Action.ROUND_CONFIRMED)
        words = [entry.details["by_seats"] for entry in decided.order_by("pk")]
        assert words == [True, False]
        last = decided.order_by("pk").last()
        assert {(s["seat"], s["agreed"]) for s in last.details["signatures"]} == {
            (0, True), (1, True), (2, True), (3, False)}
    finally:
        for context in contexts:
            context.close()


def test_a_table_of_three_passes_the_scorer_phone_round(browser, live_server, make_tournament):
    tournament = make_tournament(players=6, table_size=3)
    entered_by_tables(tournament=tournament, match_rounds=1)
    match = match_at(tournament=tournament, started=True)
    context, scorer = scorer_phone(browser, live_server, scorer_path(table_scorer(match=match)))
    try:
        entered_by_the_scorer(match)
        sheet = table_scorer(match=match)
        scorer.locator("#sign-link").click()
        # a clumsy first try: seat B types seat C's code
        sign_here(scorer, seat=1, code=seat_code(sheet, 2))
        expect(scorer.locator("#id_code")).to_have_attribute("aria-invalid", "true")
        for seat in range(3):
            scorer.goto(f"/t/{tournament.slug}/matches/{match.pk}/sign/")
            sign_here(scorer, seat=seat, code=seat_code(sheet, seat).lower())
        assert fresh(match).status == Match.Status.CONFIRMED
        scorer.goto(f"/t/{tournament.slug}/matches/{match.pk}/")
        expect(scorer.locator("#match-provenance")).to_have_attribute("data-confirmed", "seats")
    finally:
        context.close()
