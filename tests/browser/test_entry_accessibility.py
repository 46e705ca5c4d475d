"""The referee's entry, correction and insertion pages by keyboard and screen reader: a whole
turn with the keyboard only, the board's cells and the tiles named in the page's language,
the focus kept in view on a phone, targets of 24 px, and axe-core (WCAG 2.1 AA) finding
nothing serious or critical at a desktop and a phone size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.entry_helpers import enter_turns, simulated_round, tile_and_cell
from tests.factories import match_at, replay
from tournament.models import Turn

FOCUS_IN_VIEW = """() => {
    const box = document.activeElement.getBoundingClientRect();
    return document.activeElement !== document.body && box.width > 0 && box.top >= 0
        && box.bottom <= window.innerHeight;
}"""


def match_with_turns(tournament, referee, count=6, **options):
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match)
    enter_turns(match, referee, turns[:count], **options)
    return match, turns


def test_a_whole_turn_with_the_keyboard_only(page, log_in, tournament, referee):
    match, turns = match_with_turns(tournament, referee)
    for index in range(6, len(turns)):  # a turn whose cell is not the first the board offers
        turn = turns[index]
        if "place" in turn and not turn.get("draws"):
            tile, cell = tile_and_cell(turn)
            live = replay(match).live
            fits = live.legal_cells[tile]
            if [str(c) for c in live.board.open_cells() if str(c) in fits][0] != cell:
                break
        enter_turns(match, referee, [turn])
    else:
        pytest.fail("no turn of the round needs the arrow keys")
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    tile, cell = tile_and_cell(turn)
    keyboard = page.keyboard
    presses = 0

    expect(page.locator("#id_tile")).to_be_focused()  # the page opens on the tile
    keyboard.type(tile.replace("-", ""))
    presses += 3
    # the focus moves on to the board, on a cell where the tile fits, named in French
    focused = page.locator("#board polygon.open:focus")
    expect(focused).to_have_class("open fits")
    assert "la tuile va ici" in focused.get_attribute("aria-label")
    fitting = page.locator("#board polygon.open.fits").count()
    for _ in range(fitting * 4):  # the arrows reach the cell wanted
        if page.evaluate("document.activeElement.getAttribute('data-cell')") == cell:
            break
        here = page.evaluate("document.activeElement.getBoundingClientRect().toJSON()")
        there = page.locator(f'#board polygon.open[data-cell="{cell}"]').bounding_box()
        dx = there["x"] + there["width"] / 2 - (here["x"] + here["width"] / 2)
        dy = there["y"] + there["height"] / 2 - (here["y"] + here["height"] / 2)
        keyboard.press(("ArrowRight" if dx > 0 else "ArrowLeft") if abs(dx) >= abs(dy)
                       else ("ArrowDown" if dy > 0 else "ArrowUp"))
        presses += 1
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == cell
    assert presses > 3  # the arrows were needed
    keyboard.press("Enter")
    presses += 1
    expect(page.locator(f'#board polygon.open[data-cell="{cell}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#id_claimed")).to_be_focused()
    expect(page.locator("#turn-preview .engine-points")).to_have_text(str(turn["claimed"]))
    expect(page.locator("#turn-preview .cell-name")).to_contain_text("Place libre")
    corners = "-".join(map(str, turn["place"]["corners"]))
    if page.locator('#turn-preview input[type="radio"]').count() > 1:
        page.locator(f'#turn-preview input[value="{corners}"]').focus()
        keyboard.press("Space")
        keyboard.press("Tab")
        presses += 2
    keyboard.type(str(turn["claimed"]))
    keyboard.press("Enter")
    presses += len(str(turn["claimed"])) + 1
    expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(index + 1)
    saved = Turn.objects.current().get(round__match=match, index=index)
    assert (saved.tile, saved.cell, saved.points_claimed) == (tile, cell, turn["claimed"])
    print(f"\nkeys for the turn: {presses}")
    expect(page.locator("#entry-status")).to_have_text("Tour enregistré.")


def test_the_tile_grid_moves_with_the_arrow_keys(page, log_in, tournament, referee):
    match, _turns = match_with_turns(tournament, referee)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    stops = page.locator('#turn-form .tile-grid .tile-button[tabindex="0"]')
    expect(stops).to_have_count(1)  # one tab stop for the whole grid
    stops.focus()
    first = page.evaluate("document.activeElement.dataset.tile")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("document.activeElement.dataset.tile")
    assert second != first and page.evaluate("!document.activeElement.disabled")
    columns = page.evaluate("getComputedStyle(document.querySelector('.tile-grid')).gridTemplateColumns.split(' ').length")
    page.keyboard.press("ArrowDown")
    below = page.evaluate("""() => { const all = [...document.querySelectorAll('.tile-grid .tile-button')];
        return all.indexOf(document.activeElement); }""")
    start = page.evaluate(f"[...document.querySelectorAll('.tile-grid .tile-button')].findIndex(b => b.dataset.tile === '{second}')")
    assert below > start and (below - start) % columns == 0
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.tile") == page.evaluate(
        "[...document.querySelectorAll('.tile-grid .tile-button:not(:disabled)')].pop().dataset.tile")
    page.keyboard.press("Enter")
    expect(page.locator('.tile-button[aria-pressed="true"]')).to_have_count(1)


def test_the_board_and_the_tiles_are_named_in_the_pages_language(page, log_in, tournament, referee):
    match, turns = match_with_turns(tournament, referee)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    board = page.locator("#board svg")
    expect(board).to_have_attribute("role", "group")
    assert board.get_attribute("aria-label").startswith("La table, tuiles posées")
    assert "Triominos table" not in page.content()
    names = page.locator("#board polygon.open").evaluate_all("cells => cells.map(c => c.getAttribute('aria-label'))")
    assert names and all(name.startswith("Place libre") for name in names)
    assert len(set(names)) == len(names)  # each place its own name
    nofit = page.locator(".tile-button--nofit").first
    label = nofit.get_attribute("aria-label")
    assert "ne va nulle part" in label and label.startswith(nofit.inner_text())  # visible text first
    ratio = page.evaluate("""(button) => {
        const rgb = s => s.match(/\\d+/g).slice(0, 3).map(Number).map(v => v / 255)
            .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        const lum = c => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        const style = getComputedStyle(button);
        const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", nofit.element_handle())
    assert ratio >= 4.5


def test_on_a_phone_the_focus_stays_in_view(page, log_in, tournament, referee):
    match, turns = match_with_turns(tournament, referee)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    assert page.evaluate(FOCUS_IN_VIEW), "after load"
    turn = turns[6]
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    expect(page.locator("#id_claimed")).to_be_focused()
    assert page.evaluate(FOCUS_IN_VIEW), "after choosing a cell"
    expect(page.locator("#turn-preview .engine-points")).to_be_visible()
    page.locator("#id_claimed").fill(str(turn["claimed"]))
    page.keyboard.press("Enter")
    expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(7)
    expect(page.locator("#id_tile")).to_be_focused()
    assert page.evaluate(FOCUS_IN_VIEW), "after a save"


def test_on_a_phone_the_scoreboard_shows_whole_names_and_badges(page, log_in, tournament, referee):
    match, _turns = match_with_turns(tournament, referee)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    clipped = page.locator(".seats .seat-name, .seats .seat-badge, .seats .seat-total").evaluate_all(
        """items => items.filter(e => e.scrollWidth > e.clientWidth + 1
              || e.getBoundingClientRect().right > e.closest('.seat').getBoundingClientRect().right + 0.5)
            .map(e => e.textContent)""")
    assert clipped == []


def test_the_entry_pages_targets_are_at_least_24_px(page, log_in, tournament, referee):
    match, _turns = match_with_turns(tournament, referee, wrong={4})
    page.set_viewport_size({"width": 768, "height": 1024})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    small = page.locator("#match").evaluate("""(root) => [...root.querySelectorAll(
            'a, button, input:not([type=hidden]), select, summary, [role=button]')]
        .filter(e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; })
        .filter(e => !e.closest('.segment, .orientation'))
        .filter(e => { const b = e.getBoundingClientRect(); return b.height < 24 || b.width < 24; })
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == []


def test_the_correction_page_offers_the_board(page, log_in, tournament, referee):
    match, turns = match_with_turns(tournament, referee, count=8)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    for index in range(1, 8):  # a turn whose tile fitted elsewhere too
        if "place" not in turns[index]:
            continue
        target = Turn.objects.current().get(round__match=match, index=index)
        page.goto(f"/t/spring-open/matches/{match.pk}/turns/{target.pk}/correct/")
        expect(page.locator("#board svg")).to_be_visible()
        tile, cell = tile_and_cell(turns[index])
        expect(page.locator("#id_cell")).to_have_value(cell)
        expect(page.locator(f'#board polygon.open[data-cell="{cell}"]')).to_have_attribute("aria-pressed", "true")
        others = [c for c in page.locator("#board polygon.open.fits").evaluate_all(
            "cells => cells.map(c => c.dataset.cell)") if c != cell]
        if others:
            break
    else:
        pytest.fail("no turn of the round had another place for its tile")
    # another cell where the same tile fits: tapped, then the way it is turned picked
    page.locator(f'#board polygon.open[data-cell="{others[0]}"]').click()
    expect(page.locator("#id_cell")).to_have_value(others[0])
    expect(page.locator("#orientation-choice")).to_be_visible()
    choices = page.locator("#orientation-choice input[type=radio]")
    choice = choices.nth(choices.count() - 1)
    choice.check()
    expected = choice.get_attribute("value")
    expect(page.locator("#id_corners")).to_have_value(expected)
    page.locator("#id_reason").fill("mauvaise case notée")
    page.get_by_role("button", name="Enregistrer la correction").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    corrected = Turn.objects.current().get(round__match=match, index=index)
    assert (corrected.tile, corrected.cell, corrected.corners) == (tile, others[0], expected)


def serious(results) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {len(v['nodes'])} nodes, e.g. {v['nodes'][0]['html'][:120]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_referees_pages(axe, page, log_in, tournament, referee,
                                                       size):
    match, turns = match_with_turns(tournament, referee, count=8, wrong={4})
    target = Turn.objects.current().get(round__match=match, index=5)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    found = {}
    tile, _cell = tile_and_cell(turns[8])
    page.locator(f'.tile-button[data-tile="{tile}"]').click()  # the board's cells lit
    for url in (f"/t/spring-open/matches/{match.pk}/",
                f"/t/spring-open/matches/{match.pk}/sheet/",
                f"/t/spring-open/matches/{match.pk}/turns/{target.pk}/correct/",
                f"/t/spring-open/matches/{match.pk}/turns/{target.pk}/insert/"):
        if page.url.endswith(url) is False:
            page.goto(url)
        page.wait_for_load_state("load")
        problems = serious(axe.run(page, options={"runOnly": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}))
        if problems:
            found[url] = problems
    assert found == {}
