"""The entry screen under the conditions of a venue: the README's default set-up (DEBUG on),
a slow network, a tablet in portrait; whatever happens, nothing typed is lost and every
outcome is said where the referee is looking."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.entry_helpers import enter_turns, in_view, simulated_round, tile_and_cell
from tests.factories import fresh, match_at, seated_names
from tournament.models import Turn


def open_entry(page, log_in, match, *, width=768, height=1024):
    page.set_viewport_size({"width": width, "height": height})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    expect(page.locator("#turn-form")).to_be_visible()


def test_a_refused_entry_keeps_the_page_with_debug_on(page, log_in, tournament, referee, settings):
    settings.DEBUG = True  # the README's default set-up: django-htmx's debug script is on
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match)
    enter_turns(match, referee, turns[:6], wrong={4})
    open_entry(page, log_in, match)
    expect(page.locator('script[data-debug="True"]')).to_have_count(1)

    # keep the claim without a reason: refused (400), the page stays whole, the field and the
    # message in view, the focus in the field
    page.locator(".keep-claim > summary").click()
    page.locator(".keep-claim form button[type=submit]").click()
    expect(page.locator(".keep-claim .field-errors")).to_be_visible()
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator("#turn-form")).to_be_visible()
    expect(page.locator('.keep-claim input[name="reason"]')).to_be_focused()
    assert in_view(page, '.keep-claim input[name="reason"]')
    expect(page.locator("#entry-toast")).to_be_visible()
    assert in_view(page, "#entry-toast")
    assert fresh(match).revision == match.revision + 6

    # a tile saved where it does not fit: refused, the page whole, the focus on a visible field
    tile, _cell = tile_and_cell(turns[6])
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator("#board polygon.open.nofit").first.click()
    expect(page.locator(".preview-refused")).to_be_visible()
    page.locator("#id_claimed").fill("10")
    page.keyboard.press("Enter")
    expect(page.locator(".cell-field.field--invalid")).to_have_count(1)
    expect(page.locator(".site-header")).to_be_visible()
    assert page.evaluate("""() => {
        const box = document.activeElement.getBoundingClientRect();
        return box.width > 1 && box.top >= 0 && box.bottom <= window.innerHeight;
    }""")
    assert Turn.objects.current().filter(round__match=match).count() == 6


def test_points_typed_while_the_preview_is_on_its_way_are_saved(page, log_in, tournament, referee):
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match)
    enter_turns(match, referee, turns[:3])
    open_entry(page, log_in, match)
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 700, "downloadThroughput": -1, "uploadThroughput": -1})

    turn = turns[3]
    assert "place" in turn and not turn.get("draws")
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    # the referee types the points and Enter at once, the engine's answer still on its way
    page.keyboard.type(str(turn["claimed"]))
    page.keyboard.press("Enter")
    expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(4)
    saved = Turn.objects.current().get(round__match=match, index=3)
    assert (saved.tile, saved.points_claimed, saved.verdict) == (tile, turn["claimed"], "ok")


def test_a_stale_save_is_said_where_the_referee_looks(browser, live_server, page, log_in,
                                                       tournament, referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match)
    enter_turns(match, referee, turns[:8])
    open_entry(page, log_in, match)
    enter_turns(match, referee, turns[8:9])  # another tablet saves meanwhile

    turn = turns[9]
    tile, cell = tile_and_cell(turn)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.evaluate("""([tile, cell, points]) => {
        const form = document.querySelector('#turn-form');
        form.querySelector('#id_tile').value = tile;
        const field = form.querySelector('#id_cell');
        field.add(new Option(cell, cell)); field.value = cell;
        form.querySelector('#id_claimed').value = points;
        form.requestSubmit();
    }""", [tile, cell, str(turn["claimed"])])
    expect(page.locator("#conflict")).to_have_count(1)
    expect(page.locator("#entry-status")).to_have_text(page.locator("#conflict").inner_text())
    expect(page.locator("#entry-toast")).to_be_visible()
    assert in_view(page, "#entry-toast")
    assert Turn.objects.current().filter(round__match=match).count() == 9



ENTRY_PARTS = ("#turn-form .tile-grid", "#board", "#turn-preview .engine-points", "#id_claimed",
               "#turn-form .save-turn")


def tap_turn(page, turn, names, index) -> None:
    """One turn of a simulated round entered by taps: draws, tile, cell, orientation."""
    if index == 0:
        page.locator(".opener label").filter(has_text=names[turn["player"]]).click()
    if turn.get("draws"):
        page.locator(".draws-field .segment").filter(has_text=str(turn["draws"])).click()
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    if index > 0:
        page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    expect(page.locator("#turn-preview .engine-points")).to_be_visible()
    corners = "-".join(map(str, turn["place"]["corners"]))
    choice = page.locator(f'#turn-preview input[type="radio"][value="{corners}"]')
    if choice.count():
        choice.check()


def parts_out_of_view(page) -> list[str]:
    return [selector for selector in ENTRY_PARTS if not in_view(page, selector)]


@pytest.mark.parametrize("size", [(768, 1024), (1024, 768)], ids=["portrait", "landscape"])
def test_on_a_tablet_the_whole_turn_is_in_view_on_every_turn(page, log_in, tournament, referee,
                                                            size):
    match = match_at(tournament=tournament, started=True)
    names = seated_names(match)
    turns = simulated_round(match, seed=11)
    open_entry(page, log_in, match, width=size[0], height=size[1])
    out_of_view = {}
    for index, turn in enumerate(turns):
        if "place" not in turn:
            page.locator(".pass-button").click()
            page.locator("#pass-confirm button[type=submit]").click()
        else:
            tap_turn(page, turn, names, index)
            missed = parts_out_of_view(page)
            if missed:
                out_of_view[index] = missed
            page.locator("#id_claimed").fill(str(turn["claimed"]))
            page.keyboard.press("Enter")
        expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(index + 1)
    assert page.evaluate("window.scrollY") == 0
    assert out_of_view == {}
    assert len(turns) >= 20
    # the turn log fits its box: nothing of it cut off on the right
    overflow = page.locator("#round-1 .log-scroll").evaluate(
        "box => box.scrollWidth - box.clientWidth")
    assert overflow <= 0
    outside = page.locator("#round-1 .turn-log a, #round-1 .turn-log button").evaluate_all(
        """items => items.filter(e => e.getBoundingClientRect().right
              > e.closest('.log-scroll').getBoundingClientRect().right + 0.5).length""")
    assert outside == 0
