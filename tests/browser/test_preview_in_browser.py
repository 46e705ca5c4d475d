"""The tablet previews a tile that fits the cell tapped without asking the server (board.js
scores it with the rule set's figures and words the page carries), and says what the
server's preview would say; a cell where the tile does not fit is still the server's to
explain. In French and in English, with the README's set-up (DEBUG on)."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.browser.entry_helpers import (
    claim_and_save,
    enter_turns,
    simulated_round,
    tile_and_cell,
)
from tests.factories import match_at
from tournament import engine
from tournament.models import Turn

#: What a preview shows, read from its DOM contract (_turn_preview.html), server's or local.
PREVIEW_FACTS = """(root) => {
    const score = root.querySelector("[data-points]");
    const text = (selector) => {
        const found = root.querySelector(selector);
        return found ? found.textContent.trim() : null;
    };
    return {
        cell: root.querySelector(".preview-head") && root.querySelector(".preview-head").dataset.cell,
        tile: text(".preview-head .tile-name"),
        points: score && score.getAttribute("data-points"),
        enginePoints: text(".engine-points"),
        engineLabel: text(".engine-label"),
        bonus: text(".bonus-found"),
        explain: text(".explain"),
        legend: text(".orientations legend"),
        radios: Array.from(root.querySelectorAll('input[type=radio][name=corners]'), (r) => r.value),
        drawn: root.querySelectorAll('.orientation svg').length,
        hidden: Array.from(root.querySelectorAll('input[type=hidden][name=corners]'), (r) => r.value),
        refused: !!root.querySelector(".preview-refused"),
    };
}"""


def server_preview_facts(page, locale: str) -> dict:
    """The server's preview of what the form holds now, asked outside the page (not one of
    the page's requests) in the page's language, read as the page's preview is read."""
    form = page.evaluate("""() => {
        const form = document.querySelector('#turn-form');
        return {url: form.dataset.previewUrl, fields: Array.from(new FormData(form))};
    }""")
    fields = dict(form["fields"])
    answer = page.request.post(form["url"], form=fields, headers={
        "HX-Request": "true", "X-CSRFToken": fields["csrfmiddlewaretoken"],
        "Referer": page.url, "Accept-Language": locale})
    assert answer.status == 200
    return page.evaluate(f"""(html) => {{
        const root = document.createElement("div");
        root.innerHTML = html;
        return ({PREVIEW_FACTS})(root);
    }}""", answer.text())


def tap_turn(page, turn: dict) -> None:
    """Enter a placed turn's draws, tile and cell by tapping, and wait for the preview to show
    the turn's points."""
    if turn.get("draws"):
        page.locator(".draws-field .segment").filter(has_text=str(turn["draws"])).click()
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    expect(page.locator("#turn-preview [data-points]")).to_have_attribute(
        "data-points", str(turn["claimed"]))


def local_preview_facts(page) -> dict:
    return page.evaluate(f"() => ({PREVIEW_FACTS})(document.querySelector('#turn-preview'))")


