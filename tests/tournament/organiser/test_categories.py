"""The players' categories (docs/guides/categories.md): from the CSV file's fourth column, on the
players' form, on the settings page (the club teams, the prize list); as a clumsy organiser
writes them and as another tournament's organiser tries to change them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction

from tests.tournament.tournaments import settings_of
from tournament.models import Category, Registration
from tournament.organiser import services
from tournament.organiser.players_csv import players_csv_lines
from tournament.organiser.services.categories import registrations_categorise

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def empty(make_tournament):
    return make_tournament(slug="empty", players=0, sessions=0)


def carried(tournament) -> dict[str, list[str]]:
    """Each player's categories, by name."""
    return {
        registration.player.name: sorted(category.name for category in
                                         registration.categories.all())
        for registration in tournament.registrations.select_related("player")
        .prefetch_related("categories")
    }


def test_the_fourth_column_names_the_categories_once_each_whatever_the_case(empty):
    services.players_import_csv(tournament=empty, text=(
        "name;club;licence;categories\n"
        "Ana;Lyon;;Women, Juniors\n"
        "Bo;Lyon;;juniors ,, JUNIORS,\n"       # one category, written three ways; empty ones
        "Cy;Nice;;  \n"                         # none
        "Di;Nice;;\" Club   Nice \"\n"))        # spaces trimmed and collapsed
    assert carried(empty) == {"Ana": ["Juniors", "Women"], "Bo": ["Juniors"], "Cy": [],
                              "Di": ["Club Nice"]}
    assert sorted(Category.objects.filter(tournament=empty).values_list("name", flat=True)) \
        == ["Club Nice", "Juniors", "Women"]


def test_a_comma_separated_file_quotes_its_categories():
    [line] = players_csv_lines('Ana,Lyon,L1,"Women, Seniors"\n')
    assert line.categories == ("Women", "Seniors")


def test_a_category_name_too_long_refuses_the_file_with_its_line(empty):
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text=f"Ana;Lyon;;Women\nBo;;;{'x' * 41}\n")
    assert [(error.params["line"], error.code) for error in refused.value.error_list] == [
        (2, "category-too-long")]
    assert not Registration.objects.filter(tournament=empty).exists()
    assert not Category.objects.filter(tournament=empty).exists()


def test_too_many_categories_refuse_the_whole_file(empty):
    text = "".join(f"P{number};;;C{number}\n" for number in range(Category.MAX_PER_TOURNAMENT + 1))
    with pytest.raises(ValidationError) as refused:
        services.players_import_csv(tournament=empty, text=text)
    assert [error.code for error in refused.value.error_list] == ["categories-too-many"]
    assert not Registration.objects.filter(tournament=empty).exists()
    assert not Category.objects.filter(tournament=empty).exists()


def test_too_many_categories_on_the_import_page_next_to_the_file(organiser_client, empty,
                                                                 grant_organiser, organiser):
    grant_organiser(organiser, empty)
    text = "".join(f"P{number};;;C{number}\n" for number in range(Category.MAX_PER_TOURNAMENT + 1))
    response = organiser_client.post("/t/empty/organise/players/import/",
                                     {"file": SimpleUploadedFile("players.csv", text.encode())})
    assert response.status_code == 400
    errors = response.context["import_form"].errors.as_data()
    assert [error.code for error in errors["file"]] == ["categories-too-many"]
    assert not Registration.objects.filter(tournament=empty).exists()


def test_an_edit_replaces_the_categories_and_an_empty_category_goes(empty):
    [ana, bo] = services.players_import_csv(tournament=empty,
                                            text="Ana;;;Women, Seniors\nBo;;;Seniors\n")
    services.registration_update(registration=ana, name="Ana", categories=["women"])
    services.registration_update(registration=bo, name="Bo", categories=[])
    assert carried(empty) == {"Ana": ["Women"], "Bo": []}
    assert list(Category.objects.filter(tournament=empty).values_list("name", flat=True)) == [
        "Women"]
    # no categories given: they stay as they are
    services.registration_update(registration=ana, name="Ana Roy")
    assert carried(empty) == {"Ana Roy": ["Women"], "Bo": []}


def test_another_tournaments_registration_is_refused(empty, make_tournament):
    other = make_tournament(slug="other", players=1, sessions=0)
    theirs = other.registrations.get()
    with pytest.raises(ValidationError) as refused:
        registrations_categorise(tournament=empty, categories={theirs.pk: ["Women"]})
    assert refused.value.error_dict["categories"][0].code == "registration-elsewhere"
    assert not Category.objects.exists()


