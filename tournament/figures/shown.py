"""The app's figures as a reader gets them: the standings, categories and club teams from the
selectors their pages read, the prize list from its view's context, the ratings and a league's
ranking from theirs (the league's public face). Nothing here computes a figure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import resolve, reverse

from tournament.core import freshness
from tournament.leagues.selectors import league_standing
from tournament.matches.signatures import signing_states
from tournament.models import League, Match, Tournament
from tournament.ratings.selectors import ratings_rows
from tournament.standings.categories import category_standings
from tournament.standings.selectors import standings
from tournament.standings.teams import club_ranking


@dataclass
class Shown:
    """A tournament's figures as its pages show them."""

    rows: dict[int, dict[str, Any]]
    final_decided: bool
    #: Category name -> {player id: (rank label in the category, overall rank label)}.
    categories: dict[str, dict[int, tuple[str, str]]]
    #: Club key -> (rank label, score); None without a club ranking.
    teams: dict[str, tuple[str, float]] | None
    #: "overall", "category <name>", "clubs" -> {(rank label, name or club key)}.
    prizes: dict[str, set[tuple[str, str]]]


def _club_key(club: str) -> str:
    return " ".join(club.split()).casefold()


def prize_list(tournament: Tournament) -> dict[str, Any]:
    """The prize list's context, from the view that prints it (``tournament:prize_list_pdf``)."""
    view = resolve(reverse("tournament:prize_list_pdf", kwargs={"slug": tournament.slug})).func
    document = view.view_class()
    document.tournament = tournament
    return document.document_context()


def _cells(row: dict[str, Any]) -> dict[str, Any]:
    return dict(row["cells"])


def tournament_shown(tournament: Tournament) -> Shown:
    result = standings(tournament=tournament)
    categories = {
        category.name: {row["player_id"]: (row["rank_label"], row["overall_rank_label"])
                        for row in category.rows}
        for category in category_standings(tournament=tournament, result=result)
    }
    teams = club_ranking(tournament=tournament, result=result)
    context = prize_list(tournament)
    prizes = {"overall": {(_cells(row)["rank"], _cells(row)["name"])
                          for row in context["overall"]["rows"]}}
    for section in context["category_sections"]:
        prizes[f"category {section['name']}"] = {
            (_cells(row)["rank"], _cells(row)["name"]) for row in section["rows"]}
    if context["team_rows"] is not None:
        prizes["clubs"] = {(_cells(row)["rank"], _club_key(_cells(row)["club"]))
                           for row in context["team_rows"]}
    return Shown(
        rows={row["player_id"]: row for row in result.rows},
        final_decided=result.final_decided,
        categories=categories,
        teams=None if teams is None else {
            _club_key(team["club"]): (team["rank_label"], team["score"]) for team in teams},
        prizes=prizes,
    )


def ratings_shown() -> dict[int, dict[str, Any]]:
    """Every rated player's row of ``/ratings/``."""
    return {row["player_id"]: row for row in ratings_rows()}


def league_shown(league: League) -> dict[int, dict[str, Any]]:
    """The league's public ranking: by player, the total, the rank and each tournament's
    points."""
    return {
        row.player.id: {"name": row.player.name, "total": row.total, "rank_label": row.rank_label,
                        "points": {tid: result.points for tid, result in row.results.items()}}
        for row in league_standing(league=league).rows
    }


def versions_shown(tournament: Tournament, pages: list[tuple[str, int]]
                   ) -> dict[tuple[str, int], int]:
    """The version each page answers with, read as its view reads it (the tournament with
    the state revisions of the page's matches: ``tournament.core.freshness``): ``("session",
    number)`` or ``("player", id)``."""
    read = {"session": lambda number: freshness.session_version(
                tournament=freshness.tournaments_with_session_states(number).get(
                    pk=tournament.pk), number=number),
            "player": lambda player: freshness.player_version(
                tournament=freshness.tournaments_with_player_states(player).get(
                    pk=tournament.pk), player_id=player)}
    return {(kind, who): read[kind](who) for kind, who in pages}


def signing_shown(tournament: Tournament) -> dict[tuple[int, int], tuple[int, int, bool]]:
    """The seats' signatures the head referee's board shows, read as it reads them
    (``signing_states``): ``(session, table)``: the round to sign's index, the seats that
    signed it, whether it is disputed."""
    shown: dict[tuple[int, int], tuple[int, int, bool]] = {}
    for session in tournament.sessions.select_related("tournament"):
        if not session.entry_by_tables:
            continue
        tables = dict(Match.objects.filter(table__session=session)
                      .values_list("pk", "table__number"))
        for match_id, (index, state) in signing_states(session=session).items():
            shown[session.number, tables[match_id]] = (index, state.signed, state.disputed)
    return shown
