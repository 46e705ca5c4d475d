"""What the tournament's pages show, versioned: two numbers per tournament and two per match.

Every write to a tournament goes through :func:`tournament_write` (a match's, through
``match_write``, which opens one): one transaction, at whose end the versions below are
raised, so that the versions and the data change together: a reader who sees the new version
sees the new data. No service raises them by hand. Readers key what they keep (pages,
fragments, PDFs) and their ETags on a version at least as fine as what they show, and no
finer: a version that moves for something its page does not show sends every phone the page
again for nothing.

- ``Tournament.data_version``: raised by every write. What shows anything of the tournament
  can key on it (the PDFs, the exports).
- ``Tournament.results_version``: raised by every write but a write to a match that leaves
  its confirmation as it was (a turn, a round's end, the match's start or end, a correction
  while it plays), the check-in, and a call for a referee. The standings show nothing more:
  the confirmed matches' results, the seating, registrations, sessions and settings, which
  tables are not confirmed yet; never a turn, never a match's state before its confirmation.
- ``Tournament.setup_version``: raised with the results version by every write but a
  match's own (:attr:`TournamentWrite.setup`): what a match's replay shows of its tournament
  beyond the match's own rows, which its revision follows (the players' names, the rules,
  the seating). A replay kept between a tablet's requests keys on it and the match's
  revision (``tournament.matches.reading.replay_cache``): a match confirmed at another table
  moves the standings, not the replays of the room's other matches.
- ``Match.revision``: raised by every write to the match (its writes claim it first). The
  match's own page keys on the results version plus its revision (:func:`page_version`).
- ``Match.state_revision``: the match's revision when its state (not started, in play,
  finished, confirmed) or its result as a match over last changed
  (:meth:`TournamentWrite.match_state_moved`). The public's page of a session keys on the
  results version plus its matches' state revisions (:func:`session_version`); a player's
  page, on the results version plus their own matches' (:func:`player_version`). While
  fifty tables play, a phone's poll of the standings, of the session, of a player's page
  or of another table's match is a 304; a match that starts or ends moves its session's
  page and its players' pages, not the standings nor the other players' pages.

A page's version puts the results version above the sum of the match revisions it shows
(:func:`page_version`): each part only grows, so the version only grows, and it changes
whenever one of its parts does. ``tests/tournament/test_page_versions.py`` holds it for every
write address and every page that answers with an ETag: a page whose content a write changed
has a new ETag; ``tournament/figures/`` computes the session's and the player's versions a
second time, apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from tournament.kit.prepared import PreparedChain, PreparedRead
from tournament.models import Match, Tournament


@dataclass
class TournamentWrite:
    """A write in progress (:func:`tournament_write`): which tournaments' pages it changes,
    and whether it changes what the results' pages show."""

    tournament_ids: set[int] = field(default_factory=set)
    #: False: the write leaves every match's state and every result as they were (a turn
    #: in play, a check-in): the results version stays.
    results: bool = True
    #: False: the write changes one match's own rows and nothing else a match shows of its
    #: tournament (a match's write: ``match_write``): the setup version stays.
    setup: bool = True
    changed: bool = True
    #: Matches whose state or result the write moved: their ``state_revision`` set to their
    #: revision as the write ends.
    match_states: set[int] = field(default_factory=set)

    def also(self, tournament_id: int) -> None:
        """Another tournament whose pages the write changes (a player record merged shows in
        every tournament the player played), or the write's own once it is known (a write
        that finds its tournament under a lock)."""
        self.tournament_ids.add(tournament_id)

    def match_state_moved(self, match_id: int) -> None:
        """The write moved the match's state (it started, ended, was confirmed) or its result
        as a match over: the pages that show it (its session's, its players') move."""
        self.match_states.add(match_id)

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
            if write.match_states:
                Match.objects.filter(pk__in=write.match_states).update(
                    state_revision=F("revision"))
            for each in sorted(write.tournament_ids):
                _raise_versions(tournament_id=each, results=write.results,
                                setup=write.results and write.setup)