def test_the_players_form_gives_and_shows_the_categories(organiser_client, tournament):
    registration = tournament.registrations.select_related("player").order_by("pk").first()
    url = f"/t/{tournament.slug}/organise/players/{registration.pk}/"
    player = registration.player
    response = organiser_client.post(url, {"name": player.name, "club": player.club,
                                           "categories": "Juniors, Women, juniors"})
    assert response.status_code == 302
    assert carried(tournament)[player.name] == ["Juniors", "Women"]
    assert organiser_client.get(url).context["form"].initial["categories"] == "Juniors, Women"
    page = organiser_client.get(f"/t/{tournament.slug}/organise/players/")
    [row] = [row for row in page.context["player_table"].rows if row.record.pk == registration.pk]
    assert row.get_cell("categories") == "Juniors, Women"


def test_a_name_too_long_on_the_form_is_refused_next_to_the_field(organiser_client, tournament):
    registration = tournament.registrations.select_related("player").order_by("pk").first()
    response = organiser_client.post(
        f"/t/{tournament.slug}/organise/players/{registration.pk}/",
        {"name": "Changed", "club": "", "categories": "x" * 41})
    assert response.status_code == 400
    assert response.context["form"].errors.as_data()["categories"][0].code == "category-too-long"
    registration.player.refresh_from_db()
    assert registration.player.name != "Changed" and not Category.objects.exists()


def test_a_player_added_by_the_form_carries_categories(organiser_client, tournament):
    response = organiser_client.post(f"/t/{tournament.slug}/organise/players/",
                                     {"name": "Zoé New", "categories": "Seniors"})
    assert response.status_code == 302
    assert carried(tournament)["Zoé New"] == ["Seniors"]


def test_the_csv_import_page_with_categories(organiser_client, empty, grant_organiser,
                                             organiser):
    grant_organiser(organiser, empty)
    upload = SimpleUploadedFile("players.csv", b"Ana;Lyon;;Women\n")
    response = organiser_client.post("/t/empty/organise/players/import/", {"file": upload})
    assert response.status_code == 302
    assert carried(empty) == {"Ana": ["Women"]}


def test_another_tournaments_organiser_cannot_touch_the_categories(client, tournament,
                                                                    make_tournament, make_user,
                                                                    grant_organiser):
    intruder = grant_organiser(make_user("ivan-intruder"), make_tournament(slug="theirs"))
    client.force_login(intruder)
    registration = tournament.registrations.select_related("player").first()
    for url in (f"/t/{tournament.slug}/organise/players/{registration.pk}/",
                f"/t/theirs/organise/players/{registration.pk}/"):
        response = client.post(url, {"name": registration.player.name, "categories": "Hacked"})
        assert response.status_code in (403, 404), url
    assert not Category.objects.exists()


def test_the_settings_choose_the_club_teams_and_the_prize_list(organiser_client, tournament):
    form = organiser_client.get(f"/t/{tournament.slug}/organise/settings/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(start_date=tournament.start_date.isoformat(), criterion_1="match_points",
                team_size="3", team_criterion="total_points", prize_count="5")
    data = {name: value for name, value in data.items() if value is not False}
    response = organiser_client.post(f"/t/{tournament.slug}/organise/settings/", data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.team_size, tournament.team_criterion, tournament.prize_count) == (
        3, "total_points", 5)
    data.update(team_size="21", prize_count="0")
    response = organiser_client.post(f"/t/{tournament.slug}/organise/settings/", data)
    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()
    assert {errors["team_size"][0].code, errors["prize_count"][0].code} == {"max_value",
                                                                             "min_value"}


def test_the_settings_service_leaves_the_club_teams_as_they_are_unless_told(tournament):
    services.tournament_update(**settings_of(tournament, team_size=4, prize_count=6))
    services.tournament_update(**settings_of(tournament, name="Renamed"))
    tournament.refresh_from_db()
    assert (tournament.team_size, tournament.prize_count) == (4, 6)


def test_the_database_holds_one_name_per_tournament_whatever_its_case(empty, make_tournament):
    Category.objects.create(tournament=empty, name="Women")
    for name in ("WOMEN", ""):
        with pytest.raises(IntegrityError), transaction.atomic():
            Category.objects.create(tournament=empty, name=name)
    # another tournament has its own "Women"
    Category.objects.create(tournament=make_tournament(slug="else", players=0, sessions=0),
                            name="Women")


def test_two_tabs_naming_one_new_category_make_it_once(empty):
    [ana, bo] = services.players_import_csv(tournament=empty, text="Ana;;;\nBo;;;\n")
    services.registration_update(registration=ana, name="Ana", categories=["Newcomers"])
    services.registration_update(registration=bo, name="Bo", categories=["NEWCOMERS"])
    assert list(Category.objects.filter(tournament=empty).values_list("name", flat=True)) == [
        "Newcomers"]
    assert carried(empty) == {"Ana": ["Newcomers"], "Bo": ["Newcomers"]}
