"""Players: one by one, from a CSV file (all or nothing), late arrivals, withdrawals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from tournament.models import Player, Registration
from tournament.organiser import services
from tournament.organiser.services import session_create
from tournament.seating.services import session_seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The services' messages in English (the pages' tests ask for their language)."""
    with translation.override("en"):
        yield

GOOD_CSV = """nom;club;licence
Chloé Martin;Triominos Club de Lyon;FR-001
Mads Sørensen;Dansk Triomino Klub;DK-17

"Le Goff, Gaël";Perpignan Catalans;
Núria Puig;;
"""


@pytest.fixture
def empty(make_tournament):
    return make_tournament(slug="empty", players=0, sessions=0)


def names(tournament) -> list[str]:
    return sorted(tournament.registrations.values_list("player__name", flat=True))


def test_a_good_file_imports_every_player(empty):
    registrations = services.players_import_csv(tournament=empty, text=GOOD_CSV)
    assert len(registrations) == 4
    assert names(empty) == ["Chloé Martin", "Le Goff, Gaël", "Mads Sørensen", "Núria Puig"]
    chloe = Player.objects.get(licence="FR-001")
    assert chloe.club == "Triominos Club de Lyon"
    assert {r.status for r in empty.registrations.all()} == {"active"}


def test_a_comma_separated_file_without_header():
    lines = services.players_csv_lines("Ana,Lyon,L1\nBo,Paris\nCy\n")
    assert [(line.line, line.name, line.club, line.licence) for line in lines] == [
        (1, "Ana", "Lyon", "L1"), (2, "Bo", "Paris", ""), (3, "Cy", "", "")]


def test_a_known_licence_reuses_the_player(empty, make_tournament):
    other = make_tournament(slug="other", players=0, sessions=0)
    services.player_add(tournament=other, name="Chloé Martin", licence="FR-001")
    services.players_import_csv(tournament=empty, text=GOOD_CSV)
    assert Player.objects.filter(licence="FR-001").count() == 1
    assert names(empty)[0] == "Chloé Martin"


def test_a_file_with_bad_lines_imports_nothing_and_lists_every_bad_line(empty, make_tournament):
    services.player_add(tournament=empty, name="Zoé Garnier", club="Marseille")
    other = make_tournament(slug="other", players=0, sessions=0)
    services.player_add(tournament=other, name="Inès Benali", licence="FR-009")
    text = "\n".join([
        "name,club,licence",                  # 1: header
        "Ana,Lyon,FR-100",                    # 2: good
        ",Lyon,",                             # 3: no name
        "Bo,Paris,FR-100",                    # 4: licence already on line 2
        "Cy,Nice,FR-101,extra",               # 5: four columns
        "zoé garnier,marseille,",             # 6: already registered
        "Ana,Lyon,",                          # 7: Ana (Lyon) already on line 2
        "Someone Else,,FR-009",               # 8: licence of another player
        "x" * 121 + ",,",                     # 9: name too long
        "Dee,Lyon,",                          # 10: good
    ])
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text=text)
    assert refused.value.messages == [
        "Line 3: the name is missing.",
        "Line 4: licence FR-100 is already on line 2.",
        "Line 5: 4 columns, expected at most 3: name, club, licence.",
        "Line 6: zoé garnier (marseille) is already registered in this tournament.",
        "Line 7: Ana is already on line 2.",
        "Line 8: licence FR-009 is that of Inès Benali, not Someone Else.",
        "Line 9: the name is longer than 120 characters.",
    ]
    assert names(empty) == ["Zoé Garnier"]
    assert not Player.objects.filter(name__in=["Ana", "Dee", "Cy"]).exists()


def test_a_broken_quote_is_reported_with_its_line(empty):
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text='Ana,Lyon\n"Bo,Paris\n')
    assert refused.value.messages == ["Line 2: a quotation mark is never closed."]
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text='Ana,Lyon\n"Bo" B,Paris\n')
    assert refused.value.messages == [
        "Line 2: text follows a closing quotation mark: put the whole cell in quotes."]
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text='"Ana\nMaria",Lyon\nBo,Paris\n')
    assert refused.value.messages == ["Line 2: a cell runs over several lines."]
    assert names(empty) == []


def test_an_empty_file_is_refused(empty):
    with pytest.raises(ValidationError, match="no player"):
        services.players_import_csv(tournament=empty, text="name;club;licence\n\n")


