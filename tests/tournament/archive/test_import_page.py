"""/tournaments/import/: the organiser's page that imports a past tournament's records.zip
(tournament.archive.imports): who may use it, a real round trip, and refusals shown
next to the file with nothing written."""

from __future__ import annotations

import datetime
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.pages import attribute, by_id, has_id, messages, select
from tests.tournament.archive.helpers import (
    PLAYERS,
    build_source,
    counts,
    resealed,
    wipe,
    zip_with,
)
from tournament.archive import export
from tournament.archive import forms as archive_forms
from tournament.models import Match, RatingChange, Seat, StaffRole, Tournament

pytestmark = pytest.mark.django_db

URL = "/tournaments/import/"


def upload(data: bytes, name: str = "open-de-lyon-records.zip") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, "application/zip")


def totals_of(tournament) -> dict[tuple[int, int], list[int]]:
    return {
        (match.table.session.number, match.table.number): match.totals
        for match in Match.objects.filter(table__session__tournament=tournament)
        .select_related("table__session")
    }


@pytest.fixture
def exported():
    """The source tournament's archive and its matches' totals; then this installation
    forgets the tournament and its players."""
    source = build_source()
    data = export.tournament_records_zip(tournament=source)
    totals = totals_of(source)
    wipe(source)
    return data, totals


def field_error_codes(response, field: str) -> list[str]:
    return [error.code for error in response.context["form"].errors.as_data().get(field, [])]


# --- who may use it ---------------------------------------------------------------------------


def test_the_page_is_reached_from_the_organise_page(organiser_client, tournament):
    page = organiser_client.get(reverse("tournament:organise", kwargs={"slug": tournament.slug}))
    assert URL in [attribute(link, "href") for link in select(page, "a")]
    assert reverse("tournament:tournament_import") == URL
    form = organiser_client.get(URL)
    assert form.status_code == 200
    assert attribute(by_id(form, "import-tournament"), "enctype") == "multipart/form-data"
    assert attribute(by_id(form, "id_file"), "type") == "file"
    assert has_id(form, "id_name") and has_id(form, "id_start_date")


def test_who_may_import(client, referee_client, tournament, make_user, exported):
    data, _totals = exported
    before = counts()
    anonymous = client.get(URL)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    posted = client.post(URL, {"file": upload(data)})
    assert posted.status_code == 302 and posted["Location"].startswith("/login/")
    assert referee_client.get(URL).status_code == 403
    assert referee_client.post(URL, {"file": upload(data)}).status_code == 403
    outsider = Client()
    outsider.force_login(make_user("oscar-outsider"))
    assert outsider.get(URL).status_code == 403
    assert counts() == before
    admin = Client()
    admin.force_login(make_user("root", is_superuser=True))
    assert admin.get(URL).status_code == 200


# --- the round trip ---------------------------------------------------------------------------


def test_the_archive_becomes_a_tournament_its_user_organises(organiser_client, organiser,
                                                             exported):
    data, totals = exported
    response = organiser_client.post(URL, {"file": upload(data), "name": "",
                                           "start_date": ""})
    tournament = Tournament.objects.get(slug="open-de-lyon")
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert messages(response) == [("success", "results-imported")]
    assert tournament.name == "Open de Lyon"
    assert tournament.start_date == datetime.date(2025, 3, 8)  # the archive's, not the form's
    assert StaffRole.objects.get(tournament=tournament).user == organiser
    assert StaffRole.objects.get(tournament=tournament).role == StaffRole.Role.ORGANISER
    assert tournament.registrations.count() == len(PLAYERS) + 1
    assert totals_of(tournament) == totals
    assert set(Match.objects.filter(table__session__tournament=tournament)
               .values_list("status", flat=True)) == {Match.Status.CONFIRMED}
    # Rated as it was: one rating change per seat of each match (one match a table).
    seats = Seat.objects.filter(table__session__tournament=tournament).count()
    assert seats and RatingChange.objects.filter(tournament=tournament).count() == seats
    # The new tournament's page shows the message, by its level and code.
    page = organiser_client.get(response["Location"])
    shown = select(page, "li.message--success")
    assert [attribute(message, "data-code") for message in shown] == ["results-imported"]
    # The importer organises it.
    assert organiser_client.get(reverse(
        "tournament:organise", kwargs={"slug": tournament.slug})).status_code == 200


