"""The confirmed matches, replayed from their records, and a tournament's players: plain values
for :mod:`tournament.figures.recount` and :mod:`tournament.figures.rerate`.

A match's totals are not read from the match (``Match.totals`` is what the app stored after
its own replay): the current turns and round ends are made into the engine's record again
(docs/reference/record-format.md) and replayed, and the totals are the replay's.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import zip_longest

from tournament import engine
from tournament.models import (
    AuditEntry,
    Category,
    League,
    Match,
    Registration,
    Round,
    RoundEnd,
    Seat,
    Tournament,
    Turn,
)


@dataclass(frozen=True)
class PlayedMatch:
    """A confirmed match: its players' ids in seat order and the totals its record gives."""

    id: int
    tournament_id: int
    session: int
    is_final: bool
    confirmed_at: datetime | None
    played_on: date
    players: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Entrant:
    """A registered player: withdrawn or not, from which session on (None: the first)."""

    id: int
    name: str
    club: str
    withdrawn: bool
    first_session: int | None
    merged: bool = False


@dataclass
class TournamentRecords:
    """What a tournament's figures are recounted from."""

    tournament: Tournament
    entrants: list[Entrant]
    matches: list[PlayedMatch]
    #: The seated sessions that are not the final: number -> the players with a seat.
    seated: dict[int, set[int]] = field(default_factory=dict)
    #: The final's session: None without one; its matches all confirmed or not.
    final_session: int | None = None
    final_confirmed: bool = False
    #: The final's players (seated), whatever its matches' state.
    finalists: set[int] = field(default_factory=set)
    #: Category name -> its players' ids.
    categories: dict[str, set[int]] = field(default_factory=dict)


def _turn_record(turn: Turn) -> engine.TurnRecord:
    """A turn as the record holds it: its cell and corners in board mode (the tile name only
    when it says another tile than the corners), else its tile name."""
    place = None
    corners = tuple(int(value) for value in turn.corners.split("-")) if turn.corners else None
    if turn.cell_x is not None and corners is not None:
        shown = engine.tile_from_corners(corners)
        tile = turn.tile if turn.tile and (shown is None or str(shown) != turn.tile) else None
        place = engine.PlaceRecord(
            tile=tile, cell=engine.Cell(turn.cell_x, turn.cell_y, turn.cell_orientation),
            corners=corners)
    elif turn.tile:
        place = engine.PlaceRecord(tile=turn.tile)
    return engine.TurnRecord(
        player=turn.player, draws=turn.draws, place=place, claimed=turn.points_claimed,
        bonus=engine.Bonus(turn.bonus_claimed) if turn.bonus_claimed else None,
        decision=turn.decision or None, reason=turn.decision_reason or None,
    )


def replayed_totals(match: Match, *, tournament: Tournament, names: list[str]) -> tuple[int, ...]:
    """The totals of ``match`` from its current turns and round ends, replayed by the engine."""
    rounds = list(Round.objects.filter(match=match).order_by("index"))
    turns: dict[int, list[Turn]] = defaultdict(list)
    for turn in Turn.objects.current().filter(round__match=match).order_by("round_id", "index"):
        turns[turn.round_id].append(turn)
    ends = {end.round_id: end for end in RoundEnd.objects.current().filter(round__match=match)}
    if rounds and not turns.get(rounds[-1].pk) and rounds[-1].pk not in ends:
        rounds = rounds[:-1]  # a round begun, then emptied by an undo
    records = []
    for round_ in rounds:
        end = ends.get(round_.pk)
        racks = None
        if end is not None and end.racks:
            racks = tuple(rack if isinstance(rack, int) else tuple(rack) for rack in end.racks)
        records.append(engine.RoundRecord(
            turns=tuple(_turn_record(turn) for turn in turns.get(round_.pk, ())),
            racks=racks,
            settlement_claimed=(tuple(end.settlement_claimed)
                                if end is not None and end.settlement_claimed is not None
                                else None),
            settlement_decision=(end.decision or None) if end is not None else None,
            settlement_reason=(end.decision_reason or None) if end is not None else None,
        ))
    options = {"opening_bonus": tournament.opening_bonus, "round_limit": tournament.match_rounds}
    if match.time_up_round is not None:
        options["time_up"] = match.time_up_round
    record = engine.MatchRecord(players=tuple(names), rounds=tuple(records),
                                rules_name=tournament.rules, target=tournament.target, **options)
    open_last = bool(rounds) and rounds[-1].pk not in ends
    replay = engine.replay_record(record, leave_last_round_open=open_last)
    return tuple(replay.totals)


def confirmed_matches(tournaments: Iterable[Tournament]) -> list[PlayedMatch]:
    """Every confirmed match of ``tournaments``, replayed (one replay a match)."""
    by_id = {tournament.pk: tournament for tournament in tournaments}
    matches = (Match.objects.filter(table__session__tournament_id__in=by_id,
                                    status=Match.Status.CONFIRMED)
               .select_related("table__session").order_by("pk"))
    seats: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for table_id, order, player_id, name in Seat.objects.filter(
            session__tournament_id__in=by_id).values_list(
            "table_id", "order", "player_id", "player__name"):
        seats[table_id].append((order, player_id, name))
    played = []
    for match in matches:
        session = match.table.session
        tournament = by_id[session.tournament_id]
        seated = sorted(seats[match.table_id])
        totals = replayed_totals(match, tournament=tournament,
                                 names=[name for _order, _player, name in seated])
        played.append(PlayedMatch(
            id=match.pk, tournament_id=tournament.pk, session=session.number,
            is_final=session.is_final, confirmed_at=match.confirmed_at,
            played_on=tournament.start_date,
            players=tuple(player for _order, player, _name in seated), totals=totals,
        ))
    return played


