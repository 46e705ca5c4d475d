"""A match's rows and its record.

The current versions of a match's Turn and RoundEnd rows ARE the match:

- :func:`match_rows` loads the current rows (3 queries), as a :class:`MatchRows` that a write
  changes in memory before it asks for the replay;
- :func:`record_from_rows` builds the engine's match record (docs/reference/record-format.md) from them:
  the one place a record is made from rows, used by the replay
  (:mod:`tournament.matches.reading.replay`), ``record.json``, the PDFs and every write;
- :func:`match_record` is ``record_from_rows(match_rows(match=...))``, for a caller that wants
  the record only (the match report, the download).

Turn by turn, rows and engine records convert in
:mod:`tournament.matches.reading.row_conversion`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, FilteredRelation, Max, OuterRef, Q, QuerySet, Subquery

from tournament import engine
from tournament.kit.prepared import LARGEST_INTEGER, PreparedChain, PreparedRead
from tournament.matches.reading.row_conversion import round_end_racks, turn_record
from tournament.models import Match, Round, RoundEnd, Seat, Turn


@dataclass
class MatchRows:
    """The current rows of a match, in order; services change them in memory before a replay."""

    match: Match
    seats: list[Seat]
    rounds: list[Round]
    #: Round pk -> its current turns, by index.
    turns: dict[int, list[Turn]]
    #: Round pk -> its current end (racks shown), for the rounds closed.
    ends: dict[int, RoundEnd]
    #: The settled rounds whose turns were not loaded (``match_rows`` with
    #: ``settled_stored``), pk -> how many turns they have: ``turns`` has no entry for them,
    #: and their record is not known.
    unloaded: dict[int, int] = field(default_factory=dict)
    #: The closed rounds count as settled though not confirmed (``match_rows`` with
    #: ``closed_stored``): the public's live part, which shows none of their turns.
    closed_stored: bool = False

    @property
    def names(self) -> list[str]:
        """The players' names in seat order."""
        return [seat.player.name for seat in self.seats]

    def round_turns(self, round_: Round) -> list[Turn]:
        return self.turns.setdefault(round_.pk, [])

    def before(self, round_: Round, position: int) -> MatchRows:
        """The rows as they stood before turn ``position`` (from 0) of ``round_`` was played:
        the rounds before it whole, its first ``position`` turns, no end (new lists and dicts,
        the same row objects)."""
        if round_.pk in self.unloaded:
            raise ValueError(f"the turns of round {round_.index + 1} were not loaded")
        rounds = [r for r in self.rounds if r.index <= round_.index]
        turns = {**self.turns, round_.pk: self.turns.get(round_.pk, [])[:position]}
        ends = {r.pk: self.ends[r.pk] for r in rounds if r.pk in self.ends and r.pk != round_.pk}
        unloaded = {pk: n for pk, n in self.unloaded.items() if pk in ends}
        return MatchRows(match=self.match, seats=self.seats, rounds=rounds, turns=turns, ends=ends,
                         unloaded=unloaded, closed_stored=self.closed_stored)

    def recorded_rounds(self) -> list[Round]:
        """The rounds the record holds: all but a last round that has neither turns nor end
        (a round begun then emptied by an undo)."""
        rounds = self.rounds
        if rounds and not self.turns.get(rounds[-1].pk) and rounds[-1].pk not in self.ends:
            return rounds[:-1]
        return rounds


def match_with_tournament(match_id: int) -> QuerySet[Match]:
    """The match with its table, session and tournament loaded (one query)."""
    return Match.objects.filter(pk=match_id).select_related("table__session__tournament")


_addressed = PreparedChain(
    Match, ("table", "session", "tournament"),
    lambda *, match_id, slug: Match.objects.filter(
        pk=match_id, table__session__tournament__slug=slug),
    match_id=int, slug=str)


def match_by_address(*, slug: str, match_id: int) -> Match | None:
    """The match ``match_id`` of the tournament ``slug``, with its table, session and
    tournament (as :func:`match_with_tournament`), or None: one query, compiled once per
    process (every request of a match reads it first)."""
    if not 0 < match_id <= LARGEST_INTEGER:
        return None
    return _addressed(match_id=match_id, slug=slug)


