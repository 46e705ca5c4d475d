"""The final table on the standings page, in its exports and in the standings PDF: the final's
places first under a heading of their own, then the qualifying ones (docs/guides/final.md). The
order expected is recomputed from the match results (``own_ranking``)."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from tests.pages import attribute, by_id, has_id, select
from tests.tournament.printing.helpers import assert_pdf
from tests.tournament.standings.test_final import (
    eight,
    final_played,
    number_of,
    own_ranking,
    qualifying_results,
)
from tournament.models import FinalSize
from tournament.seating.final import final_open
from tournament.seating.services import session_seat
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db

FINAL_TOTALS = [200, 410, 300, 100]


@pytest.fixture
def decided(db):
    """P1..P8 after two qualifying sessions, and a final of 4 played and closed."""
    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [FINAL_TOTALS])
    return tournament


def expected_order() -> tuple[list[int], list[int]]:
    """The final's places and the rest, by player number, from the results alone."""
    qualifying = own_ranking(qualifying_results())
    places = own_ranking([(tuple(qualifying[:4]), tuple(FINAL_TOTALS))])
    return places, [number for number in qualifying if number not in places]


def url(tournament) -> str:
    return reverse("tournament:standings", kwargs={"slug": tournament.slug})


def test_the_page_shows_the_final_first_under_its_heading(client, decided):
    response = client.get(url(decided))
    assert response.status_code == 200
    places, rest = expected_order()
    final_table = response.context["final_table"]
    assert [number_of(row.record["player_id"]) for row in final_table.rows] == places
    assert [number_of(row.record["player_id"]) for row in response.context["standings_table"].rows
            ] == rest
    assert [row.record["rank_label"] for row in final_table.rows] == ["1", "2", "3", "4"]
    html = response.content.decode()
    for element_id in ('id="standings-final-heading"', 'id="standings-final"',
                       'id="standings-qualifying-heading"', 'id="standings"'):
        assert html.count(element_id) == 1, element_id
    assert html.index('id="standings-final"') < html.index('id="standings"')


def test_the_page_sorts_the_final_apart(client, decided):
    response = client.get(url(decided), {"final-sort": "-name"})
    places, rest = expected_order()
    assert [number_of(row.record["player_id"]) for row in response.context["final_table"].rows
            ] == sorted(places, reverse=True)
    assert [number_of(row.record["player_id"]) for row in response.context["standings_table"].rows
            ] == rest


def test_while_the_final_is_played_the_page_shows_the_qualifying_standings(client):
    tournament = eight(final_size=FinalSize.FOUR)
    session_seat(session=final_open(tournament=tournament))
    response = client.get(url(tournament))
    assert response.context["final_table"] is None
    assert response.context["standings"].final_in_play
    assert 'id="standings-final-in-play"' in response.content.decode()
    assert [number_of(row.record["player_id"]) for row in response.context["standings_table"].rows
            ] == own_ranking(qualifying_results())


def test_without_a_final_the_exports_have_no_stage_column(client):
    tournament = eight(final_size=FinalSize.NONE)
    text = client.get(url(tournament), {"_export": "csv", "csv": "comma"},
                      HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(text)))[:3] == ["Rank", "Tied", "Player"]


def test_the_csv_says_which_part_placed_each_player(client, decided):
    text = client.get(url(decided), {"_export": "csv", "csv": "comma"},
                      HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0][:4] == ["Rank", "Tied", "Placed by", "Player"]
    places, rest = expected_order()
    assert [int(line[3][1:]) for line in lines[1:]] == places + rest
    assert [line[0] for line in lines[1:]] == [str(rank) for rank in range(1, 9)]
    with translation.override("en"):
        final, qualifying = str(translation.gettext("Final")), str(
            translation.gettext("Qualifying"))
    assert [line[2] for line in lines[1:]] == [final] * 4 + [qualifying] * 4


def test_the_xlsx_says_which_part_placed_each_player(client, decided):
    response = client.get(url(decided), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="fr")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    places, rest = expected_order()
    assert [int(row[3][1:]) for row in values[1:]] == places + rest
    assert [row[0] for row in values[1:]] == list(range(1, 9))
    with translation.override("fr"):
        final = str(translation.gettext("Final"))
    assert {row[2] for row in values[1:5]} == {final}
    assert final not in {row[2] for row in values[5:]}


def test_the_standings_pdf_prints_the_final_first_under_its_heading(client, decided):
    response = client.get(reverse("tournament:standings_pdf", kwargs={"slug": decided.slug}),
                          HTTP_ACCEPT_LANGUAGE="en")
    text = "\n".join(assert_pdf(response))
    places, rest = expected_order()
    final_at, qualifying_at = text.index("\nFinal\n"), text.index("\nQualifying\n")
    positions = [text.index(f"P{number} ") for number in places + rest]
    assert final_at < positions[0]
    assert positions == sorted(positions)
    assert positions[3] < qualifying_at < positions[4]


def test_the_final_is_printed_like_any_session(client, decided, make_user, grant_organiser):
    final = decided.sessions.get(is_final=True)
    kwargs = {"slug": decided.slug, "number": final.number}

    def seating_text(number: int) -> str:
        return "\n".join(assert_pdf(client.get(
            reverse("tournament:seating_pdf", kwargs={"slug": decided.slug, "number": number}),
            HTTP_ACCEPT_LANGUAGE="en")))

    seating = seating_text(final.number)
    assert "· Final" in seating and "· Final" not in seating_text(1)  # its heading says so
    places, _rest = expected_order()
    for number in places:
        assert f"P{number}" in seating
    client.force_login(grant_organiser(make_user("olga"), decided))  # the sheets: staff only
    assert assert_pdf(client.get(reverse("tournament:score_sheets_pdf", kwargs=kwargs)))
    page = client.get(reverse("tournament:session", kwargs=kwargs))
    assert page.status_code == 200 and page.context["session"].is_final


def test_the_projector_marks_the_final_places_first(client, decided):
    page = client.get(reverse("tournament:room_screen", kwargs={"slug": decided.slug}))
    assert page.status_code == 200
    places, rest = expected_order()
    marks = [attribute(row, "data-stage") for row in select(page, "tr.screen__stage")]
    assert marks[:2] == ["final", "qualifying"]  # the first page: the final, then the rest
    rows = select(page, "table.screen__standings tbody tr[data-player]")
    assert [number_of(int(attribute(row, "data-player"))) for row in rows] == places + rest
    assert [attribute(row, "data-stage") for row in rows] == ["final"] * 4 + ["qualifying"] * 4


def test_the_projector_has_no_final_mark_while_the_final_is_played(client):
    tournament = eight(final_size=FinalSize.FOUR)
    session_seat(session=final_open(tournament=tournament))
    page = client.get(reverse("tournament:room_screen", kwargs={"slug": tournament.slug}))
    assert not select(page, "tr.screen__stage") and not select(page, "tr[data-stage]")


def test_a_finalists_page_says_the_final_placed_them_and_the_others_do_not(client, decided):
    places, rest = expected_order()
    ids = {number_of(row["player_id"]): row["player_id"]
           for row in standings_rows(tournament=decided)}
    for number in (places[0], rest[0]):
        page = client.get(reverse("tournament:player",
                                  kwargs={"slug": decided.slug, "player_id": ids[number]}))
        assert page.status_code == 200
        if number in places:
            assert attribute(by_id(page, "player-stage"), "data-stage") == "final"
            assert attribute(by_id(page, "player-rank"), "data-rank") == "1"
        else:
            assert not has_id(page, "player-stage")
