"""Players: one by one, from a CSV file (all or nothing), late arrivals, withdrawals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.pages import has_id, messages, select
from tournament.models import Player, Registration
from tournament.organiser import services
from tournament.organiser.players_csv import CSV_MAX_ERRORS, players_csv_lines
from tournament.seating.services import session_seat
from tournament.sessions.services import session_create

# The services' messages in English (the pages' tests ask for their language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


GOOD_CSV = """nom;club;licence
Chloé Martin;Triominos Club de Lyon;FR-001
Mads Sørensen;Dansk Triomino Klub;DK-17

"Le Goff, Gaël";Perpignan Catalans;
Núria Puig;;
"""


@pytest.fixture
def empty(make_tournament):
    return make_tournament(slug="empty", players=0, sessions=0)


def line_refusals(write) -> list[tuple[int, str]]:
    """The (line number, code) of every bad line the refused import lists."""
    with pytest.raises(ValidationError) as refused:
        write()
    return [(error.params["line"], error.code) for error in refused.value.error_list]


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
    lines = players_csv_lines("Ana,Lyon,L1\nBo,Paris\nCy\n")
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
        "Cy,Nice,FR-101,extra,more",          # 5: five columns
        "zoé garnier,marseille,",             # 6: already registered
        "Ana,Lyon,",                          # 7: Ana (Lyon) already on line 2
        "Someone Else,,FR-009",               # 8: licence of another player
        "x" * 121 + ",,",                     # 9: name too long
        "Dee,Lyon,",                          # 10: good
    ])
    assert line_refusals(lambda: services.players_import_csv(tournament=empty, text=text)) == [
        (3, "name-missing"),
        (4, "licence-twice"),
        (5, "csv-columns"),
        (6, "already-registered"),
        (7, "name-twice"),
        (8, "licence-other-player"),
        (9, "too-long"),
    ]
    assert names(empty) == ["Zoé Garnier"]
    assert not Player.objects.filter(name__in=["Ana", "Dee", "Cy"]).exists()


def test_a_broken_quote_is_reported_with_its_line(empty):
    for text, code in [('Ana,Lyon\n"Bo,Paris\n', "csv-quote"),
                       ('Ana,Lyon\n"Bo" B,Paris\n', "csv-quote"),
                       ('"Ana\nMaria",Lyon\nBo,Paris\n', "csv-multiline")]:
        assert line_refusals(
            lambda text=text: services.players_import_csv(tournament=empty, text=text)
        ) == [(2, code)]
    assert names(empty) == []


def test_an_empty_file_is_refused(empty):
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text="name;club;licence\n\n")
    assert refused.value.code == "csv-empty"


def test_players_added_once_session_one_is_seated_are_late_arrivals(tournament):
    registration = services.player_add(tournament=tournament, name="Lou Tard")
    assert registration.status == "late" and registration.first_session == 2
    services.players_import_csv(tournament=tournament, text="Max Retard;Club A\n")
    late = Registration.objects.get(player__name="Max Retard")
    assert late.status == "late" and late.first_session == 2
    with pytest.raises(ValidationError) as refused:
        services.player_add(tournament=tournament, name="Too Early", first_session=1)
    assert refused.value.error_dict["first_session"][0].code == "session-seated"
    later = services.player_add(tournament=tournament, name="Much Later", first_session=4)
    assert later.first_session == 4


def test_withdraw_and_bring_back(tournament):
    registration = tournament.registrations.first()
    services.registration_withdraw(registration=registration)
    registration.refresh_from_db()
    assert registration.status == "withdrawn"
    with pytest.raises(ValidationError) as refused:
        services.registration_withdraw(registration=registration)
    assert refused.value.code == "withdrawn"
    services.registration_reinstate(registration=registration)
    registration.refresh_from_db()
    assert registration.status == "active"
    with pytest.raises(ValidationError) as refused:
        services.registration_reinstate(registration=registration)
    assert refused.value.code == "not-withdrawn"


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
    assert refused.value.error_dict["first_session"][0].code == "seated-before"


# --- the pages ---------------------------------------------------------------------------------


def test_the_players_page_is_the_organisers(client, tournament, referee_client, organiser_client):
    assert client.get("/t/spring-open/organise/players/").status_code == 302  # log in first
    assert referee_client.get("/t/spring-open/organise/players/").status_code == 403
    page = organiser_client.get("/t/spring-open/organise/players/")
    assert page.status_code == 200
    assert len(select(page, "#organiser-players tbody tr")) == 8


def test_import_through_the_page(organiser_client, tournament):
    upload = SimpleUploadedFile("players.csv", GOOD_CSV.encode("cp1252", errors="replace"))
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert tournament.registrations.count() == 12
    assert messages(response) == [("success", "")]
    assert tournament.registrations.filter(player__name="Chloé Martin").exists()


def test_a_bad_import_shows_every_line_next_to_the_file_in_french(organiser_client, tournament):
    upload = SimpleUploadedFile("players.csv", b"Ana;Lyon\n;Paris\nPlayer 01 spring-open;Club B\n"
)
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload})
    assert response.status_code == 400
    errors = response.context["import_form"].errors.as_data()["file"]
    assert [(error.params["line"], error.code) for error in errors] == [
        (2, "name-missing"), (3, "already-registered")]
    assert len(select(response, "#id_file_error li")) == 2
    assert tournament.registrations.count() == 8


def test_a_file_that_is_not_text_is_refused(organiser_client, tournament):
    upload = SimpleUploadedFile("players.xlsx", b"PK\x03\x04\x00\x00binary")
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.context["import_form"].has_error("file", "not-text")


def test_add_a_player_through_the_page(organiser_client, tournament):
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "Lou Tard", "club": "Club D", "licence": ""})
    assert response.status_code == 302
    assert Registration.objects.get(player__name="Lou Tard").first_session == 2
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "", "club": "Club D"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.context["player_form"].has_error("name", "required")
    assert has_id(response, "id_name_error")
    response = organiser_client.post("/t/spring-open/organise/players/",
                                     {"name": "Lou Tard", "club": "club d"},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.context["player_form"].has_error("name", "already-registered")


def test_withdraw_through_the_page(organiser_client, tournament):
    organiser_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    registration = tournament.registrations.first()
    url = f"/t/spring-open/organise/players/{registration.pk}/withdraw/"
    assert organiser_client.get(url).status_code == 405
    response = organiser_client.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.status == "withdrawn"
    assert messages(response) == [("success", "")]
    page = organiser_client.get(response["Location"])
    assert select(page, f'form[action$="/players/{registration.pk}/reinstate/"]')


def test_edit_a_player_through_the_page(organiser_client, tournament):
    registration = tournament.registrations.first()
    url = f"/t/spring-open/organise/players/{registration.pk}/"
    assert registration.player.name in organiser_client.get(url).content.decode()
    response = organiser_client.post(url, {"name": "New Name", "club": "", "licence": "",
                                           "first_session": ""})
    assert response.status_code == 302
    registration.refresh_from_db()
    assert registration.player.name == "New Name"


def test_the_separator_is_sniffed_on_a_sample_not_the_first_line():
    lines = players_csv_lines("nom\nBob;Club B;L-77\nAna;Club A\n")
    assert [(line.name, line.club, line.licence) for line in lines] == [
        ("Bob", "Club B", "L-77"), ("Ana", "Club A", "")]
    lines = players_csv_lines("Ana\tLyon\nBo\tParis, France\n")
    assert [(line.name, line.club) for line in lines] == [("Ana", "Lyon"), ("Bo", "Paris, France")]


def test_a_quoted_cell_may_hold_another_separator():
    lines = players_csv_lines('Ana;Lyon\n"Le Goff, Gaël"\n')
    assert [line.name for line in lines] == ["Ana", "Le Goff, Gaël"]


def test_a_file_whose_lines_disagree_on_the_separator_is_refused(empty):
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text="name;club\nAna;X\nBo,Y\nCy;Z\nDi\tW\n")
    assert [(error.code, error.params["line"]) for error in refused.value.error_list] == [
        ("csv-separator", 3), ("csv-separator", 5)]
    assert names(empty) == []


def test_the_bad_lines_listed_are_capped(empty):
    text = "".join(f"P{number},a,b,c,d\n" for number in range(1, 120_001))
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text=text)
    errors = refused.value.error_list
    assert len(errors) == CSV_MAX_ERRORS + 1 == 101
    assert [error.params["line"] for error in errors[:-1]] == list(range(1, 101))
    assert {error.code for error in errors[:-1]} == {"csv-columns"}
    assert errors[-1].code == "csv-more-errors" and errors[-1].params == {"count": 119_900}
    assert names(empty) == []


def test_the_capped_list_on_the_page(organiser_client, tournament):
    upload = SimpleUploadedFile(
        "players.csv", "".join(f",club {number}\n" for number in range(1, 1001)).encode())
    response = organiser_client.post("/t/spring-open/organise/players/import/", {"file": upload})
    assert response.status_code == 400
    errors = response.context["import_form"].errors.as_data()["file"]
    assert len(errors) == 101 and errors[-1].params == {"count": 900}
    assert len(response.content) < 100_000
    assert tournament.registrations.count() == 8


@pytest.mark.parametrize(("choice", "same_record"), [("existing", True), ("new", False)])
def test_a_likely_same_person_without_licence_is_asked_about(organiser, organiser_client,
                                                             tournament, choice, same_record):
    """Théo Girard of Club A plays the organiser's other tournament: a file naming him again,
    without a licence number, imports nothing until the organiser says whether he is that
    record or someone else."""
    from tests.factories import tournament_with_players
    from tournament.core.tournaments import staff_role_grant
    other = tournament_with_players(slug="autumn", players=[("Théo Girard", "Club A")])
    staff_role_grant(tournament=other, user=organiser, role="organiser")
    known = Player.objects.get(name="Théo Girard")

    def upload(**data):
        return organiser_client.post("/t/spring-open/organise/players/import/", {
            "file": SimpleUploadedFile("players.csv", "théo girard;Club A\nNew One;Club B\n".encode()),
            **data})

    response = upload()
    assert response.status_code == 400
    errors = response.context["import_form"].errors.as_data()["file"]
    assert [(error.params["line"], error.code) for error in errors] == [(1, "likely-same-person")]
    assert str(known.pk) in errors[0].params["reason"]
    assert tournament.registrations.count() == 8
    assert select(response, "#id_same_people")  # the choice is offered next to the file
    assert upload(same_people=choice).status_code == 302
    registered = tournament.registrations.get(player__name__iexact="théo girard").player
    assert (registered.pk == known.pk) is same_record
    assert Player.objects.filter(name__iexact="théo girard").count() == (1 if same_record else 2)


@pytest.mark.parametrize(("known", "typed"), [
    (("Émile Roux", "Club Été"), ("ÉMILE ROUX", "club été")),  # beyond ASCII, on SQLite too
    (("HÉLÈNE DUBŒUF", "CLUB A"), ("Hélène Dubœuf", "Club A")),
    (("ÉMILE DUBŒUF", "CLUB A"), ("émile duboeuf", "club a")),  # œ as a keyboard types it
])
def test_a_likely_same_person_is_found_accents_case_and_ligatures_aside(organiser, tournament,
                                                                        known, typed):
    from tests.factories import tournament_with_players
    from tournament.core.tournaments import staff_role_grant
    other = tournament_with_players(slug="autumn", players=[known])
    staff_role_grant(tournament=other, user=organiser, role="organiser")
    record = Player.objects.get(name=known[0])
    text = f"{typed[0]};{typed[1]}\n"
    assert line_refusals(lambda: services.players_import_csv(
        tournament=tournament, text=text, user=organiser)) == [(1, "likely-same-person")]
    assert tournament.registrations.count() == 8  # nothing half-written
    services.players_import_csv(tournament=tournament, text=text, user=organiser,
                                same_people="existing")
    assert tournament.registrations.filter(player=record).exists()
    assert Player.objects.filter(name_search_key=record.name_search_key).count() == 1


def test_a_player_of_another_club_or_name_is_not_taken_for_the_same_person(organiser,
                                                                           tournament):
    from tests.factories import tournament_with_players
    from tournament.core.tournaments import staff_role_grant
    other = tournament_with_players(slug="autumn", players=[("Émile Roux", "Club Été")])
    staff_role_grant(tournament=other, user=organiser, role="organiser")
    services.players_import_csv(tournament=tournament, user=organiser,
                                text="ÉMILE ROUX;Club B\nÉmile Rouxel;Club Été\n")
    assert Player.objects.filter(name_search_key__startswith="emile roux").count() == 3


def test_a_records_search_key_follows_its_name_whichever_way_it_is_written(tournament):
    """save(), save(update_fields=...) and bulk_create() keep the key the database looks
    the likely same person up by."""
    player = Player.objects.create(name="ŒDIPE Łukasz")
    assert player.name_search_key == "oedipe lukasz"
    player.name = "Straße"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert player.name_search_key == "strasse"
    (made,) = Player.objects.bulk_create([Player(name="ÉMILE")])
    assert Player.objects.get(pk=made.pk).name_search_key == "emile"


@pytest.mark.parametrize(("choice", "same_record"), [("existing", True), ("new", False)])
def test_the_player_form_asks_about_a_likely_same_person_too(organiser, organiser_client,
                                                             tournament, choice, same_record):
    """One by one as by file: "THÉO GIRARD" of "club a", no licence, when the organiser's
    other tournament has Théo Girard of Club A, is refused next to the name until the
    organiser says whether he is that record."""
    from tests.factories import tournament_with_players
    from tournament.core.tournaments import staff_role_grant
    other = tournament_with_players(slug="autumn", players=[("Théo Girard", "Club A")])
    staff_role_grant(tournament=other, user=organiser, role="organiser")
    known = Player.objects.get(name="Théo Girard")

    def add(**data):
        return organiser_client.post("/t/spring-open/organise/players/", {
            "name": "THÉO GIRARD", "club": "club a", "licence": "", **data})

    response = add()
    assert response.status_code == 400
    assert response.context["player_form"].has_error("name", "likely-same-person")
    assert has_id(response, "id_name_error") and str(known.pk) in response.content.decode()
    assert tournament.registrations.count() == 8
    assert add(same_people=choice).status_code == 302
    registered = tournament.registrations.get(player__name_search_key="theo girard").player
    assert (registered.pk == known.pk) is same_record


def test_a_record_of_a_tournament_the_organiser_does_not_run_is_not_offered(organiser,
                                                                            organiser_client,
                                                                            tournament):
    from tests.factories import tournament_with_players
    tournament_with_players(slug="elsewhere", players=[("Théo Girard", "Club A")])
    response = organiser_client.post("/t/spring-open/organise/players/", {
        "name": "THÉO GIRARD", "club": "club a", "licence": ""})
    assert response.status_code == 302  # nothing of the other organiser's records told
    assert Player.objects.filter(name_search_key="theo girard").count() == 2
