"""Two imports at the same moment (PostgreSQL: two connections really write at once; SQLite has
one writer at a time): under one address, the second takes the next free one; of one archive,
the second is refused as already here. Never a server error, never the same archive twice."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from bench.hostile_archives import well_formed
from tests.concurrency import run_at_once
from tournament.archive.imports import past_results_import
from tournament.models import ArchiveImport, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="two connections writing at once: run with DATABASE_URL=postgres://..."),
]


def imported_at_once(*archives: bytes) -> list[str]:
    """Each archive imported in its own thread, all started together: "imported <slug>" or
    the refusal's code, or the error."""

    def imported(data: bytes) -> str:
        try:
            return "imported " + past_results_import(data=data).tournament.slug
        except ValidationError as error:
            return error.error_dict["archive"][0].code

    outcomes = run_at_once({str(index): lambda data=data: imported(data)
                            for index, data in enumerate(archives)})
    return [outcomes[str(index)] for index in range(len(archives))]


def test_two_archives_under_one_address_at_once_both_import():
    outcomes = imported_at_once(well_formed(matches=2), well_formed(matches=3))
    assert sorted(outcomes) == ["imported hostile-open", "imported hostile-open-2"]


def test_one_archive_twice_at_once_is_imported_once():
    outcomes = imported_at_once(well_formed(matches=2), well_formed(matches=2))
    assert sorted(outcomes) == ["archive-already-here", "imported hostile-open"]
    assert Tournament.objects.count() == 1 and ArchiveImport.objects.count() == 1
