"""What the tournament's pages show, versioned: one number per tournament.

Every write that changes what a page of the tournament shows (a turn, a round's end, a
confirmation, the seating, a registration, the settings) calls :func:`touch` inside its own
transaction, so that the version and the data change together: a reader who sees the new
version sees the new data. Readers key what they keep (pages, fragments, PDFs) and their
ETags on :func:`version`.
"""

from __future__ import annotations

from django.db.models import F

from tournament.models import Tournament


def touch(*, tournament_id: int) -> None:
    """Raise the tournament's data version by one, in the caller's transaction."""
    Tournament.objects.filter(pk=tournament_id).update(data_version=F("data_version") + 1)


def version(*, tournament_id: int) -> int:
    """The tournament's data version as committed (one indexed read)."""
    return (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("data_version", flat=True)
        .get()
    )
