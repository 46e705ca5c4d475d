"""A whole round entered on a tablet with the Wi-Fi gone, as a referee enters it: a mistake made
on the way (the tile typed, then Enter, no cell touched) refused on the spot in the server's
words and nothing queued; the round's end reached offline (the racks' form drawn by the
tablet, the settlement shown pending, computed by the engine's rules, and a rack with a tile
already on the table refused); meanwhile the second tablet of the table saved the same first
turn, so that the first write of the queue is refused as stale once the Wi-Fi is back. The
page then shows the match as the server has it, the refused turn listed beside it with why
and what to do; discarded, the rest of the round is sent in order and saved once, and the
page ends equal to a page opened afresh on the server's match."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from scoring import settle
from scoring.simulate import simulate_match
from tests.browser.entry_helpers import claim_and_save, tile_and_cell
from tests.browser.test_recording_conflict import open_match
from tests.browser.test_recording_offline import draw_three_and_pass, queued, stored
from tests.factories import add, board_turn, fresh, match_at, seated_names
from tournament.core.tournaments import staff_role_grant
from tournament.models import RoundEnd, StaffRole

#: A two-player round of thirteen turns: a pass after three draws, a tile placed after a draw,
#: and the second player going out.
SEED = 82


def tile_of(turn: dict) -> str:
    return tile_and_cell(turn)[0]


def cell_of(turn: dict) -> str:
    return tile_and_cell(turn)[1]


def place(page, turn: dict) -> None:
    """A placement entered by taps: the draws, the tile, the cell, the way it is turned, the
    points announced, Enter."""
    if turn.get("draws"):
        page.locator(".draws-field .segment").filter(has_text=str(turn["draws"])).click()
    page.locator(f'.tile-button[data-tile="{tile_of(turn)}"]').click()
    target = page.locator(f'#board polygon.open[data-cell="{cell_of(turn)}"]')
    expect(target).to_have_class(re.compile(r"\bfits\b"))
    target.click()
    expect(page.locator("#turn-preview .preview-head")).to_have_attribute("data-cell", cell_of(turn))
    claim_and_save(page, turn)


def open_on_a_tile(page) -> list[str]:
    """The cells offered to tap (or marked as fitting) where a tile lies, saved or pending."""
    return page.evaluate("""() => {
        const board = document.getElementById("board");
        const taken = new Set(JSON.parse(board.getAttribute("data-placements") || "[]").map((p) => p.split(":")[0]));
        board.querySelectorAll(".tile--pending").forEach((g) => taken.add(g.getAttribute("data-cell")));
        return Array.from(board.querySelectorAll("polygon.open, polygon.fits"))
            .filter((p) => p.getAttribute("display") !== "none" && taken.has(p.getAttribute("data-cell")))
            .map((p) => p.getAttribute("data-cell"));
    }""")


def shown(page) -> dict:
    """What the page shows of the match: its revision, the table, the scores, the round's
    state, the turns' rows, what is drawn pending."""
    return page.evaluate("""() => {
        const text = (s) => Array.from(document.querySelectorAll(s)).map((e) => e.textContent.replace(/\\s+/g, " ").trim());
        const board = document.getElementById("board");
        return {
            revision: document.getElementById("match").getAttribute("data-revision"),
            placements: JSON.parse(board.getAttribute("data-placements") || "[]"),
            tiles: Array.from(board.querySelectorAll("g.tile")).map((g) => g.getAttribute("data-cell") || g.id).sort(),
            totals: text("#match .seat-total"),
            pending: text("#match .seat-pending").length + document.querySelectorAll("#board .tile--pending").length,
            state: text("#match .round-state, #match .match-over"),
            rows: document.querySelectorAll("#match .round-log tbody tr").length,
            racksForm: !!document.getElementById("round-end-offline"),
        };
    }""")