def test_players_added_once_session_one_is_seated_are_late_arrivals(tournament):
    registration = services.player_add(tournament=tournament, name="Lou Tard")
    assert registration.status == "late" and registration.first_session == 2
    services.players_import_csv(tournament=tournament, text="Max Retard;Club A\n")
    late = Registration.objects.get(player__name="Max Retard")
    assert late.status == "late" and late.first_session == 2
    with pytest.raises(ValidationError) as refused:
        services.player_add(tournament=tournament, name="Too Early", first_session=1)
    assert "Session 1 is already seated" in refused.value.message_dict["first_session"][0]
    later = services.player_add(tournament=tournament, name="Much Later", first_session=4)
    assert later.first_session == 4


def test_withdraw_and_bring_back(tournament):
    registration = tournament.registrations.first()
    services.registration_withdraw(registration=registration)
    registration.refresh_from_db()
    assert registration.status == "withdrawn"
    with pytest.raises(ValidationError, match="already withdrawn"):
        services.registration_withdraw(registration=registration)
    services.registration_reinstate(registration=registration)
    registration.refresh_from_db()
    assert registration.status == "active"
    with pytest.raises(ValidationError, match="has not withdrawn"):
        services.registration_reinstate(registration=registration)


def test_correct_a_player_and_make_them_a_late_arrival(make_tournament):
    tournament = make_tournament(slug="fix", players=6, sessions=0)
    registration = tournament.registrations.order_by("pk").first()
    services.registration_update(registration=registration, name="Renamed", club="New Club",
                                 licence="L-1", first_session=2)
    registration.refresh_from_db()
    assert registration.player.name == "Renamed" and registration.status == "late"
    session = session_create(tournament=tournament)
    session_seat(session=session)
    assert not session.seats.filter(player=registration.player).exists()
    another = tournament.registrations.exclude(pk=registration.pk).first()
    with pytest.raises(ValidationError) as refused:
        services.registration_update(registration=another, name=another.player.name,
                                     first_session=2)
    assert "already seated in session 1" in refused.value.message_dict["first_session"][0]


# --- the pages ---------------------------------------------------------------------------------


def test_the_players_page_is_the_organisers(client, tournament, referee_client, organiser_client):
    assert client.get("/t/spring-open/organise/players/").status_code == 302  # log in first
    assert referee_client.get("/t/spring-open/organise/players/").status_code == 403
    page = organiser_client.get("/t/spring-open/organise/players/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    rows = page.content.decode().split('id="organiser-players"')[1].split("</table>")[0]
    assert rows.count("<tr") == 1 + 8


def test_import_through_the_page(organiser_client, tournament):
    upload = SimpleUploadedFile("players.csv", GOOD_CSV.encode("cp1252", errors="replace"))
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert tournament.registrations.count() == 12
    page = organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Players imported: 4." in page and "Chloé Martin" in page


def test_a_bad_import_shows_every_line_next_to_the_file_in_french(organiser_client, tournament):
    upload = SimpleUploadedFile("players.csv", b"Ana;Lyon\n;Paris\nPlayer 01 spring-open;Club B\n"
)
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload})
    page = response.content.decode()
    assert response.status_code == 400
    errors = page.split('id="id_file_error"')[1].split("</ul>")[0]
    assert "Ligne 2\u00a0: le nom manque." in errors
    assert "Ligne 3\u00a0: Player 01 spring-open (Club B) figure déjà parmi les inscriptions" in errors
    assert tournament.registrations.count() == 8


def test_a_file_that_is_not_text_is_refused(organiser_client, tournament):
    upload = SimpleUploadedFile("players.xlsx", b"PK\x03\x04\x00\x00binary")
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "This is not a text file" in response.content.decode()


def test_add_a_player_through_the_page(organiser_client, tournament):
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "Lou Tard", "club": "Club D", "licence": ""})
    assert response.status_code == 302
    assert Registration.objects.get(player__name="Lou Tard").first_session == 2
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "", "club": "Club D"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "This field is required." in response.content.decode().split('id="id_name_error"')[1]
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "Lou Tard", "club": "club d"},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "is already registered" in response.content.decode().split('id="id_name_error"')[1]


def test_withdraw_through_the_page(organiser_client, tournament):
    organiser_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    registration = tournament.registrations.first()
    url = f"/t/spring-open/organise/players/{registration.pk}/withdraw/"
    assert organiser_client.get(url).status_code == 405
    response = organiser_client.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.status == "withdrawn"
    page = organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "has withdrawn" in page and "Bring back" in page


def test_edit_a_player_through_the_page(organiser_client, tournament):
    registration = tournament.registrations.first()
    url = f"/t/spring-open/organise/players/{registration.pk}/"
    assert registration.player.name in organiser_client.get(url).content.decode()
    response = organiser_client.post(url, {"name": "New Name", "club": "", "licence": "",
                                           "first_session": ""})
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.player.name == "New Name"