@pytest.mark.parametrize("locale", ["fr-FR", "en-US"])
def test_a_fitting_tile_is_previewed_without_a_request(browser, live_server, tournament, referee,
                                                      staff_password, settings, locale):
    settings.DEBUG = True  # the README's set-up
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match, seed=11)
    first = next(i for i, t in enumerate(turns) if i and "place" in t and t.get("draws"))
    last = next(i for i, t in enumerate(turns) if i > first and "place" in t and t.get("bonus"))
    enter_turns(match, referee, turns[:first])

    context = browser.new_context(base_url=live_server.url, locale=locale,
                                  viewport={"width": 1024, "height": 768})
    context.set_default_timeout(20_000)
    page = context.new_page()
    previews: list[str] = []
    page.on("request", lambda request: previews.append(request.url)
            if request.url.endswith("/preview/") else None)
    page.goto(f"/login/?next=/t/spring-open/matches/{match.pk}/")
    page.locator("#id_username").fill(referee.username)
    page.locator("#id_password").fill(staff_password)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#turn-form")).to_be_visible()
    language = locale[:2]

    for index in range(first, last + 1):
        turn = turns[index]
        if "place" not in turn:
            page.locator(".pass-button").click()
            page.locator("#pass-confirm button[type=submit]").click()
            expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(index + 1)
            continue
        tap_turn(page, turn)  # the engine's figure, at once, with no request
        assert previews == []
        local = local_preview_facts(page)
        tile, cell = tile_and_cell(turn)
        assert (local["cell"], local["tile"], local["enginePoints"]) == (cell, tile, str(turn["claimed"]))
        if index in (first, last):  # what the server would have said, word for word
            assert local == server_preview_facts(page, locale)
        with translation.override(language):
            if turn.get("bonus"):
                assert local["bonus"] == engine.bonus_label(turn["bonus"])
            if turn.get("draws"):
                assert f"({translation.gettext('draws')})" in local["explain"]
        corners = "-".join(map(str, turn["place"]["corners"]))
        if local["radios"]:
            assert local["drawn"] == len(local["radios"]) > 1
            page.locator(f'#turn-preview input[type="radio"][value="{corners}"]').check()
        else:
            assert local["hidden"] == [corners]
        page.locator("#id_claimed").fill(str(turn["claimed"]))
        page.keyboard.press("Enter")
        expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(index + 1)
    assert previews == []
    saved = list(Turn.objects.current().filter(round__match=match, index__gte=first)
                 .order_by("index").values_list("verdict", flat=True))
    assert saved == ["ok"] * (last + 1 - first)

    # a cell where the tile does not fit: the server is asked, and says why
    tile, _cell = tile_and_cell(next(t for t in turns[last + 1:] if "place" in t))
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator("#board polygon.open.nofit").first.click()
    expect(page.locator("#turn-preview .preview-refused")).to_be_visible()
    assert len(previews) == 1
    expect(page.locator("#turn-preview [data-points]")).to_have_count(0)
    expect(page.locator("#turn-form .as-computed")).to_be_disabled()
    context.close()


def test_a_late_answer_of_the_server_does_not_replace_the_preview_shown_since(
        page, log_in, tournament, referee):
    """A cell where the tile does not fit tapped on a slow network, then the one where it
    fits: the tablet's preview of the second stays when the server's refusal of the first
    arrives."""
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match, seed=11)
    enter_turns(match, referee, turns[:4])
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    expect(page.locator("#turn-form")).to_be_visible()
    answered: list[int] = []
    page.on("response", lambda response: answered.append(response.status)
            if response.url.endswith("/preview/") else None)
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 1500, "downloadThroughput": -1, "uploadThroughput": -1})

    turn = next(t for t in turns[4:] if "place" in t)
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator("#board polygon.open.nofit").first.click()
    page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    expect(page.locator("#turn-preview [data-points]")).to_have_count(1)
    page.wait_for_timeout(100)
    assert answered == []  # the refusal is still on its way
    page.wait_for_event("response", lambda response: response.url.endswith("/preview/"))
    page.wait_for_timeout(300)
    expect(page.locator("#turn-preview .preview-refused")).to_have_count(0)
    expect(page.locator("#turn-preview .preview-head")).to_have_attribute("data-cell", cell)
    assert answered == [200]


def test_offline_a_tile_next_to_turns_waiting_to_send_is_previewed_with_its_points(
        page, log_in, tournament, referee):
    """The network cut: each turn entered waits on the tablet, and the next tile is previewed
    on the table with the waiting tiles (a bridge over them, the draws taken off): the
    engine's figures, with no request."""
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match, seed=11)
    first = next(i for i, t in enumerate(turns) if i and "place" in t and t.get("draws"))
    last = next(i for i, t in enumerate(turns) if i > first and "place" in t and t.get("bonus"))
    enter_turns(match, referee, turns[:first])
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    expect(page.locator("#turn-form")).to_be_visible()
    previews: list[str] = []
    page.on("request", lambda request: previews.append(request.url)
            if request.url.endswith("/preview/") else None)
    page.context.set_offline(True)

    for count, index in enumerate(range(first, last + 1), start=1):
        turn = turns[index]
        if "place" not in turn:
            page.locator("#pass-confirm .pass-button").click()
            page.locator("#pass-confirm button[type=submit]").click()
        else:
            tap_turn(page, turn)
            if turn.get("bonus"):
                expect(page.locator("#turn-preview .bonus-found")).to_have_count(1)
            claim_and_save(page, turn)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", str(count))
    assert previews == []
    assert Turn.objects.current().filter(round__match=match).count() == first
