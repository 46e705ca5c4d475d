"""What the tournament's pages show, versioned: two numbers per tournament and one per match.

Every write to a tournament goes through :func:`tournament_write` (a match's, through
``match_write``, which opens one): one transaction, at whose end the versions below are
raised, so that the versions and the data change together: a reader who sees the new version
sees the new data. No service raises them by hand. Readers key what they keep (pages,
fragments, PDFs) and their ETags on a version at least as fine as what they show:

- ``Tournament.data_version``: raised by every write. What shows anything of the tournament
  can key on it (the PDFs, the exports).
- ``Tournament.results_version``: raised by every write but the writes to a match that leave
  it in play (or not started) as it was: a turn, a round's end, a correction while it plays;
  and the check-in, which no public page shows. The standings, the public's page of a session
  and a player's page show nothing more: the confirmations, each match's state, the totals of
  the matches that are over (``Match.OVER``), the seating, registrations, sessions and
  settings, never a turn in the middle of a match.
- ``Match.revision``: raised by every write to the match (its writes claim it first). The
  match's own page, the one that shows it in play, keys on the results version plus its
  revision (:func:`page_version`). While fifty tables play, a phone's poll of the standings,
  of the session, of a player's page or of another table's match is still a 304.

A page's version puts the results version above its match's revision (:func:`page_version`):
both only grow, so the version only grows, and it changes whenever one of its parts does.
``tests/tournament/test_page_versions.py`` holds it for every write address and every page
that answers with an ETag: a page whose content a write changed has a new ETag.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F

from tournament.models import Tournament


@dataclass
class TournamentWrite:
    """A write in progress (:func:`tournament_write`): which tournaments' pages it changes,
    and whether it changes what the results' pages show."""

    tournament_ids: set[int] = field(default_factory=set)
    #: False: the write leaves every match's state and every result as they were (a turn
    #: in play, a check-in): the results version stays.
    results: bool = True
    changed: bool = True

    def also(self, tournament_id: int) -> None:
        """Another tournament whose pages the write changes (a player record merged shows in
        every tournament the player played), or the write's own once it is known (a write
        that finds its tournament under a lock)."""
        self.tournament_ids.add(tournament_id)

    def nothing_changed(self) -> None:
        """The write found nothing to change (a check-in marked as it was): no version is
        raised, and every page keeps its ETag."""
        self.changed = False


@contextmanager
def tournament_write(*, tournament_id: int | None = None,
                     results: bool = True) -> Iterator[TournamentWrite]:
    """The one way to write what a tournament's pages show: a transaction (a savepoint inside
    the caller's), at whose end, unless the write raised or said :meth:`nothing_changed
    <TournamentWrite.nothing_changed>`, each tournament's versions are raised, in the order of
    their ids (the order every write takes the tournaments' row locks in: the raise is the
    write's last statement, so a row stays locked for the commit alone). A write that raises
    rolls back whole, versions included."""
    with transaction.atomic():
        write = TournamentWrite(results=results)
        if tournament_id is not None:
            write.also(tournament_id)
        yield write
        if not write.tournament_ids:
            raise RuntimeError("a tournament write names the tournament it changes")
        if write.changed:
            for each in sorted(write.tournament_ids):
                _raise_versions(tournament_id=each, results=write.results)


def _raise_versions(*, tournament_id: int, results: bool) -> None:
    """Raise the tournament's data version by one, in the write's transaction; and its
    results version too unless ``results`` is False."""
    raised = {"data_version": F("data_version") + 1}
    if results:
        raised["results_version"] = F("results_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**raised)


#: The results version sits above this many bits of the match's revision.
REVISION_BITS = 32


def page_version(*, tournament: Tournament, revision: int = 0) -> int:
    """The version of a page that shows the tournament's results, and with ``revision`` a
    match as it is played: the results version (read with ``tournament``) above the match's
    revision, both read before the page's data."""
    return (tournament.results_version << REVISION_BITS) + revision
