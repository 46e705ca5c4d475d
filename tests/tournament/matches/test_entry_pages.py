"""The referee's pages around the entry screen, through the test client: the words of the
correction and insertion pages, sheet mode's lines."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.factories import add, match_at
from tournament import engine
from tournament.matches import services
from tournament.matches.forms.sheet_mode import SheetModeLineForm
from tournament.matches.views.sheet_mode import SHEET_MODE_LINES
from tournament.models import RoundEnd, Turn, Verdict

pytestmark = pytest.mark.django_db


def url(match, name, **kwargs):
    from django.urls import reverse
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def verdict_words(page: str) -> list[str]:
    return re.findall(r'<span class="verdict verdict--\w+">([^<]*)</span>', page)


@pytest.mark.parametrize("name", ["match_turn_correct", "match_turn_insert"])
def test_the_correction_and_insertion_pages_name_the_verdict_in_the_page_language(
        referee, referee_client, tournament, name):
    match = match_at(tournament=tournament)
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                           corners=(5, 5, 5), points_claimed=30))
    turn = Turn.objects.current().get(round__match=match)
    assert turn.verdict == Verdict.MISMATCH
    page = referee_client.get(url(match, name, turn_id=turn.pk)).content.decode()
    with translation.override("fr"):
        assert verdict_words(page) == [str(Verdict.MISMATCH.label)]
    assert "mismatch" not in verdict_words(page)


def test_sheet_mode_starts_with_the_lines_of_a_whole_round(referee_client, tournament):
    match = match_at(tournament=tournament)
    response = referee_client.get(url(match, "match_sheet_mode"))
    formset = response.context["formset"]
    assert SHEET_MODE_LINES >= 28 and formset.total_form_count() == SHEET_MODE_LINES
    assert formset.forms[0].fields["who"].widget.attrs.get("autofocus")


def test_more_lines_puts_the_cursor_after_the_last_line_typed(referee_client, tournament):
    match = match_at(tournament=tournament)
    data = {"line-TOTAL_FORMS": str(SHEET_MODE_LINES), "line-INITIAL_FORMS": "0", "revision": "0",
            "line-0-who": "a", "line-0-tile": "555", "line-0-bonus": "o", "line-0-points": "25",
            "line-1-tile": "4-5-5", "line-1-points": "14", "more": "1"}
    response = referee_client.post(url(match, "match_sheet_mode"), data)
    formset = response.context["formset"]
    assert formset.total_form_count() == 2 * SHEET_MODE_LINES
    focused = [i for i, line in enumerate(formset.forms) if line.fields["who"].widget.attrs.get("autofocus")]
    assert focused == [2]
    assert response.context["formset"].forms[1]["tile"].value() == "4-5-5"  # nothing typed lost


def sheet_check(referee_client, match, points):
    data = {"line-TOTAL_FORMS": "1", "line-INITIAL_FORMS": "0", "revision": "0",
            "line-0-who": "a", "line-0-tile": "555", "line-0-bonus": "o", "line-0-points": points,
            "check": "1"}
    return referee_client.post(url(match, "match_sheet_mode"), data)


def test_every_line_accepted_is_said_only_when_no_claim_differs(referee_client, tournament):
    match = match_at(tournament=tournament)
    differs = sheet_check(referee_client, match, "31")
    assert differs.context["mismatch_count"] == 1
    assert 'id="all-accepted"' not in differs.content.decode()
    accepted = sheet_check(referee_client, match, "25")
    assert accepted.context["mismatch_count"] == 0
    assert 'id="all-accepted"' in accepted.content.decode()


def test_every_sheet_input_has_a_label(referee_client, tournament):
    match = match_at(tournament=tournament)
    page = referee_client.get(url(match, "match_sheet_mode")).content.decode()
    rows = re.findall(r'<tr class="sheet-line.*?</tr>', page, re.S)
    assert len(rows) == SHEET_MODE_LINES
    for row in rows:
        inputs = re.findall(r"<(?:input|select)\b[^>]*>", row)
        labelled = re.findall(r"<label><span class=\"visually-hidden\">[^<]+</span><(?:input|select)\b", row)
        assert len(inputs) == len(labelled) == 5
    assert 'tabindex="-1"' not in page


def test_the_settlement_claimed_for_the_winner_only_implies_the_others_zeros(referee,
                                                                             referee_client,
                                                                             tournament):
    match = match_at(tournament=tournament)
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                           corners=(5, 5, 5), points_claimed=25))
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))  # the pool is empty: the table is blocked
    data = {"revision": 11, "total_0": "90", "total_1": "120", "total_2": "100",
            "total_3": "95", "settlement_0": "25"}
    response = referee_client.post(url(match, "match_round_end", number=1), data)
    assert response.status_code == 302
    (end,) = RoundEnd.objects.filter(round__match=match, superseded_at=None)
    assert end.settlement_claimed == [25, 0, 0, 0]


@pytest.mark.parametrize("code", ["b", "p", "B"])
def test_a_bridge_is_b_in_english_and_p_in_french_on_the_sheet(code):
    form = SheetModeLineForm(data={"tile": "345", "bonus": code})
    form.is_valid()
    assert form.cleaned_data.get("bonus") == "bridge"
    form = SheetModeLineForm(data={"tile": "345", "bonus": "x"})
    assert not form.is_valid() and "bonus" in form.errors