#: The three reads of :func:`match_rows`, each compiled once per process: the seats with
#: their players; the rounds with their current ends (and, for rows whose settled rounds are
#: not loaded, their current turns' count and greatest id); the current turns of the rounds
#: loaded, by their indexes (a round another write adds between the two reads is not one of
#: them: its turns are left out, as the round is).
_seats = PreparedChain(
    Seat, ("player",),
    lambda *, table_id: Seat.objects.filter(table_id=table_id).order_by("order"),
    ordered=True, table_id=int)
_ROUND_COLUMNS = [field.attname for field in Round._meta.concrete_fields]
_END_COLUMNS = [field.attname for field in RoundEnd._meta.concrete_fields]
_END_ROUND = RoundEnd._meta.get_field("round")


def _rounds_query(*, match_id: int, counted: bool) -> QuerySet:
    query = (
        Round.objects.filter(match_id=match_id)
        .annotate(current_end=FilteredRelation(
            "ends", condition=Q(ends__superseded_at__isnull=True)))
        .order_by("index"))
    counts: tuple[str, ...] = ()
    if counted:
        current = Turn.objects.current().filter(round=OuterRef("pk")).order_by().values("round")
        query = query.annotate(
            current_turns=Subquery(current.annotate(n=Count("pk")).values("n")),
            last_turn=Subquery(current.annotate(n=Max("pk")).values("n")))
        counts = ("current_turns", "last_turn")
    return query.values_list(
        *_ROUND_COLUMNS, *(f"current_end__{column}" for column in _END_COLUMNS), *counts)


_rounds = {counted: PreparedRead(
    lambda *, match_id, counted=counted: _rounds_query(match_id=match_id, counted=counted),
    match_id=int) for counted in (False, True)}
_turns = PreparedChain(
    Turn, (),
    lambda *, match_id, first_index, last_index: Turn.objects.current().filter(
        round__match_id=match_id, round__index__gte=first_index, round__index__lte=last_index,
    ).order_by("round_id", "index"),
    ordered=True, match_id=int, first_index=int, last_index=int)


def _match_rounds(match_id: int, *, counted: bool) -> list[Round]:
    """The match's rounds in order, each with its current end as ``current_end`` (no such
    attribute when it has none), and with ``counted`` its ``current_turns`` and ``last_turn``,
    as ``select_related`` and ``annotate`` would give them."""
    rounds = []
    ends_from = len(_ROUND_COLUMNS)
    counts_from = ends_from + len(_END_COLUMNS)
    for row in _rounds[counted].all(match_id=match_id):
        round_ = Round.from_db("default", _ROUND_COLUMNS, row[:ends_from])
        if row[ends_from] is not None:  # the end's id: the join found one
            end = RoundEnd.from_db("default", _END_COLUMNS, row[ends_from:counts_from])
            _END_ROUND.set_cached_value(end, round_)
            round_.current_end = end
        if counted:
            round_.current_turns, round_.last_turn = row[counts_from:]
        rounds.append(round_)
    return rounds