def equal_to_the_server(page, url) -> dict:
    """The page shows the match as a page opened afresh on the server shows it."""
    view = shown(page)
    fresh_page = page.context.new_page()
    try:
        fresh_page.goto(url)
        expect(fresh_page.locator("#match")).to_be_attached()
        assert shown(fresh_page) == view
    finally:
        fresh_page.close()
    return view


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
def test_a_round_entered_offline_ends_as_the_server_has_it(browser, live_server, staff_password,
                                                          make_tournament, make_user, settings,
                                                          debug):
    settings.DEBUG = debug  # on: the README's set-up, django-htmx's debug script with it
    tournament = make_tournament(slug="duo", players=2, table_size=2, started=True)
    referee = make_user("remi-referee")
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    match = match_at(tournament=tournament)
    names = seated_names(match)
    round_ = simulate_match(players=2, seed=SEED, names=names)["rounds"][0]
    turns, racks = round_["turns"], round_["racks"]
    assert [t.get("place") is None for t in turns].count(True) == 1
    url = f"/t/duo/matches/{match.pk}/"
    context, page = open_match(browser, live_server, staff_password, url)
    try:
        first = turns[0]
        page.locator(".opener label").filter(has_text=names[first["player"]]).click()
        page.locator(f'.tile-button[data-tile="{tile_of(first)}"]').click()
        page.locator("#id_claimed").fill(str(first["claimed"]))
        page.keyboard.press("Enter")
        expect(page.locator("#done")).to_be_attached()

        context.set_offline(True)
        for index, turn in enumerate(turns[1:], start=1):
            if index == 3:
                # the mistake: the tile typed, the points, Enter, no cell touched
                page.locator("#id_tile").fill(tile_of(turn).replace("-", ""))
                page.locator("#id_claimed").fill(str(turn["claimed"]))
                page.locator(".save-turn").click()
                errors = page.locator("#id_cell_errors")
                expect(errors).to_have_attribute("data-codes", "cell_missing")
                expect(errors).to_have_attribute("role", "alert")
                expect(page.locator(".cell-field")).to_have_class(re.compile(r"\bfield--invalid\b"))
                expect(page.locator("#entry-toast")).to_have_attribute("data-kind", "refused")
                assert len(queued(page, match)) == index - 1  # nothing queued
                expect(page.locator("#send-queue")).to_have_attribute("data-count", str(index - 1))
            if turn.get("place") is None:
                draw_three_and_pass(page)
                # its cost shown pending beside its player: three draws and the failed draws
                rules = tournament.rule_set
                cost = 3 * rules.draw_penalty + rules.failed_draws_penalty
                seat = page.locator("#match .seats > .seat").nth(turn["player"])
                before = sum(t["claimed"] for t in turns[1:index] if t["player"] == turn["player"]
                             and t.get("place"))
                expect(seat.locator(".seat-pending")).to_have_attribute(
                    "data-points", str(before - cost))
            else:
                place(page, turn)
            expect(page.locator("#send-queue")).to_have_attribute("data-count", str(index))
            assert open_on_a_tile(page) == []
        expect(page.locator("#id_cell_errors")).to_have_count(0)  # gone with the mistake

        # the round's end, offline: the last tile emptied its player's hand
        racks_form = page.locator("#round-end-offline")
        expect(racks_form).to_be_visible()
        expect(page.locator("#turn-form")).to_be_hidden()
        out_player = turns[-1]["player"]
        expect(racks_form.locator(".round-end-offline__end")).to_have_attribute("data-end", "out")
        # a tile on the table typed in a rack: refused there, in the server's words
        loser = 1 - out_player
        racks_form.locator(f"[name=rack_{loser}]").fill(" ".join([tile_of(first), *racks[loser][1:]]))
        racks_form.locator("button[type=submit]").click()
        expect(racks_form.locator(f"#offline_rack_{loser}_errors li")).to_have_attribute(
            "data-code", "tile-already-played/rack")
        assert len(queued(page, match)) == len(turns) - 1
        racks_form.locator(f"[name=rack_{loser}]").fill(" ".join(racks[loser]))
        values = [sum(sum(map(int, t.split("-"))) for t in rack) for rack in racks]
        expected = list(settle(values, end="out", out_player=out_player,
                               rules=tournament.rule_set))
        pending = racks_form.locator(".round-end-offline__pending")
        expect(pending).to_be_visible()
        assert json.loads(pending.get_attribute("data-settlement")) == expected
        racks_form.locator("button[type=submit]").click()
        expect(page.locator("#send-queue")).to_have_attribute("data-count", str(len(turns)))
        expect(racks_form).to_have_attribute("data-state", "queued")
        expect(page.locator("#send-queue li").last).to_have_attribute("data-kind", "racks")
        assert stored(match) == [(0, first["player"], 0, tile_of(first))]

        # meanwhile the table's other tablet saved the first turn of the queue
        add(match, referee, board_turn(turns[1]))
        server_revision = fresh(match).revision

        context.set_offline(False)
        panel = page.locator("#send-queue")
        expect(panel).to_have_attribute("data-state", "refused", timeout=30_000)
        refused = panel.locator('li[data-state="refused"]')
        expect(refused).to_have_count(1)
        expect(refused).to_have_attribute("data-refusal", "stale")
        for said in (refused.locator(".send-queue__reason"), refused.locator(".send-queue__help")):
            expect(said).to_be_visible()
            expect(said).not_to_be_empty()
        expect(panel.locator('li[data-state="blocked"] .send-queue__help')).to_have_count(
            len(turns) - 1)
        # the page is the server's match: its two turns, nothing pending, no racks' form
        expect(page.locator("#match")).to_have_attribute("data-revision", str(server_revision))
        view = equal_to_the_server(page, url)
        assert view["pending"] == 0 and not view["racksForm"]
        assert len(view["placements"]) == sum(1 for t in turns[:2] if t.get("place"))
        assert len(queued(page, match)) == len(turns)  # nothing dropped

        # the referee discards the turn the other tablet entered: the rest follows, in order
        refused.locator("button[data-action=discard]").click()
        expect(page.locator("#send-queue")).to_have_count(0, timeout=120_000)
        saved = stored(match)
        assert saved == [(i, t["player"], t.get("draws", 0), tile_of(t) if t.get("place") else "")
                         for i, t in enumerate(turns)]
        end = RoundEnd.objects.get(round__match=match)
        assert [sorted(r) for r in end.racks] == [sorted(r) for r in racks]
        view = equal_to_the_server(page, url)
        assert view["pending"] == 0 and not view["racksForm"]
        assert queued(page, match) == []
    finally:
        context.close()
