"""The archive carries what shapes a tournament's standings beyond its matches: the players'
categories, the club-team and prize-list settings and the check-in rule (docs/guides/categories.md,
docs/guides/check-in.md); the absences travel as the seats they are read from. A manifest that
names them wrongly is refused whole, nothing written."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.exceptions import ValidationError

from tests.tournament.archive.helpers import counts, wipe, zip_with
from tests.tournament.standings.test_absences import build
from tests.tournament.tournaments import settings_of
from tournament.archive import export
from tournament.archive.imports import past_results_import
from tournament.models import Category, CheckIn, CheckInRule, Tournament
from tournament.organiser.services import tournament_update
from tournament.organiser.services.categories import registrations_categorise
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db

CATEGORIES = {"A": ["Women", "Juniors"], "B": ["Women"], "C": ["Seniors"]}


def shaped() -> Tournament:
    """Ten players, two sessions with check-in (absences in both), three categories, club
    teams of two by total points, five prizes per category."""
    tournament = build(CheckInRule.FORFEIT)
    tournament_update(**settings_of(tournament, team_size=2, team_criterion="total_points",
                                    prize_count=5, check_in=CheckInRule.FORFEIT,
                                    match_rounds=tournament.match_rounds))
    registrations_categorise(tournament=tournament, categories={
        registration.pk: CATEGORIES.get(registration.player.name[-1], [])
        for registration in tournament.registrations.select_related("player")})
    return Tournament.objects.get(pk=tournament.pk)


def shape_of(tournament: Tournament) -> dict:
    return {
        "settings": (tournament.check_in, tournament.team_size, tournament.team_criterion,
                     tournament.prize_count),
        "categories": {registration.player.name: sorted(
            category.name for category in registration.categories.all())
            for registration in tournament.registrations.select_related("player")
            .prefetch_related("categories")},
        "standings": [(row["name"], row["rank_label"], row["absent_sessions"], row["forfeits"],
                       row["share"]) for row in standings_rows(tournament=tournament)],
    }


@pytest.fixture
def archived():
    tournament = shaped()
    before = shape_of(tournament)
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    return data, before


def test_a_round_trip_keeps_categories_team_settings_and_check_in(archived):
    data, before = archived
    assert before["settings"] == ("forfeit", 2, "total_points", 5)
    assert any(absent for _name, _rank, absent, _f, _s in before["standings"])
    imported = past_results_import(data=data).tournament
    assert shape_of(imported) == before
    assert sorted(Category.objects.filter(tournament=imported).values_list("name", flat=True)
                  ) == ["Juniors", "Seniors", "Women"]
    # the check-in marks do not travel: the seats say who was absent (docs/reference/record-format.md)
    assert not CheckIn.objects.filter(session__tournament=imported).exists()


def manifest_of(data: bytes) -> dict:
    return json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))


@pytest.mark.parametrize(("label", "change"), [
    ("a category name too long",
     lambda manifest: manifest["tournament"]["categories"].append("J" * 41)),
    ("an empty category name", lambda manifest: manifest["tournament"]["categories"].append(" ")),
    ("a category twice", lambda manifest: manifest["tournament"]["categories"].append("women")),
    ("a category not text", lambda manifest: manifest["tournament"]["categories"].append(7)),
    ("thousands of categories", lambda manifest: manifest["tournament"].update(
        categories=[f"C{number}" for number in range(5000)])),
    ("a player's category not in the list",
     lambda manifest: manifest["players"][0]["categories"].append("Veterans")),
    ("a player's categories not a list",
     lambda manifest: manifest["players"][0].update(categories="Women")),
    ("an unknown team criterion",
     lambda manifest: manifest["tournament"].update(team_criterion="charm")),
    ("a team size too large", lambda manifest: manifest["tournament"].update(team_size=21)),
    ("a team size negative", lambda manifest: manifest["tournament"].update(team_size=-1)),
    ("no prize", lambda manifest: manifest["tournament"].update(prize_count=0)),
    ("an unknown check-in rule", lambda manifest: manifest["tournament"].update(check_in="maybe")),
    ("a check-in rule not text", lambda manifest: manifest["tournament"].update(check_in=True)),
])
def test_a_hostile_shape_is_refused_whole(archived, label, change):
    data, _before = archived
    manifest = manifest_of(data)
    change(manifest)
    before = counts()
    categories = Category.objects.count()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{
            export.MANIFEST_NAME: json.dumps(manifest).encode()}))
    assert refused.value.error_dict["archive"][0].code == "manifest-field", label
    assert counts() == before and Category.objects.count() == categories


def test_an_archive_from_before_the_shape_imports_with_the_defaults(archived):
    data, _before = archived
    manifest = manifest_of(data)
    for key in ("categories", "team_size", "team_criterion", "prize_count", "check_in"):
        del manifest["tournament"][key]
    for player in manifest["players"]:
        del player["categories"]
    imported = past_results_import(data=zip_with(data, **{
        export.MANIFEST_NAME: json.dumps(manifest).encode()})).tournament
    assert (imported.check_in, imported.team_size, imported.prize_count) == ("off", 0, 3)
    assert not Category.objects.filter(tournament=imported).exists()
