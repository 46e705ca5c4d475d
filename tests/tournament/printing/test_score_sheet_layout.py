"""The blank sheet's form: drawn once per table size, room for a long round."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from PIL import Image

from tournament.engine import rule_set
from tournament.printing.drawing import DPI
from tournament.printing.score_sheet_layout import ScoreSheetLayout, SheetRules


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


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_hexagon_box_takes_a_number_and_the_points_column_a_score(players):
    """The hexagon box is written in (1 to 3), not ticked; points hold "−25" or "112"."""
    form = ScoreSheetLayout(players=players, rules=SheetRules.of(rule_set("goliath-family")))
    for player in range(players):
        edges = form.column_edges(player)
        (bridge, bridge_width), (sides, sides_width), (hexagon, hexagon_width) = (
            form.bonus_boxes(player))
        assert hexagon_width >= 4.0 > bridge_width == sides_width
        assert edges[2] < bridge < sides < hexagon and hexagon + hexagon_width < edges[3]
        assert edges[4] - edges[3] >= 7.5  # the points column, in mm


def test_the_english_sheet_names_its_boxes_in_english(rules):
    with translation.override("en"):
        legend = " ".join(text for text, _bold in ScoreSheetLayout(players=4, rules=rules).legend_runs())
    assert "tick B for a bridge" in legend and "T for two sides" in legend
    with translation.override("fr"):
        legend = " ".join(text for text, _bold in ScoreSheetLayout(players=4, rules=rules).legend_runs())
    assert "cocher P pour un pont" in legend and "C pour deux côtés" in legend


def test_the_travel_tour_legend_prints_its_own_bonuses():
    travel = ScoreSheetLayout(players=4, rules=SheetRules.of(rule_set("travel-tour")))
    tournament = ScoreSheetLayout(players=4, rules=SheetRules.of(rule_set("goliath-tournament")))
    with translation.override("en"):
        travel_text = " ".join(text for text, _bold in travel.legend_runs())
        tournament_text = " ".join(text for text, _bold in tournament.legend_runs())
    assert "None" not in travel_text and "(+40)" in travel_text
    assert "3 (+60)" in travel_text and "3 (+70)" in tournament_text
    assert travel_text != tournament_text
