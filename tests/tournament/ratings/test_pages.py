"""The ratings' pages, exports and PDF: every rated player (``/ratings/``) and a league's
players (``/leagues/<slug>/ratings/``), in a handful of queries for a thousand players."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pytest
import tablib
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation

from bench.harness import history_build
from tests.pages import attribute, by_id, select, text
from tests.tournament.printing.helpers import assert_document_footer, assert_pdf, cells_overflowing
from tournament.models import League, Match, Player, PlayerRating, Seat, Tournament
from tournament.ratings.model import PROVISIONAL_MATCHES
from tournament.ratings.selectors import ratings_rows
from tournament.ratings.services import ratings_rebuild
from tournament.ratings.tables import EXPORT_COLUMNS
from tournament.ratings.views import PRINT_COLUMNS, PRINT_TEXT_COLUMNS, PROVISIONAL_TAG

pytestmark = pytest.mark.django_db


def history(*, players: int, matches: int) -> list[Match]:
    """Players and confirmed matches by bulk inserts (tournaments of one session each), then
    every rating."""
    made = history_build(players=players, matches=matches, sessions_per_event=1, seed=5)
    ratings_rebuild()
    return made


def league_of(tournament_ids, **fields) -> League:
    league = League.objects.create(name="Ligue du Rhône", slug="rhone", **fields)
    Tournament.objects.filter(pk__in=tournament_ids).update(league=league)
    return league


def players_seated(matches) -> set[int]:
    return set(Seat.objects.filter(table__match__in=[m.pk for m in matches])
               .values_list("player_id", flat=True))


@pytest.fixture
def thousand():
    """1,000 players, every one rated (the first event seats them all), and a merged one."""
    made = history(players=1000, matches=400)
    assert PlayerRating.objects.count() == 1000
    merged, kept = Player.objects.order_by("pk")[:2]
    Player.objects.filter(pk=merged.pk).update(merged_into=kept)
    return made, merged


@pytest.mark.slow  # a thousand rated players
def test_the_ratings_page_lists_every_rated_player_best_first(
    client, thousand, django_assert_max_num_queries
):
    _made, merged = thousand
    with django_assert_max_num_queries(9):
        response = client.get("/ratings/")
    assert response.status_code == 200
    rows = select(response, "#ratings tbody tr")
    shown = [int(attribute(row, "data-player")) for row in rows]
    expected = list(PlayerRating.objects.exclude(player=merged).order_by("-conservative")
                    .values_list("player_id", "conservative"))
    assert len(shown) == 999 and merged.pk not in shown
    # best first; players of equal rating (rarely any) in name order
    conservative = dict(expected)
    assert [conservative[p] for p in shown] == [c for _p, c in expected]
    first = PlayerRating.objects.select_related("player", "last_tournament").get(pk=shown[0])
    cells = [text(cell) for cell in select(response, "#ratings tbody tr:first-child td")]
    assert cells[1] == first.player.name and cells[2] == first.player.club
    cells[3] = cells[3].split()[0]  # the rating, then "provisional" for few matches
    assert [float(cell.replace(",", ".")) for cell in cells[3:6]] == [
        round(first.conservative, 1), round(first.mu, 1), round(first.sigma, 1)
    ]
    assert int(cells[6]) == first.matches
    assert cells[7].endswith(f"({first.last_tournament.name})") and cells[7][0] in "+-0"
    links = select(response, "#ratings tbody tr:first-child a")
    assert [attribute(a, "href") for a in links] == [f"/players/{first.player_id}/"]
    assert text(by_id(response, "ratings-count")).startswith("999")


@pytest.mark.slow  # a thousand rated players
def test_a_league_shows_the_players_of_its_tournaments(client, thousand, make_user,
                                                        django_assert_max_num_queries):
    made, merged = thousand
    second_event = made[-1].table.session.tournament
    league = league_of([second_event.pk])
    expected = players_seated(m for m in made if m.table.session.tournament_id == second_event.pk)
    assert 0 < len(expected) < 999
    with django_assert_max_num_queries(9):
        response = client.get(f"/leagues/{league.slug}/ratings/")
    assert response.status_code == 200
    shown = {int(attribute(row, "data-player")) for row in select(response, "#ratings tbody tr")}
    assert shown == expected - {merged.pk}
    assert text(by_id(response, "ratings-league")) == league.name
    # an unconfirmed match does not make its players the league's
    some_match = next(m for m in made if m.table.session.tournament_id == second_event.pk)
    Match.objects.filter(pk=some_match.pk).update(status=Match.Status.FINISHED)
    assert {row["player_id"] for row in ratings_rows(league=league)} == (
        expected - players_seated([some_match]) - {merged.pk}
    )


def test_a_private_or_unknown_league_is_not_found_but_by_its_organisers(make_user):
    made = history(players=12, matches=4)
    league = league_of([made[0].table.session.tournament_id], is_public=False)
    address = f"/leagues/{league.slug}/ratings/"
    outsider, organiser = Client(), Client()
    outsider.force_login(make_user("oscar"))
    league_organiser = make_user("lea")
    league.organisers.add(league_organiser)
    organiser.force_login(league_organiser)
    root = Client()
    root.force_login(make_user("root", is_superuser=True))
    assert Client().get(address).status_code == 404
    assert outsider.get(address).status_code == 404
    assert outsider.get(f"/leagues/{league.slug}/ratings.pdf").status_code == 404
    assert organiser.get(address).status_code == 200
    assert root.get(address).status_code == 200
    assert Client().get("/leagues/nowhere/ratings/").status_code == 404
    assert root.get("/leagues/nowhere/ratings/").status_code == 404


@pytest.mark.slow  # a thousand rated players
def test_the_csv_and_xlsx_hold_the_page_rows(client, thousand):
    _made, merged = thousand
    rows = ratings_rows()
    response = client.get("/ratings/?_export=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(lines) == 1 + 999 and len(lines[0]) == len(EXPORT_COLUMNS)
    for line, row in zip(lines[1:], rows):
        assert line[1] == row["name"]
        assert float(line[3]) == pytest.approx(row["conservative"], abs=5e-4)
        assert int(line[EXPORT_COLUMNS.index("matches")]) == row["matches"]
        assert line[EXPORT_COLUMNS.index("last_event")] == row["last_event"]
        assert bool(line[EXPORT_COLUMNS.index("provisional")]) == row["provisional"]
    response = client.get("/ratings/?_export=xlsx")
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert len(values) == 1 + 999
    assert [line[1] for line in values[1:]] == [row["name"] for row in rows]
    assert [line[3] for line in values[1:]] == [round(row["conservative"], 3) for row in rows]
    assert merged.name not in {line[1] for line in values[1:]}


def test_the_pdf_names_every_player(client):
    made = history(players=12, matches=4)
    league = league_of([made[0].table.session.tournament_id])
    names = list(Player.objects.filter(rating__isnull=False).values_list("name", flat=True))
    assert len(names) == 12
    for address, owner in (("/ratings.pdf", "Ratings"),
                           (f"/leagues/{league.slug}/ratings.pdf", "Ligue du Rhône")):
        before = timezone.now()
        pages = assert_pdf(client.get(address, HTTP_ACCEPT_LANGUAGE="en"))
        assert_document_footer(pages, owner=owner, label="Ratings", printed_since=before)
        printed = " ".join(" ".join(pages).split())  # a long name may wrap in its cell
        assert all(name in printed for name in names)
    page = client.get("/ratings/")
    assert attribute(by_id(page, "ratings-pdf"), "href") == "/ratings.pdf"


def test_a_tournament_page_says_when_its_matches_are_not_rated(client, make_tournament):
    tournament = make_tournament(slug="friendly", players=4, sessions=0)
    assert not select(client.get(tournament.get_absolute_url()), "#tournament-not-rated")
    Tournament.objects.filter(pk=tournament.pk).update(is_rated=False)
    assert by_id(client.get(tournament.get_absolute_url()), "tournament-not-rated") is not None


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_widest_ratings_fit_their_columns(language):
    """WeasyPrint's layout of the printed ratings with the widest cells there can be (a rank
    among thousands of players, figures below -10, a long last event, the rating marked
    provisional): no figure wraps or leaves its cell."""
    widest = {
        "rank": "1024=", "name": "Marie-Bénédicte de La Tour-Dupont", "club": "Triomino-Club",
        "conservative": "-12.3", "mu": "125.0", "sigma": "12.3", "matches": "1234",
        "change": "+12.3 (Championnat de France de Triominos)",
    }
    with translation.override(language):
        html = render_to_string("printing/ratings.html", {
            "columns": PRINT_COLUMNS, "text_columns": PRINT_TEXT_COLUMNS,
            "rows": [{"cells": [(name, widest[name]) for name, _header in PRINT_COLUMNS],
                      "tag": PROVISIONAL_TAG}] * 3,
            "player_count": 1024, "printed_at": "1 May 2025 14:05",
            "provisional_matches": PROVISIONAL_MATCHES,
        })
    assert cells_overflowing(html) == []


def test_a_provisional_rating_is_marked_in_every_export_and_in_the_pdf(client):
    """The page tags a rating of fewer than ``PROVISIONAL_MATCHES`` rated matches
    "provisional"; the CSV, XLSX and ODS carry it in a column of their own, the PDF after
    the player's name; and both say from how many matches a rating is no longer provisional."""
    history(players=12, matches=4)
    PlayerRating.objects.filter(pk__in=PlayerRating.objects.order_by("pk")[:3]).update(
        matches=PROVISIONAL_MATCHES)
    rows = ratings_rows()
    marked = [row["provisional"] for row in rows]
    assert marked.count(False) == 3 and marked.count(True) == 9
    column = EXPORT_COLUMNS.index("provisional")

    lines = list(csv.reader(io.StringIO(
        client.get("/ratings/?_export=csv").content.decode("utf-8-sig"))))
    assert [bool(line[column]) for line in lines[1:]] == marked
    sheet = openpyxl.load_workbook(io.BytesIO(
        client.get("/ratings/?_export=xlsx").content)).active
    assert [bool(row[column].value) for row in list(sheet.iter_rows())[1:]] == marked
    ods = client.get("/ratings/?_export=ods")
    assert ods.status_code == 200
    book = tablib.Dataset().load(ods.content, format="ods")
    assert [bool(row[column]) for row in book] == marked

    page = client.get("/ratings/")
    assert page.context["provisional_matches"] == PROVISIONAL_MATCHES
    assert by_id(page, "ratings-rule") is not None
    pdf = client.get("/ratings.pdf")
    assert pdf.status_code == 200 and pdf.context["provisional_matches"] == PROVISIONAL_MATCHES
    tags = [row["tag"] for row in pdf.context["rows"]]
    assert [tag is not None for tag in tags] == marked
    assert {tag["column"] for tag in tags if tag} == {"name"}
    html = render_to_string("printing/ratings.html", {
        **{key: pdf.context[key] for key in ("columns", "text_columns", "rows")},
        "player_count": len(rows), "provisional_matches": PROVISIONAL_MATCHES,
    })
    assert html.count('class="tag tag--provisional"') == 9


def test_the_words_on_the_ratings_say_what_the_code_does():
    """The ratings page, its PDF and the organiser's guide once said the matches counted in
    the order they were confirmed (they count in the order they were played:
    ``HistoryPoint``) and that the rating was the mean minus three times the uncertainty
    (the rating shown follows the result: ``shown_change``). The English source words, read
    from the files."""
    root = Path(__file__).resolve().parents[3]
    stale = ("order the matches were confirmed", "order they were first confirmed",
             "The rating is the mean minus three times the uncertainty")
    for name in ("templates/tournament/ratings/ratings.html", "templates/printing/ratings.html",
                 "docs/guides/organiser.md"):
        source = " ".join((root / name).read_text(encoding="utf-8").split())
        assert not [words for words in stale if words in source], name
