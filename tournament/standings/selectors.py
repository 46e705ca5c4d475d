"""The standings, read from the database in a fixed number of queries (three; four when a
tournament uses check-in, whose absences are read from every seat: docs/guides/check-in.md).

- ``standings(*, tournament)``: the rows, the criteria, the tables still in play.
- ``standings_of(*, tournaments)``: the same for many tournaments at once, still three
  queries.
- ``cached_standings_of(*, tournaments)``: ``standings_of`` through the shared cache, each
  tournament's standings kept at its data version (a league's ranking, a player's career:
  their tournaments are mostly over, and ranking a tournament of a thousand players takes
  a tenth of a second).
- ``cached_player_standing(*, tournament, player_id)``: one player's row of it, from this
  process's index of every player's row, made once per results version (every followed
  player's page is made again after a confirmation: each reads its row there, not the whole
  standings from the shared cache).
- ``standings_rows(*, tournament)``: the rows only, a list of plain dicts (for pages, CSV,
  PDFs): see ``tournament.standings.ranking.standings_compute`` for their keys, plus ``url``
  (the player's page, a path).

Only confirmed matches count (``Match.status == confirmed``), from their cached totals and
winners; no match is replayed. The number of queries does not grow with players or matches.

A final table (docs/guides/final.md): the final session's matches count only once all of them are
confirmed, and then through ``tournament.standings.final.final_standings`` (the finalists
first, placed by the final; the others as the qualifying sessions left them); until then the
standings are the qualifying sessions' alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import get_language

from tournament.kit.bounded import BoundedMap
from tournament.models import CheckInRule, Match, Registration, Seat, Session, Tournament
from tournament.standings.final import STAGE_FINAL, final_standings
from tournament.standings.ranking import (
    MatchResult,
    StandingPlayer,
    ranked_count,
    standings_compute,
)


@dataclass(frozen=True)
class TableInPlay:
    """A table of a started session whose match is not confirmed yet."""

    session: int
    table: int
    match_id: int
    status: str
    status_label: str


@dataclass(frozen=True)
class Standings:
    rows: list[dict[str, Any]]
    criteria: list[str]
    tables_in_play: list[TableInPlay] = field(default_factory=list)
    confirmed_matches: int = 0
    sessions_in_play: list[int] = field(default_factory=list)
    #: The final table (docs/guides/final.md): seated and not decided yet, or decided (its places
    #: first in ``rows``, each row's ``stage`` saying which part it is in).
    final_in_play: bool = False
    final_decided: bool = False

    @property
    def final_rows(self) -> list[dict[str, Any]]:
        """The rows placed by the final (empty until it is decided)."""
        return [row for row in self.rows if row.get("stage") == STAGE_FINAL]

    @property
    def qualifying_rows(self) -> list[dict[str, Any]]:
        """The rows placed by the qualifying sessions (all of them until the final is decided)."""
        return [row for row in self.rows if row.get("stage") != STAGE_FINAL]

    @property
    def ranked_count(self) -> int:
        """How many players are ranked (the "N" of "rank n / N"; docs: ``ranking.py``)."""
        return ranked_count(self.rows)

    @property
    def is_live(self) -> bool:
        """A session is in play: the standings may change (the pages refresh themselves)."""
        return bool(self.sessions_in_play)


#: How long a tournament's standings are kept when its data version does not move.
KEPT_SECONDS = 7 * 24 * 3600


def cached_standings_of(
    *, tournaments: Iterable[Tournament], without_merged: bool = False
) -> dict[int, Standings]:
    """``standings_of``, each tournament's standings kept in the shared cache under its id,
    its results version (``tournament.core.freshness``: every write that changes them raises it) and
    the language (the tables in play carry translated labels): one read of the cache, and
    the standings computed only for the tournaments changed since they were last kept. The
    ``tournaments`` must have been read in this request (their ``results_version`` current)."""
    tournaments = list(tournaments)
    language = get_language()
    keys = {
        tournament.pk: (
            f"standings:{tournament.pk}:{tournament.results_version}:{int(without_merged)}:"
            f"{language}"
        )
        for tournament in tournaments
    }
    kept = cache.get_many(list(keys.values())) if keys else {}
    missing = [tournament for tournament in tournaments if keys[tournament.pk] not in kept]
    made = standings_of(tournaments=missing, without_merged=without_merged)
    if made:
        cache.set_many({keys[pk]: standing for pk, standing in made.items()}, KEPT_SECONDS)
    return {
        tournament.pk: made.get(tournament.pk) or kept[keys[tournament.pk]]
        for tournament in tournaments
    }


@dataclass(frozen=True)
class PlayerStanding:
    """One player's place in the standings, and what a page shows around it (the row read
    only: one index of them serves every request of the process)."""

    row: Mapping[str, Any]
    criteria: list[str]
    ranked_count: int
    is_live: bool


#: How many tournaments' indexes of rows a process keeps (by results version and language),
#: the oldest let go first.
KEPT_RANKINGS = 8
_rankings: BoundedMap[tuple[int, int, str | None], dict[int, PlayerStanding]] = BoundedMap(
    entries=KEPT_RANKINGS)


def cached_player_standing(*, tournament: Tournament, player_id: int) -> PlayerStanding:
    """The player's row of ``cached_standings_of`` (the player must be registered in the
    tournament), from this process's index of every player's row of the tournament at its
    results version, made from the standings once per version and language: a player's page
    made again after a confirmation (each followed player's is) reads its row there, not the
    whole standings from the shared cache. The ``tournament`` must have been read in this
    request (its ``results_version`` current)."""
    key = (tournament.pk, tournament.results_version, get_language())
    ranking = _rankings.get(key)
    if ranking is None:
        standings = cached_standings_of(tournaments=[tournament])[tournament.pk]
        ranked, live = standings.ranked_count, standings.is_live
        ranking = {
            row["player_id"]: PlayerStanding(row=MappingProxyType(row),
                                             criteria=standings.criteria,
                                             ranked_count=ranked, is_live=live)
            for row in standings.rows}
        _rankings.put(key, ranking)
    return ranking[player_id]


def forget_rankings() -> None:
    """Drop every index of rows kept (the tests: a test's database may reuse ids)."""
    _rankings.clear()


def standings(*, tournament: Tournament) -> Standings:
    """The standings of the tournament after its confirmed matches (three queries)."""
    return standings_of(tournaments=[tournament])[tournament.pk]


def standings_of(
    *, tournaments: Iterable[Tournament], without_merged: bool = False
) -> dict[int, Standings]:
    """Each tournament's standings by its id, in the order given: three queries for them all,
    however many tournaments, players and matches (the leagues and the careers rank many
    tournaments at once). ``without_merged``: leave out the registrations of records merged
    into another (``Player.merged_into``), as a league does, which counts each person once."""
    tournaments = list(tournaments)
    if not tournaments:
        return {}
    ids = [tournament.pk for tournament in tournaments]
    registrations = Registration.objects.filter(tournament_id__in=ids)
    if without_merged:
        registrations = registrations.filter(player__merged_into__isnull=True)
    players: dict[int, list[StandingPlayer]] = {pk: [] for pk in ids}
    playing: dict[int, list[tuple[int, str, int | None]]] = {pk: [] for pk in ids}
    for tournament_id, player_id, name, club, status, first_session in (
        registrations.order_by().values_list(
            "tournament_id", "player_id", "player__name", "player__club", "status",
            "first_session")
    ):
        players[tournament_id].append(StandingPlayer(
            id=player_id, name=name, club=club, withdrawn=status == Registration.Status.WITHDRAWN
        ))
        playing[tournament_id].append((player_id, status, first_session))
    absences = _absences(tournaments, playing=playing)

    # The winners are not read: they are the players with the highest total (the engine's
    # definition, docs/reference/record-format.md), which the ranking finds from the totals.
    matches = Match.objects.filter(table__session__tournament_id__in=ids).values_list(
        "table__session__tournament_id", "pk", "table_id", "status", "totals", "table__number",
        "table__session__number", "table__session__status", "table__session__is_final",
    )
    confirmed: dict[int, tuple[int, int, list[int]]] = {}  # table id: tournament, match, totals
    final_tables: set[int] = set()
    final_open: dict[int, bool] = {}  # tournament id: a final match is not confirmed yet
    in_play: dict[int, list[TableInPlay]] = {pk: [] for pk in ids}
    sessions_in_play: dict[int, set[int]] = {pk: set() for pk in ids}
    status_labels = dict(Match.Status.choices)
    started = {Session.Status.PLAYING, Session.Status.FINISHED}
    for (tournament_id, match_id, table_id, status, totals, table, session, session_status,
         is_final) in matches:
        if is_final:
            final_tables.add(table_id)
            final_open[tournament_id] = (
                final_open.get(tournament_id, False) or status != Match.Status.CONFIRMED)
        if session_status == Session.Status.PLAYING:
            sessions_in_play[tournament_id].add(session)
        if status == Match.Status.CONFIRMED:
            confirmed[table_id] = (tournament_id, match_id, totals or [])
        elif session_status in started:
            in_play[tournament_id].append(
                TableInPlay(session, table, match_id, status, str(status_labels.get(status, status)))
            )

    seated: dict[int, list[tuple[int, int]]] = {table_id: [] for table_id in confirmed}
    seats = Seat.objects.filter(
        session__tournament_id__in=ids, table__match__status=Match.Status.CONFIRMED
    ).values_list("table_id", "order", "player_id")
    for table_id, order, player_id in seats:
        if table_id in seated:
            seated[table_id].append((order, player_id))
    results: dict[int, list[MatchResult]] = {pk: [] for pk in ids}
    final_results: dict[int, list[MatchResult]] = {pk: [] for pk in ids}
    for table_id, (tournament_id, match_id, totals) in confirmed.items():
        player_ids = tuple(player_id for _order, player_id in sorted(seated[table_id]))
        if len(totals) != len(player_ids):
            continue  # a confirmed match always has its totals; never guess
        kept = final_results if table_id in final_tables else results
        kept[tournament_id].append(MatchResult(player_ids, tuple(totals), match_id=match_id))

    return {
        tournament.pk: _ranked(
            tournament,
            players=players[tournament.pk],
            results=results[tournament.pk],
            in_play=in_play[tournament.pk],
            sessions_in_play=sessions_in_play[tournament.pk],
            final_results=(
                None if final_open.get(tournament.pk, True) else final_results[tournament.pk]
            ),
            final_in_play=final_open.get(tournament.pk, False),
            absences=absences.get(tournament.pk, {}),
        )
        for tournament in tournaments
    }


def _absences(
    tournaments: list[Tournament], *, playing: dict[int, list[tuple[int, str, int | None]]]
) -> dict[int, dict[int, list[int]]]:
    """By tournament using check-in, by player: the seated sessions they play in
    (``Registration.plays_in``) without a seat, the sessions they missed (docs/guides/check-in.md);
    the final table is not one (it seats only the finalists).
    One query, none when no tournament uses check-in."""
    ids = [tournament.pk for tournament in tournaments if tournament.uses_check_in]
    if not ids:
        return {}
    seated: dict[int, dict[int, set[int]]] = {pk: {} for pk in ids}  # session: players
    for tournament_id, number, player_id in Seat.objects.filter(
        session__tournament_id__in=ids, session__is_final=False  # the final seats a few
    ).values_list("session__tournament_id", "session__number", "player_id"):
        seated[tournament_id].setdefault(number, set()).add(player_id)
    absences: dict[int, dict[int, list[int]]] = {}
    for tournament_id in ids:
        missed: dict[int, list[int]] = {}
        for number, players in sorted(seated[tournament_id].items()):
            for player_id, status, first_session in playing[tournament_id]:
                if player_id not in players and Registration.plays_in_values(
                        status=status, first_session=first_session, number=number):
                    missed.setdefault(player_id, []).append(number)
        absences[tournament_id] = missed
    return absences


def _ranked(
    tournament: Tournament,
    *,
    players: list[StandingPlayer],
    results: list[MatchResult],
    in_play: list[TableInPlay],
    sessions_in_play: set[int],
    absences: dict[int, list[int]],
    final_results: list[MatchResult] | None = None,
    final_in_play: bool = False,
) -> Standings:
    """One tournament's standings from what :func:`standings_of` read (no query);
    ``final_results``: the final's, once every final match is confirmed (else None)."""
    criteria = list(tournament.ranking_criteria)
    rows = standings_compute(players=players, results=results, criteria=criteria,
                             absences=absences, forfeit=tournament.check_in == CheckInRule.FORFEIT)
    if final_results:
        rows = final_standings(qualifying=rows, players=players, results=results,
                               final_results=final_results, criteria=criteria,
                               absences=absences,
                               forfeit=tournament.check_in == CheckInRule.FORFEIT)
    player_url = reverse("tournament:player", kwargs={"slug": tournament.slug, "player_id": 0})
    player_url = player_url[: -len("0/")]
    for row in rows:
        row["url"] = f"{player_url}{row['player_id']}/"
    return Standings(
        rows=rows,
        criteria=criteria,
        tables_in_play=sorted(in_play, key=lambda table: (table.session, table.table)),
        confirmed_matches=len(results) + len(final_results or []),
        sessions_in_play=sorted(sessions_in_play),
        final_in_play=final_in_play,
        final_decided=bool(final_results),
    )


def standings_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as plain dicts, best first; ties share ``rank`` (``rank_label`` "3=").

    Keys: rank (None when not ranked), rank_label, ranked, position, player_id, name, name_key
    (how the name sorts), club, withdrawn,
    matches, match_points, table_wins, total_points, share (0 to 1), best_match, opponents,
    url. The order of the criteria that decided it: ``tournament.ranking_criteria``. Once a
    final table is decided (docs/guides/final.md), also stage, qualifying_rank, and for the
    finalists overall (``tournament.standings.final.final_standings``).
    """
    return standings(tournament=tournament).rows
