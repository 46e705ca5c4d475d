"""The rating history in the database (docs/guides/ratings.md).

Ratings are derived data: the confirmed matches of rated public tournaments, in the order they
were played (the tournament's start date, the session's number, then the first confirmation,
``Match.confirmed_at``, and the match's id within a session: ``HistoryPoint``), give every
:class:`~tournament.models.RatingChange` and every :class:`~tournament.models.PlayerRating`.
:func:`ratings_refresh` deletes the changes from a point of that history on and writes them
again from the players' ratings just before it; the matches before the point are left as
they are. Confirming a match refreshes from that match, which is usually the last one, so
the cost is one match (a result typed in late refreshes from its place, rating every later
match again); correcting a confirmed match refreshes from it, so every later match
is rated again. Since each refresh starts from the same prefix the full rebuild would have
reached, the same history always gives the same ratings, whatever the order in which the
refreshes ran: ``python manage.py ratings_rebuild`` (:func:`ratings_rebuild`) must find
nothing to change, and a test holds it to that.

Writes at once: every write that moves the ratings holds the ratings' turn
(:data:`RATINGS_TURN`) from before it reads what they depend on to its commit, so that these
writes run one after the other, each reading what the previous one committed; none waits for
the turn while holding a row lock (:func:`ratings_write` waits for it first,
:func:`ratings_turn` takes it only when free). docs/development/architecture.md, "The lock order".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TypeVar

from django.db.models import Count, OuterRef, Q, Subquery

from tournament.kit.transactions import retried_whole, turn_take
from tournament.models import Match, PlayerRating, RatingChange, Seat, Tournament
from tournament.ratings.model import INITIAL, Skill, ranks_of, rate, shown_change

T = TypeVar("T")

#: The ratings' turn: the key of the PostgreSQL advisory lock that every write moving the
#: ratings holds from before it reads what they depend on to its commit, so that these writes
#: run one after the other (docs/development/architecture.md, "The lock order").
RATINGS_TURN = 0x7472696F  # "trio"


#: The history's key on a match: its tournament's start date, its session's number, its
#: confirmation, its id (the order the matches were played; within a session, confirmed).
MATCH_KEY = ("table__session__tournament__start_date", "table__session__number",
             "confirmed_at", "id")
#: The same key on a rating change.
CHANGE_KEY = ("played_on", "session", "at", "match_id")


@dataclass(frozen=True, order=True)
class HistoryPoint:
    """A place in the rating history, which follows the order the matches were played: the
    tournament's start date, the session's number, then the confirmation and the match's id
    within a session. The point holds the matches from this key on."""

    played_on: date
    session: int
    at: datetime
    match_id: int

    @classmethod
    def of(cls, match: Match) -> HistoryPoint:
        session = match.table.session
        return cls(session.tournament.start_date, session.number, match.confirmed_at, match.pk)

    @classmethod
    def first_of(cls, matches) -> HistoryPoint | None:
        """The place of the earliest confirmed of ``matches`` (a queryset), None without one."""
        first = (
            matches.filter(confirmed_at__isnull=False)
            .order_by(*MATCH_KEY)
            .values_list(*MATCH_KEY)
            .first()
        )
        return None if first is None else cls(*first)

    @classmethod
    def on(cls, day: date) -> HistoryPoint:
        """The place of the first match of a tournament starting on ``day``."""
        return cls(day, 0, datetime.min.replace(tzinfo=UTC), 0)

    def later(self, fields: tuple[str, ...] = CHANGE_KEY) -> Q:
        """The rows at this point or after it, for a queryset whose key fields are ``fields``
        (``CHANGE_KEY`` for rating changes, ``MATCH_KEY`` for matches): a lexicographic
        comparison, written as a range on the first field first so that the database reads
        an index from the point on."""
        values = (self.played_on, self.session, self.at, self.match_id)
        condition = Q(**{f"{fields[-1]}__gte": values[-1]})
        for field, value in zip(reversed(fields[:-1]), reversed(values[:-1])):
            condition = Q(**{f"{field}__gt": value}) | (Q(**{field: value}) & condition)
        return Q(**{f"{fields[0]}__gte": values[0]}) & condition


def rated_matches():
    """The matches that count: confirmed, in a tournament that counts for ratings (rated and
    public: ``Tournament.counts_for_ratings``)."""
    return Match.objects.filter(
        status=Match.Status.CONFIRMED,
        confirmed_at__isnull=False,
        table__session__tournament__is_rated=True,
        table__session__tournament__is_public=True,
    )


def ratings_turn() -> None:
    """Hold the ratings' turn to the end of the transaction, without waiting for it
    (:func:`tournament.kit.transactions.turn_take`): a write calls it before it reads what
    the ratings depend on. When another write holds it, ``TurnBusy``: the write rolls back
    and is run again whole with the turn taken first, by the ``retried_whole`` it runs in
    (:func:`ratings_write`, or a match service)."""
    turn_take(RATINGS_TURN)


def ratings_write(write: Callable[[], T]) -> T:
    """``write()``, a write that moves the ratings, run whole in a transaction of its own whose
    first statement waits for the ratings' turn (``retried_whole``; inside a caller's
    transaction, the turn is taken without waiting, or ``TurnBusy`` goes up to the caller)."""
    return retried_whole(write, turns=(RATINGS_TURN,))


def match_written(match: Match, *, was_confirmed: bool, totals_before: list[int]) -> None:
    """After a write to ``match`` (``match_write``): refresh the ratings from it when the write
    changed what it gives them, that is when it was or now is confirmed and its confirmation
    or its totals changed. The match's place is read again once the ratings' turn is held
    (its tournament's start date may have moved meanwhile)."""
    confirmed = match.status == Match.Status.CONFIRMED
    if not (was_confirmed or confirmed) or match.confirmed_at is None:
        return
    if was_confirmed and confirmed and totals_before == list(match.totals):
        return
    ratings_turn()
    ratings_refresh(since=HistoryPoint.first_of(Match.objects.filter(pk=match.pk)))


def ratings_tournament_moved(tournament: Tournament, *, start_date_before: date) -> int:
    """After the tournament's start date changed: its matches move in the history (which
    follows the order the matches were played), so the ratings are refreshed from the earlier
    of the two dates. Returns the number of changes written (0 when it does not count)."""
    if not tournament.counts_for_ratings or tournament.start_date == start_date_before:
        return 0
    ratings_turn()
    return ratings_refresh(since=HistoryPoint.on(min(start_date_before, tournament.start_date)))


def ratings_tournament_rated_changed(tournament: Tournament) -> int:
    """After ``tournament.counts_for_ratings`` changed (``is_rated``, or ``is_public``): refresh
    the ratings from the tournament's first
    confirmed match on (its matches now count, or no longer do; every later match of every
    tournament is rated again). Returns the number of changes written (0 when the
    tournament has no confirmed match)."""
    ratings_turn()
    first = HistoryPoint.first_of(Match.objects.filter(
        table__session__tournament=tournament, status=Match.Status.CONFIRMED
    ))
    return 0 if first is None else ratings_refresh(since=first)


def ratings_rebuild() -> int:
    """Every rating written again from the whole history; returns the number of changes."""
    return ratings_refresh(since=None)


def ratings_refresh(*, since: HistoryPoint | None) -> int:
    """Write the rating changes again from ``since`` on (the whole history when None), then
    the current rating of every player whose changes moved. Returns the number of changes
    written. Refreshes take turns: the ratings' turn (an advisory lock on PostgreSQL; SQLite
    has one writer), waited for first in a transaction of its own, or taken without waiting
    inside a caller's (:func:`ratings_write`); ``since`` was read under it."""
    return ratings_write(lambda: _refresh(since))


def _refresh(since: HistoryPoint | None) -> int:
    stale = RatingChange.objects.all() if since is None else RatingChange.objects.filter(
        since.later()
    )
    touched = set(stale.order_by().values_list("player_id", flat=True).distinct())
    stale.delete()

    matches = rated_matches()
    if since is not None:
        matches = matches.filter(since.later(MATCH_KEY))
    seated = _players_by_match(matches)
    matches = list(
        matches.order_by(*MATCH_KEY).values_list(
            "id", "confirmed_at", "totals", "table__session__tournament_id",
            "table__session__tournament__start_date", "table__session__number",
        )
    )
    players = {player_id for seats in seated.values() for player_id in seats}
    skills, shown = _skills_before(players, since)

    changes: list[RatingChange] = []
    for match_id, at, totals, tournament_id, played_on, session in matches:
        seats = seated.get(match_id, [])
        if len(seats) < 2 or len(seats) != len(totals):
            continue
        before = [skills.get(player_id, INITIAL) for player_id in seats]
        after = rate(before, totals)
        ranks = ranks_of(totals)
        for player_id, rank, old, new in zip(seats, ranks, before, after):
            skills[player_id] = new
            shown_before = shown.get(player_id, INITIAL.conservative)
            shown[player_id] = shown_before + shown_change(old, new, rank=rank, ranks=ranks)
            changes.append(RatingChange(
                player_id=player_id, match_id=match_id, tournament_id=tournament_id,
                played_on=played_on, session=session, at=at, rank=rank, mu_before=old.mu, sigma_before=old.sigma, mu=new.mu, sigma=new.sigma,
                shown_before=shown_before, shown=shown[player_id],
            ))
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    _current_ratings_write(touched | players)
    return len(changes)


def _players_by_match(matches) -> dict[int, list[int]]:
    """{match id: the players' ids in seat order} for a queryset of matches."""
    seated: dict[int, list[int]] = defaultdict(list)
    rows = (
        Seat.objects.filter(table__match__in=matches.values("pk"))
        .order_by("table__match", "order")
        .values_list("table__match", "player_id")
    )
    for match_id, player_id in rows:
        seated[match_id].append(player_id)
    return seated


def _skills_before(
    players: set[int], since: HistoryPoint | None
) -> tuple[dict[int, Skill], dict[int, float]]:
    """Each player's skill and rating shown after their last change before ``since`` (none
    before the whole history)."""
    if since is None or not players:
        return {}, {}
    earlier = RatingChange.objects.filter(player=OuterRef("player_id")).exclude(since.later())
    last = earlier.order_by(*[f"-{field}" for field in CHANGE_KEY]).values("pk")[:1]
    rows = (
        RatingChange.objects.filter(player_id__in=players, pk=Subquery(last))
        .values_list("player_id", "mu", "sigma", "shown")
    )
    skills, shown = {}, {}
    for player_id, mu, sigma, rating in rows:
        skills[player_id], shown[player_id] = Skill(mu, sigma), rating
    return skills, shown


def _current_ratings_write(players: set[int]) -> None:
    """Each player's :class:`PlayerRating` from their changes: the last one, their number,
    and the change over the last event (from before their first change in the tournament of
    their last one). Three reads whatever the number of players, none of which brings a
    player's whole history back: a confirmation costs the same in a long career."""
    if not players:
        return
    mine = RatingChange.objects.filter(player=OuterRef("player_id"))
    last = mine.order_by(*[f"-{field}" for field in CHANGE_KEY]).values("pk")[:1]
    event_start = mine.filter(tournament=OuterRef("tournament_id")).order_by(*CHANGE_KEY)
    rows = (
        RatingChange.objects.filter(player_id__in=players, pk=Subquery(last))
        .annotate(
            event_shown=Subquery(event_start.values("shown_before")[:1]),
        )
        .values_list("player_id", "tournament_id", "mu", "sigma", "shown", "event_shown")
    )
    counts = dict(
        RatingChange.objects.filter(player_id__in=players)
        .order_by()
        .values("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
    )
    ratings = []
    for player_id, tournament_id, mu, sigma, shown, event_shown in rows:
        ratings.append(PlayerRating(
            player_id=player_id, mu=mu, sigma=sigma, conservative=shown,
            matches=counts[player_id], last_tournament_id=tournament_id,
            last_event_change=shown - event_shown,
        ))
    PlayerRating.objects.filter(player_id__in=players).delete()
    PlayerRating.objects.bulk_create(ratings, batch_size=2000)
