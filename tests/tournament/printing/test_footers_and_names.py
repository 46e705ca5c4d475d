"""What the paper shows whole: the footers side by side however long the venue, a long name
whole in its signature box, "find your table" in the order of surnames. Read from WeasyPrint's
own layout boxes, not from the PDF's text."""

from __future__ import annotations

import pytest

from tests.factories import match_at, players_of, seated_session, tournament_with_players
from tests.tournament.printing.helpers import footer_overlaps, text_outside

pytestmark = pytest.mark.django_db

LONG_VENUE = "Salle des fêtes Marie-Thérèse-Lefèvre, 12 rue de la République, Évreux"
LONG_NAME = "Hélène Lefèvre-Dubœuf"


@pytest.fixture
def long_tournament():
    tournament = tournament_with_players(
        slug="long-open", name="Grand Open de Normandie des Triominos", venue=LONG_VENUE,
        players=[(LONG_NAME, "Club des Amis du Triomino d'Évreux"), ("Amélie Ménard", "Club"),
                 ("Théo Girard", "Club"), ("Inès Œttinger", "Club")],
    )
    seated_session(tournament=tournament, tables=[players_of(tournament)], started=True)
    return tournament


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("address", [
    "/t/long-open/sessions/1/sheets.pdf", "/t/long-open/standings.pdf",
    "/t/long-open/sessions/1/seating.pdf", "match-report",
])
def test_a_long_venue_never_runs_into_the_centred_footer(staff_client, long_tournament,
                                                         address, language):
    if address == "match-report":
        address = f"/t/long-open/matches/{match_at(tournament=long_tournament).pk}/sheet.pdf"
    client = staff_client(long_tournament)
    response = client.get(f"{address}?html", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert footer_overlaps(response.content.decode()) == []


@pytest.mark.parametrize("players", [4, 6])
def test_a_long_name_is_whole_in_its_signature_box(staff_client, players):
    names = [LONG_NAME, "Jean-Baptiste Castelnau-Lestrade", "Amélie Ménard", "Théo Girard",
             "Inès Œttinger", "Zoé Garnier"][:players]
    tournament = tournament_with_players(slug="sign", players=names, rules="goliath-family")
    seated_session(tournament=tournament, tables=[players_of(tournament)])
    html = staff_client(tournament).get("/t/sign/sessions/1/sheets.pdf?html").content.decode()
    assert LONG_NAME in html
    assert text_outside(html, "sheet-signer") == []
    assert text_outside(html, "sheet-player") == []