def _raise_versions(*, tournament_id: int, results: bool, setup: bool) -> None:
    """Raise the tournament's data version by one, in the write's transaction; and its
    results version too unless ``results`` is False, and its setup version unless ``setup``
    is."""
    raised = {"data_version": F("data_version") + 1}
    if results:
        raised["results_version"] = F("results_version") + 1
    if setup:
        raised["setup_version"] = F("setup_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**raised)


#: The results version sits above this many bits of the match's revision.
REVISION_BITS = 32


def page_version(*, tournament: Tournament | None = None, revision: int = 0,
                 results_version: int | None = None) -> int:
    """The version of a page that shows the tournament's results, and with ``revision`` a
    match as it is played (or the sum of the state revisions of the matches a page shows):
    the results version (read with ``tournament``, or given) above it, both read before the
    page's data."""
    if results_version is None:
        assert tournament is not None
        results_version = tournament.results_version
    return (results_version << REVISION_BITS) + revision


def _states(matches: QuerySet[Match]) -> int:
    return matches.aggregate(total=Sum("state_revision"))["total"] or 0


def _states_of(matches: QuerySet[Match]) -> Coalesce:
    """The sum of ``matches``' state revisions, read with their tournament's row."""
    return Coalesce(Subquery(
        matches.order_by().values("table__session__tournament")
        .annotate(total=Sum("state_revision")).values("total")[:1]), 0)


def _session_matches(tournament: Tournament | OuterRef, number: int) -> QuerySet[Match]:
    return Match.objects.filter(table__session__tournament=tournament,
                                table__session__number=number)


def _player_matches(tournament: Tournament | OuterRef, player_id: int) -> QuerySet[Match]:
    return Match.objects.filter(table__session__tournament=tournament,
                                table__seats__player_id=player_id)


def _version_over(tournament: Tournament, matches: QuerySet[Match]) -> int:
    """The tournament's results version above the sum of ``matches``' state revisions, as
    read with the tournament (``match_states``), else in one indexed query."""
    states = getattr(tournament, "match_states", None)
    if states is None:
        states = _states(matches)
    return page_version(tournament=tournament, revision=states)


def tournaments_with_session_states(number: int) -> QuerySet[Tournament]:
    """The tournaments, each read with the state revisions of its session ``number``'s
    matches (``match_states``): a poll of the session's page is answered 304 after one
    read."""
    return Tournament.objects.annotate(
        match_states=_states_of(_session_matches(OuterRef("pk"), number)))


def tournaments_with_player_states(player_id: int) -> QuerySet[Tournament]:
    """The tournaments, each read with the state revisions of the matches the player sits
    at (``match_states``)."""
    return Tournament.objects.annotate(
        match_states=_states_of(_player_matches(OuterRef("pk"), player_id)))


#: The tournament of a slug read with its session ``number``'s state revisions
#: (:func:`tournaments_with_session_states`), or None: one query compiled once per process
#: (a session's page made again reads it first).
tournament_with_session_states = PreparedChain(
    Tournament, (), lambda *, slug, number: tournaments_with_session_states(number).filter(
        slug=slug), annotations=("match_states",), slug=str, number=int)
#: The tournament of a slug read with the state revisions of player ``player_id``'s matches
#: (:func:`tournaments_with_player_states`), or None: as above, for a player's page.
tournament_with_player_states = PreparedChain(
    Tournament, (), lambda *, slug, player_id: tournaments_with_player_states(
        player_id).filter(slug=slug), annotations=("match_states",), slug=str, player_id=int)


def session_version(*, tournament: Tournament, number: int) -> int:
    """The version of the public's page of the tournament's session ``number``: its results
    version above the sum of its matches' state revisions (read with the tournament by
    :func:`tournaments_with_session_states`, else one indexed query)."""
    return _version_over(tournament, _session_matches(tournament, number))


def player_version(*, tournament: Tournament, player_id: int) -> int:
    """The version of a player's page in the tournament: its results version above the sum
    of the state revisions of the matches they sit at (read with the tournament by
    :func:`tournaments_with_player_states`, else one indexed query)."""
    return _version_over(tournament, _player_matches(tournament, player_id))


# -- a page's version before its tournament is loaded ---------------------------------------


@dataclass(frozen=True)
class ReadVersion:
    """A page's version as :class:`VersionRead` reads it, with what decides whether it may
    be answered from it: the tournament's id (the page's key) and whether it is public."""

    tournament_id: int
    is_public: bool
    version: int


class VersionRead:
    """A public page's version read by its tournament's slug and the address's arguments, in
    one query compiled once per process (:class:`~tournament.kit.prepared.PreparedRead`):
    what a poll reads before anything else, and all that a 304 reads (``CachedPageMixin``).
    ``part(tournament, *arguments)`` is what the page shows beside the results version (a sum
    of state revisions, a match's revision), read with the tournament's row; None there: no
    such page of the tournament."""

    def __init__(self, part: Callable[..., Any] | None = None, **kinds: type):
        self.part = part
        self.read = PreparedRead(self.build, slug=str, **kinds)

    def build(self, *, slug: str, **arguments: int) -> QuerySet[Tournament, tuple[int, ...]]:
        tournaments = Tournament.objects.filter(slug=slug).order_by()
        if self.part is not None:
            tournaments = tournaments.annotate(
                shown=self.part(OuterRef("pk"), *arguments.values()))
            return tournaments.values_list("pk", "is_public", "results_version", "shown")
        return tournaments.values_list("pk", "is_public", "results_version")

    def __call__(self, *, slug: str, **arguments: int | str) -> ReadVersion | None:
        """The page's version, or None when there is no such tournament (or page)."""
        row = self.read(slug=slug, **arguments)
        if row is None:
            return None
        pk, is_public, results_version, *shown = row
        if shown and shown[0] is None:
            return None
        return ReadVersion(tournament_id=pk, is_public=bool(is_public),
                           version=page_version(results_version=results_version,
                                                revision=int(shown[0]) if shown else 0))


def _match_revision(tournament: OuterRef, match_id: int) -> Subquery:
    return Subquery(Match.objects.filter(pk=match_id, table__session__tournament=tournament)
                    .order_by().values("revision")[:1])


#: The version of a page that shows the results alone (the standings): ``page_version``.
results_version_read = VersionRead()
#: ``session_version`` of the session ``number``.
session_version_read = VersionRead(
    lambda tournament, number: _states_of(_session_matches(tournament, number)), number=int)
#: ``player_version`` of the player ``player_id``.
player_version_read = VersionRead(
    lambda tournament, player: _states_of(_player_matches(tournament, player)), player_id=int)
#: ``page_version`` of a match's page: the results and the match's revision.
match_version_read = VersionRead(_match_revision, match_id=int)
