"""What the tournament's pages show, versioned: two numbers per tournament and one per match.

Every write that changes what a page of the tournament shows (a turn, a round's end, a
confirmation, the seating, a registration, the settings) calls :func:`touch` inside its own
transaction, so that the versions and the data change together: a reader who sees the new
version sees the new data. Readers key what they keep (pages, fragments, PDFs) and their
ETags on a version at least as fine as what they show:

- ``Tournament.data_version``: raised by every write. What shows anything of the tournament
  can key on it (the PDFs, the exports).
- ``Tournament.results_version``: raised by every write but the turns of a match that leave
  its state (not started, in play, finished, confirmed) as it was and touch no confirmed
  match. The standings show nothing more: they change with confirmations, the tables' states,
  registrations, sessions and settings, never with a turn in the middle of a round.
- ``Match.revision``: raised by every write to the match (its writes claim it first). A page
  that shows matches in play keys on the results version plus the revisions of the matches
  it shows (:func:`page_version`): the match page on its match's, a player's page on their
  matches', a session's page on its tables'. While fifty tables play, a phone's poll of the
  standings, of another table's match or of another player's page is still a 304.

A page's version puts the results version above the revisions' sum (:func:`page_version`):
within one results version the matches a page shows are the same ones (seating, reseating,
merging and withdrawing raise it) and their revisions only grow, so the version only grows,
and it changes whenever one of its parts does.
"""

from __future__ import annotations

from django.db.models import F, QuerySet, Sum

from tournament.models import Match, Tournament


def touch(*, tournament_id: int, results: bool = True) -> None:
    """Raise the tournament's data version by one, in the caller's transaction; and its
    results version too unless ``results`` is False (a turn that changed no match's state)."""
    bumped = {"data_version": F("data_version") + 1}
    if results:
        bumped["results_version"] = F("results_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**bumped)


#: The results version sits above this many bits of the revisions' sum.
REVISION_BITS = 32


def page_version(*, tournament: Tournament, revisions: int = 0) -> int:
    """The version of a page that shows the tournament's results and matches as they are
    played: the results version (read with ``tournament``) above ``revisions``, the sum of
    the shown matches' revisions (:func:`revisions_of`), both read before the page's data."""
    return (tournament.results_version << REVISION_BITS) + revisions


def revisions_of(matches: QuerySet[Match]) -> int:
    """The sum of the matches' revisions (one aggregate query)."""
    return matches.aggregate(revisions=Sum("revision"))["revisions"] or 0
