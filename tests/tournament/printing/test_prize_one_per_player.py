"""One prize per player (docs/guides/categories.md, "The prize list"): a setting, off by default;
on, a player who takes a prize higher on the list (overall first, then each category by
name) is left out of the next categories' prizes, the next player taking the place.

The prized tournament (tests/tournament/categories.py), by hand: overall Flo 1, Bo and Cy 2=
(the first 2 places: three names); Juniors Bo 1=, Cy 1=, Hal unranked; Women Flo 1, Cy 2,
Ana 3, Ivy unranked."""

from __future__ import annotations

import pytest

from tests.tournament.categories import prized_tournament
from tests.tournament.tournaments import settings_of
from tournament.models import Tournament
from tournament.organiser.services import tournament_update
from tournament.printing.prizes import prize_list_context

pytestmark = pytest.mark.django_db


def printed(tournament: Tournament) -> dict[str, list[tuple[str, str]]]:
    """Each section of the prize list: (rank, name) of every row printed."""
    context = prize_list_context(tournament=tournament)
    sections = {"overall": context["overall"]["rows"]}
    sections.update({section["name"]: section["rows"]
                     for section in context["category_sections"]})
    return {name: [(dict(row["cells"])["rank"], dict(row["cells"])["name"]) for row in rows]
            for name, rows in sections.items()}


def test_off_by_default_a_player_takes_every_prize_they_rank_for():
    tournament = prized_tournament()
    assert tournament.prize_one_per_player is False
    assert printed(tournament) == {
        "overall": [("1", "Flo"), ("2=", "Bo"), ("2=", "Cy")],
        "Juniors": [("1=", "Bo"), ("1=", "Cy")],
        "Women": [("1", "Flo"), ("2", "Cy")],
    }


def test_on_a_player_already_prized_higher_on_the_list_is_skipped():
    tournament = tournament_update(**settings_of(prized_tournament(), prize_one_per_player=True))
    # Bo, Cy and Flo take the overall prizes: the juniors have nobody left ranked (Hal
    # withdrew), the women's first prize goes to Ana, and Ivy is not ranked.
    assert printed(tournament) == {
        "overall": [("1", "Flo"), ("2=", "Bo"), ("2=", "Cy")],
        "Juniors": [],
        "Women": [("1", "Ana")],
    }
    context = prize_list_context(tournament=tournament)
    assert context["one_per_player"] is True
    women = next(s for s in context["category_sections"] if s["name"] == "Women")
    assert dict(women["rows"][0]["cells"])["overall"] == "4"  # her rank in the standings


def test_the_settings_page_sets_it_and_the_service_keeps_it_unless_told(
        make_user, grant_organiser):
    from django.test import Client

    tournament = prized_tournament()
    client = Client()
    client.force_login(grant_organiser(make_user("olga"), tournament))
    url = f"/t/{tournament.slug}/organise/settings/"
    form = client.get(url).context["form"]
    assert "prize_one_per_player" in form.fields and not form.initial["prize_one_per_player"]
    data = {name: value for name, value in form.initial.items()
            if value is not None and value is not False}
    data.update(start_date=tournament.start_date.isoformat(), criterion_1="match_points",
                criterion_2="total_points", prize_one_per_player="on")
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.prize_one_per_player is True
    tournament_update(**settings_of(tournament, name="Renamed"))
    tournament.refresh_from_db()
    assert tournament.prize_one_per_player is True
    data.pop("prize_one_per_player")  # an unticked box is not posted
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.prize_one_per_player is False


def test_the_printed_prize_list_says_so_and_prints_the_places_given(client):
    from tests.tournament.printing.helpers import assert_pdf

    tournament = tournament_update(**settings_of(prized_tournament(), prize_one_per_player=True))
    response = client.get(f"/t/{tournament.slug}/prizes.pdf", HTTP_ACCEPT_LANGUAGE="en")
    text = "\n".join(assert_pdf(response))
    women = text[text.index("\nWomen\n"):]
    assert "1 Ana Lyon 4" in women and "Flo" not in women.split("Club teams")[0]
    assert "Nobody in this category is left without a prize above." in text


def test_the_records_archive_carries_the_setting():
    from tests.tournament.archive.helpers import wipe
    from tournament.archive import export
    from tournament.archive.imports import past_results_import

    tournament = tournament_update(**settings_of(prized_tournament(), prize_one_per_player=True))
    before = printed(tournament)
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    imported = past_results_import(data=data).tournament
    assert imported.prize_one_per_player is True
    assert printed(imported) == before