def test_a_second_upload_of_one_archive_names_the_tournament_then_a_copy(organiser_client,
                                                                         exported):
    data, _totals = exported
    assert organiser_client.post(URL, {"file": upload(data)}).status_code == 302
    first = Tournament.objects.get(slug="open-de-lyon")
    before = counts()
    again = organiser_client.post(URL, {"file": upload(data)})
    assert again.status_code == 400
    assert field_error_codes(again, "file") == ["archive-already-here"]
    assert attribute(select(again, "#archive-already-here a")[0], "href") == \
        first.get_absolute_url()
    assert counts() == before
    copy = organiser_client.post(URL, {"file": upload(data), "as_copy": "on",
                                       "name": "Open de Lyon (copie)"})
    assert copy.status_code == 302
    made = Tournament.objects.get(name="Open de Lyon (copie)")
    assert made.archive_copy and not made.is_rated
    assert not RatingChange.objects.filter(tournament=made).exists()


def test_the_name_given_replaces_the_archives(organiser_client, exported):
    data, _totals = exported
    organiser_client.post(URL, {"file": upload(data), "name": "Coupe de Lyon 2025"})
    assert Tournament.objects.get(slug="open-de-lyon").name == "Coupe de Lyon 2025"


def test_an_old_archive_takes_the_files_name_and_the_date_given(organiser_client, exported):
    data, totals = exported
    old = zip_with(data, **{export.MANIFEST_NAME: None})
    response = organiser_client.post(URL, {"file": upload(old, "lyon-2025-records.zip"),
                                           "start_date": "2025-03-08"})
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="lyon-2025")
    assert (tournament.name, tournament.start_date) == ("lyon-2025", datetime.date(2025, 3, 8))
    assert totals_of(tournament) == totals


# --- refusals: shown next to the file, nothing written ---------------------------------------


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_damaged_zip_is_refused_next_to_the_file(organiser_client, exported, language):
    data, _totals = exported
    before = counts()
    response = organiser_client.post(URL, {"file": upload(data[: len(data) // 2])},
                                     HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert field_error_codes(response, "file") == ["archive-unreadable"]
    assert not response.context["form"].non_field_errors()
    assert by_id(response, "id_file_error") is not None
    assert response.context["LANGUAGE_CODE"] == language
    assert counts() == before


def test_a_record_refused_halfway_leaves_nothing_written(organiser_client, exported):
    """The last match fails after the tournament, its players and the first matches were
    written: the import is one transaction."""
    data, _totals = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    last = manifest["sessions"][-1]["tables"][-1]["match"]["entry"]
    before = counts()
    response = organiser_client.post(URL, {"file": upload(resealed(zip_with(data, **{
        last: b'{"players": ["A"], "rounds": 3}'})))})
    assert response.status_code == 400
    assert field_error_codes(response, "file") == ["record-refused"]
    assert counts() == before


def test_a_missing_or_too_large_file_is_refused(organiser_client, exported, monkeypatch):
    data, _totals = exported
    before = counts()
    missing = organiser_client.post(URL, {"name": "Sans fichier"})
    assert missing.status_code == 400
    assert field_error_codes(missing, "file") == ["required"]
    monkeypatch.setattr(archive_forms, "ARCHIVE_MAX_BYTES", len(data) - 1)
    large = organiser_client.post(URL, {"file": upload(data)})
    assert large.status_code == 400
    assert field_error_codes(large, "file") == ["too-large"]
    assert counts() == before
