"""Archives built to hurt the import (``bench/hostile_archives.py``): each is refused at the
first limit it crosses, with nothing written, and reading it holds little memory whatever it
declares or unpacks into (``tournament/archive/unzip.py``). The memory is measured with
``tracemalloc`` (every Python object, the unpacked bytes included)."""

from __future__ import annotations

import tracemalloc

import pytest
from django.core.exceptions import ValidationError

from bench import hostile_archives as hostile
from tests.tournament.archive.helpers import counts
from tournament.archive import unzip
from tournament.archive.imports import past_results_import

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

MB = 1024 * 1024
#: What an import may hold above its start while reading a hostile archive.
PEAK_BYTES = 24 * MB


def imported_within_memory(data: bytes):
    """The import of ``data``: (its result or its refusal's code, the peak memory)."""
    tracemalloc.start()
    try:
        outcome = past_results_import(data=data)
    except ValidationError as error:
        outcome = error.error_dict["archive"][0].code
    finally:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return outcome, peak


@pytest.mark.parametrize(("label", "build", "code"), [
    ("a 190 MB record in a 190 KB upload", lambda: hostile.big_entry(190 * MB),
     "archive-too-large"),
    ("a manifest of 10 million empty objects", lambda: hostile.empty_objects(10_000_000),
     "archive-too-large"),
    ("a manifest of empty objects under the byte limit",
     lambda: hostile.empty_objects(2_500_000), "archive-too-large"),
    ("a manifest nested 100,000 deep", lambda: hostile.deep_nesting(100_000),
     "archive-too-large"),
    ("a manifest nested 40 deep", lambda: hostile.deep_nesting(40), "archive-too-large"),
    ("a 50 MB record declaring 1,000 bytes", lambda: hostile.lying_size(50 * MB, 1000),
     "archive-unreadable"),
    ("a 3 MB record declaring 1,000 bytes", lambda: hostile.lying_size(3 * MB, 1000),
     "archive-unreadable"),
    ("a small record declaring 300 MB", lambda: hostile.lying_size(1000, 300 * MB),
     "archive-too-large"),
    ("30,000 entries", lambda: hostile.many_entries(30_000), "archive-too-large"),
])
def test_a_hostile_archive_is_refused_within_little_memory(label, build, code):
    data = build()
    before = counts()
    outcome, peak = imported_within_memory(data)
    assert outcome == code, label
    assert peak < PEAK_BYTES, f"{label}: {peak / MB:.1f} MB"
    assert counts() == before


def test_an_entry_nothing_names_is_never_unpacked():
    """190 MB of padding beside a well-formed tournament: the import reads what the manifest
    names, and the padding costs nothing."""
    outcome, peak = imported_within_memory(hostile.unread_big_entry(190 * MB))
    assert outcome.tournament.name == "Hostile Open" and outcome.matches == 1
    assert peak < PEAK_BYTES


def test_the_bytes_read_are_counted_whatever_the_archive_declares(monkeypatch):
    """A record under its own limit that the whole import's limit stops: the count is of the
    bytes actually unpacked, across entries."""
    monkeypatch.setattr(unzip, "MAX_UNPACKED_BYTES", 2000)
    outcome, _peak = imported_within_memory(hostile.well_formed(matches=5))
    assert outcome == "archive-too-large"


def test_the_well_formed_archive_of_the_same_builder_imports():
    outcome, _peak = imported_within_memory(hostile.well_formed(matches=3))
    assert outcome.matches == 3 and outcome.tournament.is_rated
