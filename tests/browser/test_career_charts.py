"""A career's charts on a phone (390 × 844) as a person sees them: each tournament's name
stays clear of the plot (its line, its bars) and of the other names, inside the chart."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.factories import players_of
from tests.tournament.players.helpers import long_career
from tournament.kit.addresses import career_url
from tournament.organiser.services import player_add

NAMES = ["Championnat régional de Triominos d’Auvergne-Rhône-Alpes", "Coupe de Lyon",
         "Open international de Villeurbanne-Croix-Luizet", "Tournoi du Vieux-Lyon"]

#: For the chart of this prefix: its box, its plot area's and each name's (rendered boxes,
#: in CSS pixels), the names' texts.
BOXES = """(prefix) => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const svg = document.getElementById(prefix);
  const labels = Array.from(svg.querySelectorAll(`[id^="${prefix}-span-label-"]`));
  return {
    svg: box(svg),
    plot: box(document.getElementById(`${prefix}-plot`)),
    labels: labels.map(label => ({id: label.id, text: label.textContent.trim(), ...box(label)})),
  };
}"""


def overlap(a: dict, b: dict) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5)


def inside(inner: dict, outer: dict) -> bool:
    return (inner["left"] >= outer["left"] - 0.5 and inner["right"] <= outer["right"] + 0.5
            and inner["top"] >= outer["top"] - 0.5 and inner["bottom"] <= outer["bottom"] + 0.5)


@pytest.mark.slow
def test_on_a_phone_the_tournaments_names_stay_clear_of_the_charts_lines(browser, live_server,
                                                                         make_tournament):
    tournaments = [
        make_tournament(slug=f"t{number}", name=name, players=2, sessions=0,
                        start_date=datetime.date(2025, 3 + 2 * number, 1), match_rounds=1)
        for number, name in enumerate(NAMES)
    ]
    opponents = players_of(tournaments[0])
    ana = player_add(tournament=tournaments[0], name="Ana Lefèvre", club="Lyon").player
    for count, tournament in zip([3, 1, 4, 2], tournaments, strict=True):
        long_career(tournament, ana, opponents, count)

    context = browser.new_context(base_url=live_server.url, locale="fr-FR",
                                  viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.goto(career_url(ana.pk))
    for prefix in ("rating-chart", "points-chart"):
        expect(phone.locator(f"#{prefix}")).to_be_visible()
        boxes = phone.evaluate(BOXES, prefix)
        labels = boxes["labels"]
        assert labels, prefix  # the tournaments are named
        for label in labels:
            assert not overlap(label, boxes["plot"]), (prefix, label, boxes["plot"])
            assert inside(label, boxes["svg"]), (prefix, label, boxes["svg"])
        for number, label in enumerate(labels):
            for other in labels[number + 1:]:
                assert not overlap(label, other), (prefix, label, other)
    context.close()