def tournament_records(tournament: Tournament,
                       matches: list[PlayedMatch] | None = None) -> TournamentRecords:
    """The tournament's entrants, confirmed matches (replayed unless given), seated sessions,
    final and categories."""
    entrants = [
        Entrant(id=player_id, name=name, club=club,
                withdrawn=status == Registration.Status.WITHDRAWN, first_session=first,
                merged=merged is not None)
        for player_id, name, club, status, first, merged in tournament.registrations.order_by(
            "pk").values_list("player_id", "player__name", "player__club", "status",
                              "first_session", "player__merged_into")
    ]
    if matches is None:
        matches = confirmed_matches([tournament])
    records = TournamentRecords(tournament=tournament, entrants=entrants,
                                matches=[m for m in matches if m.tournament_id == tournament.pk])
    for number, is_final, player_id in Seat.objects.filter(
            session__tournament=tournament).values_list(
            "session__number", "session__is_final", "player_id"):
        if is_final:
            records.finalists.add(player_id)
        else:
            records.seated.setdefault(number, set()).add(player_id)
    final = tournament.sessions.filter(is_final=True).first()
    if final is not None:
        records.final_session = final.number
        states = list(Match.objects.filter(table__session=final).values_list("status", flat=True))
        records.final_confirmed = bool(states) and all(
            state == Match.Status.CONFIRMED for state in states)
    for name, player_id in Category.objects.filter(tournament=tournament).values_list(
            "name", "registrations__player_id"):
        members = records.categories.setdefault(name, set())
        if player_id is not None:
            members.add(player_id)
    return records


def rated_tournaments() -> list[Tournament]:
    """The tournaments whose matches count for ratings: rated and public (docs/guides/ratings.md)."""
    return list(Tournament.objects.filter(is_rated=True, is_public=True))


def league_tournaments(league: League) -> list[Tournament]:
    """The league's public tournaments, earliest first: what its public face ranks."""
    return list(league.tournaments.filter(is_public=True).order_by("start_date", "pk"))



@dataclass(frozen=True)
class MatchState:
    """A match as the versions of the pages that show its state read it: its session, its
    players, the revision its state last moved at (``Match.state_revision``) and its
    revision."""

    session: int
    players: tuple[int, ...]
    state_revision: int
    revision: int


def match_states(tournament: Tournament) -> tuple[int, list[MatchState]]:
    """The tournament's results version, read again, and each of its matches' states."""
    results_version = Tournament.objects.values_list("results_version", flat=True).get(
        pk=tournament.pk)
    players: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in Seat.objects.filter(session__tournament=tournament).values_list(
            "table_id", "player_id"):
        players[table_id].append(player_id)
    states = [
        MatchState(session, tuple(players[table_id]), state_revision, revision)
        for table_id, session, state_revision, revision in Match.objects.filter(
            table__session__tournament=tournament).values_list(
            "table_id", "table__session__number", "state_revision", "revision")
    ]
    return results_version, states


def signing_recount(tournament: Tournament) -> dict[tuple[int, int], tuple[int, int, bool]]:
    """For each table of the tournament's sessions entered by the tables whose match has a
    round closed and not confirmed, ``(session, table)``: its first such round's index, how
    many seats said their word on it as it stands, and whether one of them disputes it.

    Counted from the audit log (every seat's word is an entry naming its round, seat, the
    first 12 characters of the digest it read and whether it agreed), not from the
    signatures' rows; "as it stands" is the digest of the round's current rows, made here from
    what a seat signs (docs/guides/organiser.md, "Every seat signs"): the round, its current
    turns and end, its scores and the match's totals after it (its scores added to those of
    the rounds before it, read here: not ``Match.totals``, which has the round in play's)."""
    counted: dict[tuple[int, int], tuple[int, int, bool]] = {}
    rounds = (Round.objects.filter(match__table__session__tournament=tournament,
                                   confirmed_at__isnull=True)
              .exclude(end_kind="unfinished")
              .select_related("match__table__session__tournament")
              .order_by("match__table__session__number", "match__table__number", "index"))
    for round_ in rounds:
        table = round_.match.table
        key = (table.session.number, table.number)
        if key in counted or not table.session.entry_by_tables:
            continue
        end = RoundEnd.objects.current().filter(round=round_).values_list("pk", flat=True).first()
        if end is None:
            continue
        turns = ",".join(str(pk) for pk in Turn.objects.current().filter(round=round_)
                         .order_by("index").values_list("pk", flat=True))
        through = Round.objects.filter(match_id=round_.match_id, index__lte=round_.index)
        totals = [sum(seat) for seat in zip_longest(
            *through.values_list("scores", flat=True), fillvalue=0)]
        text = f"{round_.pk}|{turns}|{end}|{list(round_.scores)}|{totals}"
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        words: dict[int, bool] = {}
        for details in (AuditEntry.objects.filter(
                match_id=round_.match_id,
                action__in=(AuditEntry.Action.ROUND_SIGNED, AuditEntry.Action.ROUND_DISPUTED))
                .order_by("pk").values_list("details", flat=True)):
            if details.get("round") == round_.index and details.get("digest") == digest:
                words[details["seat"]] = bool(details["agreed"])
        counted[key] = (round_.index, len(words), not all(words.values()))
    return counted
