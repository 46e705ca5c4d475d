"""Two imports at the same moment (PostgreSQL: two connections really write at once; SQLite has
one writer at a time): under one address, the second takes the next free one; of one archive,
the second is refused as already here. Never a server error, never the same archive twice."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections

from bench.hostile_archives import well_formed
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
    start = threading.Barrier(len(archives))
    outcomes: list[str] = [""] * len(archives)

    def run(index: int, data: bytes) -> None:
        try:
            start.wait()
            outcomes[index] = "imported " + past_results_import(data=data).tournament.slug
        except ValidationError as error:
            outcomes[index] = error.error_dict["archive"][0].code
        except Exception as error:  # noqa: BLE001 - reported by the test
            outcomes[index] = repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(archives)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


def test_two_archives_under_one_address_at_once_both_import():
    outcomes = imported_at_once(well_formed(matches=2), well_formed(matches=3))
    assert sorted(outcomes) == ["imported hostile-open", "imported hostile-open-2"]


def test_one_archive_twice_at_once_is_imported_once():
    outcomes = imported_at_once(well_formed(matches=2), well_formed(matches=2))
    assert sorted(outcomes) == ["archive-already-here", "imported hostile-open"]
    assert Tournament.objects.count() == 1 and ArchiveImport.objects.count() == 1
