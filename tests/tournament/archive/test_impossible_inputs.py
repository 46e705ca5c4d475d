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
