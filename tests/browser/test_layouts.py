"""What a person sees whole on a tablet in landscape and on a phone: names never cut in the
middle of a word, the Save button on one line, the columns that decide a rank in view."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import match_at, players_of, seated_session, tournament_with_players
from tournament.core.tournaments import staff_role_grant

LONG_NAMES = ["François Dubœuf", "Hélène Lefèvre-Dubœuf", "Jean-Baptiste Castelnau",
              "Anne-Sophie Delacroix"]

#: Per element matched by the selector: the words of its text that the layout splits over
#: two lines (each word's client rects on more than one line).
WORDS_CUT = """(selector) => {
  const cut = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+/g;
      let m;
      while ((m = re.exec(node.data)) !== null) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
        if (tops.size > 1) cut.push(m[0]);
      }
    }
  }
  return cut;
}"""

LINES_OF = """(selector) => {
  const element = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size;
}"""


def test_in_landscape_names_are_whole_and_save_stays_on_one_line(page, log_in, referee):
    tournament = tournament_with_players(slug="long-names", players=LONG_NAMES)
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    seated_session(tournament=tournament, tables=[players_of(tournament)], started=True)
    match = match_at(tournament=tournament)
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in("remi-referee", next_url=f"/t/long-names/matches/{match.pk}/")
    expect(page.locator(".seat-name").first).to_be_visible()
    assert page.evaluate(WORDS_CUT, ".seat-name") == []
    expect(page.locator(".save-turn")).to_be_visible()
    assert page.evaluate(LINES_OF, ".save-turn") == 1



IN_VIEW = """(selector) => Array.from(document.querySelectorAll(selector)).map(
  cell => cell.getBoundingClientRect().right <= window.innerWidth + 0.5)"""


def test_on_a_phone_the_columns_that_decide_the_rank_stay_in_view(browser, live_server,
                                                                  tournament, organiser):
    from tests.factories import confirmed_match
    from tournament.models import League
    confirmed_match(match=match_at(tournament=tournament, table=2), totals=[412, 230, 151, 88])
    league = League.objects.create(name="Spring season", slug="spring-season")
    tournament.league = league
    tournament.save(update_fields=["league"])
    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.goto("/t/spring-open/standings/")
    criteria = tournament.ranking_criteria
    header = phone.locator("#standings thead th")
    expect(header.first).to_be_visible()
    in_view = phone.evaluate(IN_VIEW, "#standings thead th")
    deciding = in_view[:2] + in_view[4:4 + len(criteria)]  # rank, name; then the criteria
    assert len(deciding) == 2 + len(criteria) and all(deciding), in_view
    phone.goto("/leagues/spring-season/")
    total = phone.locator("table thead th.league-total").first
    expect(total).to_be_visible()
    assert total.evaluate("th => th.getBoundingClientRect().right <= window.innerWidth + 0.5")
    # a table still wider than the screen says that it scrolls
    for box in phone.locator(".table-container").all():
        if box.evaluate("b => b.scrollWidth > b.clientWidth + 1"):
            expect(box.locator("xpath=following-sibling::p[1]")).to_be_visible()
    context.close()
