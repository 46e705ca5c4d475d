"""What the tournament's pages show, versioned: two numbers per tournament and one per match.

Every write that changes what a page of the tournament shows (a turn, a round's end, a
confirmation, the seating, a registration, the settings) calls :func:`touch` inside its own
transaction, so that the versions and the data change together: a reader who sees the new
version sees the new data. Readers key what they keep (pages, fragments, PDFs) and their
ETags on a version at least as fine as what they show:

- ``Tournament.data_version``: raised by every write. What shows anything of the tournament
  can key on it (the PDFs, the exports).
- ``Tournament.results_version``: raised by every write but the writes to a match that leave
  it in play (or not started) as it was: a turn, a round's end, a correction while it plays.
  The standings, the public's page of a session and a player's page show nothing more: the
  confirmations, each match's state, the totals of the matches that are over (``Match.OVER``),
  the seating, registrations, sessions and settings, never a turn in the middle of a match.
- ``Match.revision``: raised by every write to the match (its writes claim it first). The
  match's own page, the one that shows it in play, keys on the results version plus its
  revision (:func:`page_version`). While fifty tables play, a phone's poll of the standings,
  of the session, of a player's page or of another table's match is still a 304.

A page's version puts the results version above its match's revision (:func:`page_version`):
both only grow, so the version only grows, and it changes whenever one of its parts does.
"""

from __future__ import annotations

from django.db.models import F

from tournament.models import Tournament


def touch(*, tournament_id: int, results: bool = True) -> None:
    """Raise the tournament's data version by one, in the caller's transaction; and its
    results version too unless ``results`` is False (a write that left a match in play)."""
    bumped = {"data_version": F("data_version") + 1}
    if results:
        bumped["results_version"] = F("results_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**bumped)


#: The results version sits above this many bits of the match's revision.
REVISION_BITS = 32


def page_version(*, tournament: Tournament, revision: int = 0) -> int:
    """The version of a page that shows the tournament's results, and with ``revision`` a
    match as it is played: the results version (read with ``tournament``) above the match's
    revision, both read before the page's data."""
    return (tournament.results_version << REVISION_BITS) + revision
