"""The categories and club teams printed (docs/guides/categories.md): the standings PDF's sections
and the prize list, read back as text; what they print recomputed from the matches by
tests/tournament/standings/reference.py."""

from __future__ import annotations

import pytest

from tests.tournament.categories import prized_tournament
from tests.tournament.printing.helpers import assert_pdf, cells_overflowing
from tests.tournament.standings import reference
from tests.tournament.tournaments import settings_of
from tournament.models import Category
from tournament.organiser.services import tournament_update
from tournament.standings.ranking import CRITERIA

pytestmark = pytest.mark.django_db


@pytest.fixture
def prized(db):
    return prized_tournament()


def pdf_text(client, url) -> str:
    return "\n".join(assert_pdf(client.get(url, HTTP_ACCEPT_LANGUAGE="en")))


def section(text: str, title: str, end: str | None = None) -> list[str]:
    """The lines of the text from the one that is ``title`` to the next ``end`` (or the end),
    footers left out."""
    lines = text.splitlines()
    start = lines.index(title)
    stop = next((i for i in range(start + 1, len(lines)) if end and lines[i] == end),
                len(lines))
    return [line for line in lines[start + 1:stop] if " page " not in line]


def test_the_standings_pdf_prints_each_category_and_the_clubs(client, prized):
    text = pdf_text(client, "/t/prized/standings.pdf")
    juniors = section(text, "Standings: Juniors", "Standings: Women")
    # rank within the category, then overall, then the player
    assert [line for line in juniors if line[:1].isdigit() or line.startswith("Hal")][:3] == [
        "1= 2= Bo Lyon 2 4.5 702", "1= 2= Cy Nice 2 4.5 702", "Hal WITHDRAWN Nice 2 2 370"]
    women = section(text, "Standings: Women", "Club teams")
    ranks = reference.category_ranks(
        reference.main_ranking(prized),
        set(Category.objects.get(tournament=prized, name="Women")
            .registrations.values_list("player_id", flat=True)))
    ranked = sorted((rank, name) for name, rank in ranks.items() if rank)
    assert [line.split()[2] for line in women if line[:1].isdigit()] == [n for _r, n in ranked]
    clubs = section(text, "Club teams")
    assert clubs[0] == "Each club scores the sum of its best 2 players’ match points."
    rows = [line for line in clubs if line.split()[0] in {"1", "2", "Nice", "Marseille"}]
    assert rows[:2] == ["1 Lyon 8.5 Bo (2=), Ana (4)", "2 Paris 6.5 Flo (1), Gus (6)"]
    assert any(line.startswith("Nice 4.5 Cy (2=) (too few players)") for line in clubs)


def test_the_prize_list_gives_the_first_places_ties_included(client, prized):
    text = pdf_text(client, "/t/prized/prizes.pdf")
    assert "The first 2 places overall, in each category and among the clubs." in text
    overall = [line for line in section(text, "Overall", "Juniors") if line[:1].isdigit()]
    # places 1 and 2: Bo and Cy share the second, both printed
    assert overall == ["1 Flo Paris", "2= Bo Lyon", "2= Cy Nice"]
    juniors = [line for line in section(text, "Juniors", "Women") if line[:1].isdigit()]
    assert juniors == ["1= Bo Lyon 2=", "1= Cy Nice 2="]
    women = [line for line in section(text, "Women", "Club teams") if line[:1].isdigit()]
    assert women == ["1 Flo Paris 1", "2 Cy Nice 2="]
    clubs = [line for line in section(text, "Club teams") if line[:1].isdigit()]
    assert clubs == ["1 Lyon 8.5 Bo (2=), Ana (4)", "2 Paris 6.5 Flo (1), Gus (6)"]


def test_the_prize_list_follows_the_organisers_number_of_places(client, prized):
    tournament_update(**settings_of(prized, prize_count=1, team_size=0))
    text = pdf_text(client, "/t/prized/prizes.pdf")
    assert [line for line in section(text, "Women") if line[:1].isdigit()] == ["1 Flo Paris 1"]
    assert "Club teams" not in text


def test_the_prize_list_is_one_click_from_the_standings(client, prized):
    assert b'href="/t/prized/prizes.pdf"' in client.get("/t/prized/standings/").content


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_printed_categories_and_clubs_are_laid_out_legibly(client, prized, language):
    """Six criteria (landscape), the overall rank beside each category's, the clubs' counted
    players as words: no figure wraps, no text passes its cell (WeasyPrint's own layout)."""
    tournament_update(**settings_of(prized, ranking_criteria=list(CRITERIA),
                                    team_criterion="share"))
    for url in ("/t/prized/standings.pdf?html", "/t/prized/prizes.pdf?html"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert cells_overflowing(html.content.decode()) == [], url
    shares = reference.main_ranking(prized)
    lyon = sorted((entry["points"] for entry in shares.values()
                   if entry["club"] == "Lyon" and entry["ranked"]), reverse=True)
    assert lyon  # the club teams' scores on the share are the standings' own figures
    teams = client.get("/t/prized/standings/clubs/").context["teams_table"].data
    assert all(0 <= team["score"] <= 2 for team in teams)  # two shares of at most 1 each
