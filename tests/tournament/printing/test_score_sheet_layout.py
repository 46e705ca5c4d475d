"""The blank sheet's form: drawn once per table size, room for a long round."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from PIL import Image

from tournament.engine import rule_set
from tournament.printing.score_sheet_layout import DPI, ScoreSheetLayout, SheetRules


@pytest.fixture
def rules():
    return SheetRules.of(rule_set("goliath-tournament"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_portrait_up_to_four_players_with_a_row_per_tour_for_a_long_round(rules, players):
    form = ScoreSheetLayout(players=players, rules=rules)
    assert not form.landscape
    assert form.rows >= 22  # 88 turns at a table of four
    assert form.legend_top + 12 <= form.height


def test_family_tables_of_six_turn_to_landscape(rules):
    form = ScoreSheetLayout(players=6, rules=SheetRules.of(rule_set("goliath-family")))
    assert form.landscape and form.width > form.height
    assert form.rows >= 10


def test_the_picture_is_the_content_box_at_600_dpi_and_drawn_once(rules):
    form = ScoreSheetLayout(players=4, rules=rules)
    with translation.override("fr"):
        png = form.png()
        assert form.png() is png
    with translation.override("en"):
        assert form.png() != png
    image = Image.open(io.BytesIO(png))
    assert image.mode == "L"
    assert image.size == (round(190 / 25.4 * DPI), round(274 / 25.4 * DPI))


def test_the_names_go_over_their_columns(rules):
    form = ScoreSheetLayout(players=3, rules=rules)
    css = form.overlay_css()
    for player in range(3):
        assert f".sheet-player--{player} {{ left: {form.group_left(player) + 6.6:.2f}mm;" in css
    assert ".sheet-player--3" not in css
