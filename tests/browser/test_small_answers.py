"""A save's answer carries what the turn changed (the line, the scores, the table's new tile)
and leaves the rest to the page: on the referee's tablet, the page after each save shows what
the whole page shows once reloaded, and nothing is asked again. A phone's page polls the
match's live part, and takes the whole match again only when its settled rounds changed."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.entry_helpers import (
    claim_and_save,
    enter_turns,
    simulated_round,
    tile_and_cell,
)
from tests.factories import add, board_turn, fresh, match_at, played_record, truncated
from tournament.matches import services
from tournament.models import Turn

#: What the entry screen shows, read from the page: the table's elements, what each tile of
#: the grid says, the totals, the turns' rows, the board's data.
FACTS = """() => {
  const board = document.getElementById('board');
  const svg = board.querySelector('svg');
  return {
    revision: document.getElementById('match').dataset.revision,
    frame: [svg.getAttribute('viewBox'), svg.getAttribute('aria-label')],
    tiles: Array.from(svg.querySelectorAll('g.tile')).map(g => [g.id, g.getAttribute('class'), g.textContent]),
    open: Array.from(svg.querySelectorAll('polygon.open')).map(p => [p.id, p.dataset.label || p.getAttribute('aria-label')]).sort(),
    legal: JSON.parse(board.dataset.legal),
    placements: JSON.parse(board.dataset.placements),
    grid: Array.from(document.querySelectorAll('.tile-button')).map(b => [b.dataset.tile, b.disabled, b.classList.contains('tile-button--nofit'), b.getAttribute('aria-label')]),
    totals: Array.from(document.querySelectorAll('.seat-total')).map(t => t.textContent),
    rows: Array.from(document.querySelectorAll('#round-1 tbody tr')).map(r => [r.id, r.textContent]),
    left: document.querySelectorAll('#match [hx-preserve], #board-changes, #log-changes').length,
  };
}"""


def enter_by_taps(page, turn: dict) -> None:
    """The tile, the cell, the way it is turned when asked, the points and Enter."""
    tile, cell = tile_and_cell(turn)
    page.locator(f'.tile-button[data-tile="{tile}"]').click()
    page.locator(f'#board polygon.open[data-cell="{cell}"]').click()
    preview = page.locator("#turn-preview [data-points], #turn-preview fieldset.orientations")
    expect(preview.first).to_be_visible()
    claim_and_save(page, turn)


def test_after_each_save_the_tablet_shows_what_a_reload_shows(page, log_in, tournament, referee):
    match = match_at(tournament=tournament, started=True)
    turns = simulated_round(match)
    enter_turns(match, referee, turns[:3])
    page.set_viewport_size({"width": 768, "height": 1024})
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    expect(page.locator("#turn-form")).to_be_visible()
    saves, asked_again = [], []
    page.on("response", lambda response: saves.append(response) if response.request.method
            == "POST" and response.url.endswith("/turns/") else None)
    page.on("request", lambda request: asked_again.append(request.url) if request.method
            == "GET" and request.headers.get("hx-request") else None)

    entered, tapped = 3, 0
    for turn in turns[3:]:
        if tapped == 4:
            break
        if turn.get("place") and not turn.get("draws"):
            enter_by_taps(page, turn)
            tapped += 1
        else:  # a draw or a pass: entered by the services, the page read again
            enter_turns(match, referee, [turn])
            page.reload()
        entered += 1
        expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(entered)
    assert tapped == 4
    after_saves = page.evaluate(FACTS)
    assert after_saves["left"] == 0  # every part left to the page was filled, or applied
    assert saves and all(s.request.headers.get("x-match-shown") for s in saves)
    assert all(len(s.body()) <= 10 * 1024 for s in saves)
    assert asked_again == []  # no part was missing: the match was not asked for again

    page.reload()
    expect(page.locator("#turn-form")).to_be_visible()
    assert page.evaluate(FACTS) == after_saves


def test_a_phone_follows_the_match_by_its_live_part_and_takes_the_rest_when_it_changed(
        page, tournament, referee, settings):
    """The public's page polls the live part: a turn shows at once without the match being
    taken again; a round confirmed (the settled rounds changed) takes the whole match once."""
    settings.TRIOMINOS_POLL_SECONDS = 1
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=3)
    services.match_record_import(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision,
                                 record=truncated(record, rounds=1, turns=2))
    polls, whole = [], []
    page.on("request", lambda request: (whole if request.url.endswith(f"/matches/{match.pk}/")
                                        else polls).append(request.url)
            if request.headers.get("hx-request") else None)
    page.goto(f"/t/spring-open/matches/{match.pk}/")
    page.evaluate("window.notReloaded = true")
    live_rows = page.locator("#match-live tbody tr[id^='turn-']")
    expect(live_rows).to_have_count(2)
    add(match, referee, board_turn(record["rounds"][1]["turns"][2]))
    expect(live_rows).to_have_count(3, timeout=5_000)
    expect(page.locator("#round-1 .badge--good")).to_have_count(0)
    assert whole == [] and polls and all(url.endswith("/live/") for url in polls)

    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)
    expect(page.locator("#round-1 .badge--good")).to_have_count(1, timeout=5_000)
    expect(live_rows).to_have_count(3)
    assert len(whole) == 1
    assert page.evaluate("window.notReloaded") is True


def test_a_closed_round_left_to_the_page_is_decided_after_saves_in_the_next(
        page, log_in, tournament, referee):
    """Round 1 closed with a claim that differs, not decided; the tablet saves turns of round
    2, whose answers leave round 1 to the page (as it shows it). Its decision form then goes
    at the match's revision: the referee's decision is taken, not refused as stale."""
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    first = [dict(turn) for turn in record["rounds"][0]["turns"]]
    wrong = next(index for index, turn in enumerate(first) if turn.get("place"))
    first[wrong]["claimed"] += 7
    second = record["rounds"][1]["turns"]
    cut = next(k for k in range(1, len(second) - 1)
               if all(t.get("place") and not t.get("draws") for t in second[k:k + 2]))
    head = truncated({**record, "rounds": [{**record["rounds"][0], "turns": first},
                                           *record["rounds"][1:]]}, rounds=1, turns=cut)
    services.match_record_import(match=fresh(match), user=referee, seen_revision=0,
                                 record=head)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    expect(page.locator("#turn-form")).to_be_visible()
    answers = []
    page.on("response", lambda response: answers.append(response) if response.request.method
            == "POST" and response.url.endswith("/turns/") else None)
    for entered, turn in enumerate(second[cut:cut + 2], start=cut + 1):
        enter_by_taps(page, turn)
        expect(page.locator("#round-2 table.turn-log tbody tr[id^='turn-']")).to_have_count(
            entered)
    assert len(answers) == 2
    assert all(b'id="round-1" hx-preserve' in answer.body() for answer in answers)
    revision = str(fresh(match).revision)
    expect(page.locator("#match")).to_have_attribute("data-revision", revision)

    round_1 = page.locator("#round-1")
    round_1.evaluate("element => { element.open = true; }")  # the referee opens round 1
    decide = round_1.locator("form.decide-engine")
    expect(decide).to_be_visible()
    assert decide.locator('input[name="revision"]').input_value() == revision
    decide.locator("button[type=submit]").click()
    expect(page.locator("#round-1 form.decide-engine")).to_have_count(0)
    decided = current_turn(match, round_index=0, index=wrong)
    assert decided.decision == "engine"


def current_turn(match, *, round_index: int, index: int) -> Turn:
    return Turn.objects.current().get(round__match=match, round__index=round_index, index=index)