def match_rows(*, match: Match, settled_stored: bool = False,
               closed_stored: bool = False) -> MatchRows:
    """The current rows of ``match``: seats with players, rounds, current turns and ends.

    Three queries, each compiled once per process (the match's table, session and
    tournament should come loaded, see :func:`match_with_tournament`): the seats, the rounds
    with their current ends, the current turns. With ``settled_stored``, the turns of the
    leading settled rounds (:func:`settled_rounds`) are not loaded but counted with the rounds
    (:attr:`MatchRows.unloaded`): a replay of these rows starts from their stored scores.
    With ``closed_stored`` as well, the leading closed rounds count as settled though not
    confirmed (:attr:`MatchRows.closed_stored`): every write stores the scores of every round
    it replays, so a closed round's stored scores are its replay's; for a reader that shows
    none of their turns (the public's live part), whose cost is then the round in play's
    whatever the match's length; the last recorded round's turns are loaded even when it
    is closed (the live part and the page replay it). Each round loaded so also carries its current turns' count
    and greatest id (``current_turns``, ``last_turn``: what ``settled_log_key`` reads of the
    turns not loaded).
    """
    settled_stored = settled_stored or closed_stored
    seats = _seats.all(table_id=match.table_id)
    rounds = _match_rounds(match.pk, counted=settled_stored)
    # a round without a current end has no ``current_end`` (the join found none)
    ends = {round_.pk: end for round_ in rounds
            if (end := getattr(round_, "current_end", None)) is not None}
    rows = MatchRows(match=match, seats=seats, rounds=rounds, turns={}, ends=ends,
                     closed_stored=closed_stored)
    settled = settled_rounds(rows) if settled_stored else []
    if closed_stored and settled and not any(
            round_.current_turns or round_.pk in ends for round_ in rounds[len(settled):]):
        # the last recorded round is replayed (the round in play's place): its turns loaded
        settled.pop()
    rows.unloaded = {round_.pk: round_.current_turns or 0 for round_ in settled}
    loaded = rounds[len(settled):]  # the settled rounds lead: the others are these
    turns: dict[int, list[Turn]] = {round_.pk: [] for round_ in loaded}
    if loaded:
        for turn in _turns.all(match_id=match.pk, first_index=loaded[0].index,
                               last_index=loaded[-1].index):
            turns[turn.round_id].append(turn)
    rows.turns = turns
    return rows


def settled_rounds(rows: MatchRows) -> list[Round]:
    """The leading rounds of ``rows`` that are settled and stored: closed (racks shown),
    confirmed (or not, for rows loaded with ``closed_stored``), and their scores stored for
    every seat. A write to the round in play leaves
    them as they are; their stored scores are what a replay of them gives (a change to a
    round un-confirms it, and every write stores the replay's figures)."""
    settled = []
    seats = len(rows.seats)
    for round_ in rows.rounds:
        scores = round_.scores
        if (round_.pk not in rows.ends
                or (round_.confirmed_at is None and not rows.closed_stored)
                or round_.end_kind == "unfinished" or not isinstance(scores, list)
                or len(scores) != seats or not all(type(s) is int for s in scores)):
            break
        settled.append(round_)
    return settled


def record_from_rows(rows: MatchRows) -> engine.MatchRecord:
    """The match record (docs/reference/record-format.md, with the referee's decisions) of these rows.

    The one function that makes a record from rows: the replay, the download, the printed
    sheet and every write use it. Rows whose settled rounds were not loaded
    (:attr:`MatchRows.unloaded`) have no record: ValueError.
    """
    if rows.unloaded:
        raise ValueError("the turns of the settled rounds were not loaded: no record")
    return partial_record(rows)


def partial_record(rows: MatchRows) -> engine.MatchRecord:
    """:func:`record_from_rows`, the settled rounds not loaded left without turns (for the
    replay, which does not play them)."""
    tournament = rows.match.table.session.tournament
    rounds = []
    for round_ in rows.recorded_rounds():
        end = rows.ends.get(round_.pk)
        rounds.append(
            engine.RoundRecord(
                turns=tuple(turn_record(turn) for turn in rows.turns.get(round_.pk, ())),
                racks=round_end_racks(end),
                settlement_claimed=(
                    tuple(end.settlement_claimed)
                    if end is not None and end.settlement_claimed is not None
                    else None
                ),
                settlement_decision=(end.decision or None) if end is not None else None,
                settlement_reason=(end.decision_reason or None) if end is not None else None,
            )
        )
    return engine.MatchRecord(
        players=tuple(rows.names),
        rounds=tuple(rounds),
        rules_name=tournament.rules,
        target=tournament.target,
        **engine.record_options(tournament=tournament, match=rows.match),
    )


def match_record(*, match: Match) -> engine.MatchRecord:
    """The record of ``match`` from its current rows (``.to_dict()``/``.to_json()`` for JSON)."""
    return record_from_rows(match_rows(match=match))
