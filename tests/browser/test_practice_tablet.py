"""A referee's practice table on a tablet (docs/guides/referee.md): opened from the tournament, a turn
entered by taps on the ordinary entry screen, then started again in one tap; the tournament
itself is left as it was."""

from __future__ import annotations

from playwright.sync_api import expect

from scoring.simulate import simulate_match
from tests.factories import seated_names
from tournament.models import Match, Round, Tournament
from tournament.practice.services import practice_match


def test_a_practice_turn_entered_then_started_again(page, log_in, tournament, referee):
    event = tournament
    before = Tournament.objects.get(pk=event.pk)
    log_in("remi-referee", next_url=f"/t/{event.slug}/")
    page.locator("#practice-link").click()
    page.locator("#practice-open").click()
    expect(page.locator("#practice-banner")).to_be_visible()
    match = practice_match(tournament=event, user=referee)
    assert page.url.endswith(match.get_absolute_url())

    names = seated_names(match)
    turn = simulate_match(players=len(names), seed=5, names=names)["rounds"][0]["turns"][0]
    place = turn["place"]
    tile = "-".join(map(str, sorted(place["corners"])))
    page.locator(".opener label").filter(has_text=names[turn["player"]]).click()
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    expect(page.locator(".preview-head .tile-name")).to_have_text(tile)
    radios = page.locator('#turn-preview input[type="radio"][name="corners"]')
    if radios.count() > 1:
        page.locator(f'#turn-preview input[value="{"-".join(map(str, place["corners"]))}"]').click()
    page.locator("#id_claimed").fill(str(turn["claimed"]))
    page.keyboard.press("Enter")
    log_rows = page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")
    expect(log_rows).to_have_count(1)
    assert Round.objects.filter(match=match).exists()

    page.locator("#practice-reset").click()
    expect(page.locator("#practice-banner")).to_be_visible()
    expect(page.locator("table.turn-log tbody tr[id^='turn-']")).to_have_count(0)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PENDING
    assert not Round.objects.filter(match=match).exists()
    after = Tournament.objects.get(pk=event.pk)
    assert (after.data_version, after.results_version) == (
        before.data_version, before.results_version)
