"""The standings, read from the database in a fixed number of queries (three).

- ``standings(*, tournament)``: the rows, the criteria, the tables still in play.
- ``standings_rows(*, tournament)``: the rows only, a list of plain dicts (for pages, CSV,
  PDFs): see ``tournament.standings.ranking.standings_compute`` for their keys, plus ``url``
  (the player's page, a path).

Only confirmed matches count (``Match.status == confirmed``), from their cached totals and
winners; no match is replayed. The number of queries does not grow with players or matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from tournament.models import Match, Registration, Seat, Session, Tournament
from tournament.standings.ranking import MatchResult, StandingPlayer, standings_compute


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

    @property
    def is_live(self) -> bool:
        """A session is in play: the standings may change (the pages refresh themselves)."""
        return bool(self.sessions_in_play)


def standings(*, tournament: Tournament) -> Standings:
    """The standings of the tournament after its confirmed matches (three queries)."""
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .order_by()
        .values_list("player_id", "player__name", "player__club", "status")
    )
    players = [
        StandingPlayer(
            id=player_id, name=name, club=club, withdrawn=status == Registration.Status.WITHDRAWN
        )
        for player_id, name, club, status in registrations
    ]

    # The winners are not read: they are the players with the highest total (the engine's
    # definition, docs/record-format.md), which the ranking finds from the totals.
    matches = Match.objects.filter(table__session__tournament=tournament).values_list(
        "pk", "table_id", "status", "totals", "table__number",
        "table__session__number", "table__session__status",
    )
    confirmed: dict[int, tuple[int, list[int]]] = {}
    in_play: list[TableInPlay] = []
    sessions_in_play: set[int] = set()
    status_labels = dict(Match.Status.choices)
    started = {Session.Status.PLAYING, Session.Status.FINISHED}
    for match_id, table_id, status, totals, table, session, session_status in matches:
        if session_status == Session.Status.PLAYING:
            sessions_in_play.add(session)
        if status == Match.Status.CONFIRMED:
            confirmed[table_id] = (match_id, totals or [])
        elif session_status in started:
            in_play.append(
                TableInPlay(session, table, match_id, status, str(status_labels.get(status, status)))
            )
    in_play.sort(key=lambda table: (table.session, table.table))

    seated: dict[int, list[tuple[int, int]]] = {table_id: [] for table_id in confirmed}
    seats = Seat.objects.filter(
        session__tournament=tournament, table__match__status=Match.Status.CONFIRMED
    ).values_list("table_id", "order", "player_id")
    for table_id, order, player_id in seats:
        if table_id in seated:
            seated[table_id].append((order, player_id))
    results = []
    for table_id, (match_id, totals) in confirmed.items():
        player_ids = tuple(player_id for _order, player_id in sorted(seated[table_id]))
        if len(totals) != len(player_ids):
            continue  # a confirmed match always has its totals; never guess
        results.append(MatchResult(player_ids, tuple(totals), match_id=match_id))

    criteria = list(tournament.ranking_criteria)
    rows = standings_compute(players=players, results=results, criteria=criteria)
    player_url = reverse("tournament:player", kwargs={"slug": tournament.slug, "player_id": 0})
    player_url = player_url[: -len("0/")]
    for row in rows:
        row["url"] = f"{player_url}{row['player_id']}/"
    return Standings(
        rows=rows,
        criteria=criteria,
        tables_in_play=in_play,
        confirmed_matches=len(results),
        sessions_in_play=sorted(sessions_in_play),
    )


def standings_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as plain dicts, best first; ties share ``rank`` (``rank_label`` "3=").

    Keys: rank, rank_label, player_id, name, name_key (how the name sorts), club, withdrawn,
    matches, match_points, table_wins, total_points, share (0 to 1), best_match, opponents,
    url. The order of the criteria that decided it: ``tournament.ranking_criteria``.
    """
    return standings(tournament=tournament).rows
