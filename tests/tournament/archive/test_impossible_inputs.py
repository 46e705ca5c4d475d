"""What cannot have happened, slipped into a tournament's archive: refused at the import as the
upload and ``python -m scoring check`` refuse it (the same records,
tests/scoring/impossible_records.py), nothing written."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.exceptions import ValidationError

from scoring import check_record, parse_record
from tests.scoring.impossible_records import unseen_tiles, with_corner
from tests.tournament.archive.helpers import build_source, counts, resealed, wipe, zip_with
from tournament.archive import export
from tournament.archive.imports import past_results_import
from tournament.models import PlayerRating, RatingChange

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def archive() -> bytes:
    tournament = build_source()
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    return data


def entries(data: bytes) -> list[str]:
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    return [table["match"]["entry"] for session in manifest["sessions"]
            for table in session["tables"] if table["match"] and table["match"]["entry"]]


def with_record(data: bytes, entry: str, change) -> bytes:
    record = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(entry))
    change(record)
    return resealed(zip_with(data, **{entry: json.dumps(record).encode()}))


def refused_reasons(data: bytes) -> list[str]:
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=data)
    assert counts() == before
    (error,) = refused.value.error_dict["archive"]
    assert error.code == "record-refused"
    return error.params["reasons"].split(",")


def _points_for_the_player_out(record) -> None:
    round_ = record["rounds"][0]
    seat = next(i for i, rack in enumerate(round_["racks"]) if rack == [])
    round_["racks"][seat] = 10
    round_.pop("settlement_claimed", None)


def test_an_archive_giving_points_to_the_player_who_went_out_is_refused(archive):
    changed = with_record(archive, entries(archive)[0], _points_for_the_player_out)
    assert refused_reasons(changed) == ["rack-total-impossible"]


def _the_pool_in_a_rack(record) -> None:
    round_ = record["rounds"][0]
    seat = next(i for i, rack in enumerate(round_["racks"]) if rack)
    round_["racks"][seat] = round_["racks"][seat] + unseen_tiles(record)
    round_.pop("settlement_claimed", None)


def test_an_archive_with_a_rack_holding_the_pools_tiles_is_refused(archive):
    changed = with_record(archive, entries(archive)[0], _the_pool_in_a_rack)
    assert refused_reasons(changed) == ["rack-impossible"]



@pytest.mark.parametrize("value", [-1, 6, 12])
def test_an_archive_with_a_corner_that_shows_no_tile_is_refused_naming_it(archive, value):
    """-1 was refused as a value the row cannot hold, 6 as a record that replays otherwise:
    now both as ``python -m scoring check`` and the upload see them, a turn playing no tile."""
    entry = entries(archive)[0]
    record = with_corner(json.loads(zipfile.ZipFile(io.BytesIO(archive)).read(entry)), value,
                         whole=True)
    checked = {p.code for p in check_record(parse_record(record)).problems}
    assert "unknown-tile" in checked
    changed = resealed(zip_with(archive, **{entry: json.dumps(record).encode()}))
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=changed)
    assert counts() == before
    (error,) = refused.value.error_dict["archive"]
    assert error.code == "record-differs"
    assert set(error.params["problems"].split(",")) == checked


# --- 4. the same tournament imported twice ----------------------------------------------------


def manifest_of(data: bytes) -> dict:
    return json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))


def with_manifest(data: bytes, change) -> bytes:
    manifest = manifest_of(data)
    change(manifest)
    return zip_with(data, **{export.MANIFEST_NAME: json.dumps(manifest, indent=4).encode()})


def other_installation(manifest) -> None:
    manifest["archive"]["installation"] = "0" * 32


def reindented(data: bytes) -> bytes:
    """Every record indented otherwise and its keys in another order, the manifest's digest
    made again from the new bytes, the installation another: nothing of the bytes is left."""
    source = zipfile.ZipFile(io.BytesIO(data))
    records = {entry: json.dumps(json.loads(source.read(entry)), indent=3, sort_keys=True)
               .encode() for entry in entries(data)}
    changed = resealed(zip_with(data, **records))
    return with_manifest(changed, other_installation)


DISGUISES = {
    "another installation": lambda data: with_manifest(data, other_installation),
    "no archive block": lambda data: with_manifest(data, lambda m: m.pop("archive")),
    "records indented again": reindented,
}


def rated_matches() -> dict[int, int]:
    return dict(PlayerRating.objects.values_list("player_id", "matches"))


@pytest.mark.parametrize("disguise", DISGUISES)
def test_an_archive_imported_again_in_disguise_is_the_same_tournament(archive, disguise):
    """Three re-imports took one player from 19 to 31 rated matches: an archive whose
    identity was changed or left out, or whose records were indented again, is refused as
    the tournament already here, and imported only as an unrated copy when asked for."""
    first = past_results_import(data=archive).tournament
    kept = (rated_matches(), counts())
    disguised = DISGUISES[disguise](archive)
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=disguised)
    assert refused.value.error_dict["archive"][0].code == "archive-already-here"
    assert (rated_matches(), counts()) == kept
    copy = past_results_import(data=disguised, as_copy=True)
    assert copy.copy and copy.tournament.archive_copy and not copy.tournament.is_rated
    assert copy.tournament.pk != first.pk and rated_matches() == kept[0]
    assert not RatingChange.objects.filter(tournament=copy.tournament).exists()


def test_an_archive_of_a_tournament_made_here_is_known_without_its_identity(db):
    """The tournament was never imported: exported, its identity changed, it is still the
    tournament here."""
    tournament = build_source(slug="made-here")
    data = with_manifest(export.tournament_records_zip(tournament=tournament),
                         other_installation)
    before = (rated_matches(), counts())
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=data)
    assert refused.value.error_dict["archive"][0].code == "archive-already-here"
    assert "/t/made-here/" in refused.value.error_dict["archive"][0].message
    assert (rated_matches(), counts()) == before


def test_another_tournament_with_as_many_matches_is_not_taken_for_it(archive):
    """What the matches say decides, not their number: one claim kept otherwise is another
    tournament (imported, rated)."""
    past_results_import(data=archive)
    entry = entries(archive)[0]
    record = json.loads(zipfile.ZipFile(io.BytesIO(archive)).read(entry))
    record["rounds"][0]["turns"][0]["claimed"] += 1
    changed = with_manifest(resealed(zip_with(archive, **{entry: json.dumps(record).encode()})),
                            other_installation)
    with pytest.raises(ValidationError) as refused:  # refused for what it says, not as a copy
        past_results_import(data=changed)
    assert refused.value.error_dict["archive"][0].code != "archive-already-here"
