"""A record whose texts no database stores, or whose error message no page could write: a NUL
character in a player's name or a reason, an unpaired surrogate where a word is expected.
Uploaded to a match, or in an archive imported, it is refused next to its field, with nothing
written (on PostgreSQL, whose columns refuse NUL characters, as on SQLite)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bench.hostile_archives import manifest_and_records, zipped
from tests.factories import fresh, match_at, played_record
from tests.tournament.archive.helpers import counts
from tournament.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


def damaged(record: dict, where: str) -> dict:
    record = json.loads(json.dumps(record))
    turn = record["rounds"][0]["turns"][1]
    if where == "name":
        record["players"][0] += "\x00"
    elif where == "reason":
        turn.update(decision="claim", claimed=1, reason="mal lu\x00")
    else:
        turn[where] = "\udfff"
    return record


CASES = ["name", "reason", "bonus", "decision"]


@pytest.mark.parametrize("where", CASES)
def test_an_uploaded_record_is_refused_next_to_its_field(referee_client, tournament, where):
    match = match_at(tournament=tournament)
    record = damaged(played_record(match=match, seed=3), where)
    upload = SimpleUploadedFile("match.json", json.dumps(record).encode("utf-8", "surrogatepass"))
    response = referee_client.post(
        reverse("tournament:match_record_upload",
                kwargs={"slug": tournament.slug, "match_id": match.pk}),
        {"revision": 0, "record": upload, "names_in_seat_order": "on"},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert [error.code for error in
            response.context["upload_form"].errors.as_data()["record"]] == ["unreadable"]
    response.content.decode("utf-8")  # the page is written whole
    assert fresh(match).revision == 0 and not Round.objects.filter(match=match).exists()
    assert not AuditEntry.objects.filter(match=match).exists()


@pytest.mark.parametrize("where", CASES)
def test_an_archives_record_is_refused(organiser_client, where):
    manifest, records = manifest_and_records(1)
    entry = next(iter(records))
    record = damaged(json.loads(records[entry]), where)
    records[entry] = json.dumps(record).encode("utf-8", "surrogatepass")
    before = counts()
    response = organiser_client.post("/tournaments/import/", {"file": SimpleUploadedFile(
        "records.zip", zipped({"tournament.json": json.dumps(manifest).encode(), **records}))})
    assert response.status_code == 400
    assert [error.code for error in response.context["form"].errors.as_data()["file"]] == [
        "record-refused"]
    assert counts() == before

