"""Sheet mode reads the bonus codes the paper score sheet prints, in either language and case,
and the sheet's legend and sheet mode's help name the same codes."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from tests.factories import match_at
from tournament.engine import rule_set
from tournament.matches.forms.sheet_mode import SheetModeLineForm
from tournament.matches.sheet_codes import bonus_codes_text, box_marks
from tournament.printing.score_sheet_layout import ScoreSheetLayout, SheetRules


def bonus_of(typed: str) -> str | None:
    form = SheetModeLineForm(data={"tile": "345", "bonus": typed}, seat_count=4)
    if not form.is_valid():
        assert [e.code for e in form.errors.as_data()["bonus"]] == ["unknown-bonus"]
        return None
    return form.cleaned_data["bonus"]


@pytest.mark.parametrize(("typed", "bonus"), [
    ("C", "two-sides"), ("c", "two-sides"), ("T", "two-sides"), ("2", "two-sides"),
    ("P", "bridge"), ("b", "bridge"),
    ("H1", "hexagon"), ("h 2", "double-hexagon"), ("H3", "triple-hexagon"),
    ("h", "hexagon"), ("HH", "double-hexagon"), ("hhh", "triple-hexagon"), ("O", "opening"),
])
def test_the_codes_of_the_paper_sheet_and_the_short_ones_are_read(typed, bonus):
    assert bonus_of(typed) == bonus


@pytest.mark.parametrize("typed", ["H4", "hhhh", "x", "CC", "H0"])
def test_a_code_that_no_sheet_prints_is_refused(typed):
    assert bonus_of(typed) is None


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_language_s_box_letters_are_read_as_their_box(language):
    with translation.override(language):
        bridge, two_sides, hexagon = box_marks()
    assert bonus_of(bridge) == "bridge"
    assert bonus_of(two_sides) == "two-sides"
    assert [bonus_of(f"{hexagon}{n}") for n in (1, 2, 3)] == [
        "hexagon", "double-hexagon", "triple-hexagon"]


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_the_printed_legend_names_the_codes_sheet_mode_reads(language):
    layout = ScoreSheetLayout(players=4, rules=SheetRules.of(rule_set("goliath-tournament")))
    with translation.override(language):
        legend = "".join(text for text, _bold in layout.legend_runs())
        codes = bonus_codes_text()
    assert codes in legend


def test_sheet_mode_s_help_names_the_same_codes(referee_client, tournament):
    match = match_at(tournament=tournament, started=True)
    response = referee_client.get(f"/t/{tournament.slug}/matches/{match.pk}/sheet/")
    with translation.override("fr"):
        codes = bonus_codes_text()
    assert response.context["bonus_codes"] == codes
    assert f'<span class="bonus-codes">{codes}</span>' in response.content.decode()
