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

