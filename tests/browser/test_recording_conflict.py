"""Two scorekeepers at one table, on two tablets: the second save, made on a stale view, is
refused with a clear message and the current state; nothing is lost or doubled."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import match_at
from tournament.models import Turn


def open_match(browser, live_server, staff_password, url):
    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 1024, "height": 768})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"/login/?next={url}")
    page.locator("#id_username").fill("remi-referee")
    page.locator("#id_password").fill(staff_password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#turn-form")).to_be_visible()
    return context, page


def enter_opening(page, seat_name, tile, points):
    page.locator(".opener label").filter(has_text=seat_name).click()
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    expect(page.locator(".preview-score")).to_be_visible()
    page.locator("#id_claimed").fill(points)
    page.keyboard.press("Enter")


def test_the_second_tablet_is_told_and_shown_the_match_as_it_is(browser, live_server, tournament,
                                                                 referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    url = f"/t/spring-open/matches/{match.pk}/"
    first_context, first = open_match(browser, live_server, staff_password, url)
    second_context, second = open_match(browser, live_server, staff_password, url)
    try:
        names = [text.strip() for text in first.locator(".seat-name").all_inner_texts()]
        enter_opening(first, names[0], "5-5-5", "25")
        expect(first.locator("#done")).to_have_text("Tour enregistré.")

        # the second tablet still shows an empty table: the preview of a tile that fits it is
        # the tablet's own (no request, board.js), and the save made on it is refused: the
        # page shows the match as it is, nothing of the second tablet's turn saved
        previews = []
        second.on("request", lambda request: previews.append(request.url)
                  if request.url.endswith("/preview/") else None)
        second.locator(".opener label").filter(has_text=names[1]).click()
        second.locator('.tile-button[data-tile="4-4-4"]').click()
        expect(second.locator(".preview-score")).to_have_attribute("data-points", "22")
        assert previews == []
        second.locator("#id_claimed").fill("22")
        second.keyboard.press("Enter")
        expect(second.locator("#conflict")).to_contain_text("Quelqu’un d’autre a enregistré")
        expect(second.locator("#board g.tile")).to_have_count(1)
        expect(second.locator("#board g.tile")).to_have_attribute("data-tile", "5-5-5")
        expect(second.locator(".to-play")).to_contain_text(names[1])
        expect(second.locator('.tile-button[data-tile="5-5-5"]')).to_be_disabled()

        # and a save sent from a stale page (a slow network, no preview) is refused the same
        second.evaluate("""() => {
            const form = document.querySelector('#turn-form');
            form.querySelector('[name=revision]').value = '0';
            form.querySelector('#id_tile').value = '4-4-5';
            const cell = form.querySelector('#id_cell');
            cell.add(new Option('D(0,0)', 'D(0,0)')); cell.value = 'D(0,0)';
            form.querySelector('#id_claimed').value = '13';
        }""")
        second.locator("#id_claimed").press("Enter")
        expect(second.locator("#conflict")).to_contain_text("rien de la vôtre n’a été enregistré")

        (turn,) = Turn.objects.filter(round__match=match)
        assert turn.tile == "5-5-5" and turn.player == 0
    finally:
        first_context.close()
        second_context.close()
