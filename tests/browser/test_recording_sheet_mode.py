"""Sheet mode by keyboard only: a paper score sheet typed line by line, checked, saved.

The page opens with the cursor in the first line; Tab moves through who, tile, draws, bonus,
points; Enter checks every line with the engine; the referee ticks that they saw the claim
that differs (Space), Tab to Save, Enter. Then the racks, typed the same way, and the round
confirmed from the keyboard.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.factories import match_at
from tournament.models import Match, Round, Turn

# (who, tile, draws, bonus, points): a short round of four players, sheet mode
LINES = [
    ("C", "444", "", "o", "22"),   # C opens with the triple 4-4-4: 12 + 10
    ("", "3-4-4", "", "", "11"),
    ("", "", "3", "", "-25"),      # A draws three, does not place
    ("", "2-4-4", "1", "", "5"),   # B draws one, places: 10 - 5
    ("", "1 4 4", "", "", "12"),   # C announces 12, the tile is worth 9: a mismatch
]


def test_a_paper_sheet_typed_by_keyboard_only(page, log_in, tournament, referee):
    match = match_at(tournament=tournament, started=True)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/sheet/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("mode feuille")
    expect(page.locator("#id_line-0-who")).to_be_focused()

    keyboard = page.keyboard
    for who, tile, draws, bonus, points in LINES:
        for value in (who, tile, draws, bonus, points):
            if value:
                keyboard.type(value)
            keyboard.press("Tab")
    keyboard.press("Enter")  # check

    expect(page.locator("#line-4")).to_have_class("sheet-line verdict-mismatch")
    expect(page.locator("#line-4 .problem-message")).to_contain_text("annonce 12 pour 1-4-4, le tour vaut 9")
    expect(page.locator("#line-1 .who-resolved")).to_have_text("D")  # the next player after C
    assert Turn.objects.filter(round__match=match).count() == 0  # checked, nothing saved yet
    expect(page.locator("#id_mismatches_seen")).to_be_focused()
    keyboard.press("Space")
    keyboard.press("Tab")
    expect(page.get_by_role("button", name="Enregistrer les lignes")).to_be_focused()
    keyboard.press("Enter")

    expect(page.locator(".messages")).to_contain_text("5 lignes enregistrées.")
    turns = list(Turn.objects.current().filter(round__match=match).order_by("index"))
    assert [(t.player, t.tile, t.draws, t.points, t.verdict) for t in turns] == [
        (2, "4-4-4", 0, 22, "ok"),
        (3, "3-4-4", 0, 11, "ok"),
        (0, "", 3, -25, "ok"),
        (1, "2-4-4", 1, 5, "ok"),
        (2, "1-4-4", 0, 9, "mismatch"),
    ]
    assert Match.objects.get(pk=match.pk).totals == [-25, 5, 31, 11]
    expect(page.locator("#id_line-0-who")).to_be_focused()  # ready for the next lines

    # a bad line is refused with its message next to it, in French, and nothing is saved
    keyboard.type("Z")
    keyboard.press("Tab")
    keyboard.type("3-4-9")
    keyboard.press("Enter")
    expect(page.locator("#id_line-0-who_errors")).to_contain_text("Qui a joué\u00a0: une lettre de place")
    expect(page.locator("#id_line-0-tile_errors")).to_contain_text("«\u00a03-4-9\u00a0» n’est pas une tuile")
    assert Turn.objects.current().filter(round__match=match).count() == 5
    assert Round.objects.get(match=match).confirmed_at is None


def test_more_lines_by_keyboard_keeps_the_cursor_at_the_next_line(page, log_in, tournament,
                                                                   referee):
    match = match_at(tournament=tournament)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/sheet/")
    lines = page.locator("tr.sheet-line")
    expect(lines).to_have_count(28)
    expect(page.locator("#id_line-0-who")).to_be_focused()
    keyboard = page.keyboard
    for who, tile, draws, bonus, points in LINES[:2]:
        for value in (who, tile, draws, bonus, points):
            if value:
                keyboard.type(value)
            keyboard.press("Tab")
    page.get_by_role("button", name="Vérifier").focus()
    keyboard.press("Tab")
    expect(page.get_by_role("button", name="Plus de lignes")).to_be_focused()
    keyboard.press("Enter")
    expect(lines).to_have_count(56)
    expect(page.locator("#id_line-2-who")).to_be_focused()
    expect(page.locator("#id_line-1-tile")).to_have_value("3-4-4")


def test_the_checkbox_of_the_claims_that_differ_is_one_box(page, log_in, tournament, referee):
    match = match_at(tournament=tournament, started=True)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/sheet/")
    expect(page.locator("#id_line-0-who")).to_be_focused()  # typing before it would be lost
    keyboard = page.keyboard
    for who, tile, draws, bonus, points in LINES:
        for value in (who, tile, draws, bonus, points):
            if value:
                keyboard.type(value)
            keyboard.press("Tab")
    keyboard.press("Enter")
    box = page.locator("#id_mismatches_seen")
    expect(box).to_be_focused()
    style = box.evaluate("""e => { const s = getComputedStyle(e);
        return [s.borderTopWidth, s.paddingTop, e.getBoundingClientRect().width]; }""")
    assert style[0] == "0px" and style[1] == "0px" and style[2] < 30


def test_the_codes_printed_on_the_score_sheet_are_typed_as_they_are(page, log_in, tournament,
                                                                      referee):
    """The French sheet heads its boxes P, C and H (with 1 to 3 written in it): typed as the
    paper has them, in capitals, they are read, and the verdict signs have their legend."""
    match = match_at(tournament=tournament, started=True)
    log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/sheet/")
    for n in ("ok", "mismatch", "illegal", "unverified"):
        expect(page.locator(f"#verdict-legend [data-verdict={n}]")).to_be_visible()
    lines = [("C", "444", "", "O", "22"), ("", "3-4-4", "", "C", "11"), ("", "2-4-4", "", "H2", "5")]
    for index, (who, tile, draws, bonus, points) in enumerate(lines):
        for name, value in (("who", who), ("tile", tile), ("draws", draws), ("bonus", bonus),
                            ("points", points)):
            page.locator(f"#id_line-{index}-{name}").fill(value)
    page.get_by_role("button", name="Vérifier").click()
    expect(page.locator("#line-2 .who-resolved")).to_be_visible()
    expect(page.locator(".sheet-grid .field-errors")).to_have_count(0)
    expect(page.locator("#id_line-1-bonus")).to_have_value("C")
