"""The categories and the club teams printed: their sections of the printed standings, and the
prize list (each category's first places, the clubs' first places) in one PDF
(docs/guides/categories.md). Everything comes from ``tournament.standings`` (categories.py, teams.py);
each score shows as the pages show it."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.kit.tables import RANKING_TEXT_COLUMNS
from tournament.models import Tournament
from tournament.standings.categories import CategoryStandings, category_rows, category_standings
from tournament.standings.category_tables import team_players_display
from tournament.standings.selectors import Standings, standings
from tournament.standings.tables import LEADING_COLUMNS, criterion_display, print_layout
from tournament.standings.teams import club_ranking

#: The printed sections' columns of words: left-aligned, wrapped.
SECTION_TEXT_COLUMNS = RANKING_TEXT_COLUMNS | {"counted"}


def _player_cells(row: dict, columns) -> list[tuple[str, str]]:
    leading = set(LEADING_COLUMNS)
    return [
        (name,
         row["rank_label"] if name == "rank"
         else row["overall_rank_label"] if name == "overall"
         else row[name] if name in leading
         else criterion_display(name, row))
        for name, _header in columns
    ]


def _overall_column() -> tuple[str, str]:
    """The overall rank's column, under a header short enough for six criteria beside it."""
    return ("overall", pgettext("short for: rank in the main standings", "Overall"))


def _team_columns() -> list[tuple[str, str]]:
    return [("rank", _("rank")), ("club", _("club")), ("score", _("score")),
            ("counted", _("players counted"))]


def _team_rows(teams: list[dict], *, top: int | None = None) -> list[dict]:
    too_few = _("too few players")
    return [
        {"podium": team["ranked"] and team["rank"] <= 3, "withdrawn": False, "cells": [
            ("rank", team["rank_label"]), ("club", team["club"]),
            ("score", criterion_display(team["criterion"], {team["criterion"]: team["score"]})),
            ("counted", team_players_display(team) if team["ranked"]
             else f"{team_players_display(team)} ({too_few})"),
        ]}
        for team in teams if top is None or (team["ranked"] and team["rank"] <= top)
    ]


def standings_sections(*, tournament: Tournament, result: Standings | None = None) -> dict:
    """The printed standings' sections after the main table: each category's standings
    (``category_sections``) and the club teams (``team_rows``, None without a club ranking)."""
    result = result or standings(tournament=tournament)
    layout = print_layout(result.criteria)
    columns = [layout.columns[0], _overall_column(), *layout.columns[1:]]
    sections = [
        {"name": category.name, "columns": columns, "ranked_count": category.ranked_count,
         "rows": [{"podium": row["ranked"] and row["rank"] <= 3, "withdrawn": row["withdrawn"],
                   "cells": _player_cells(row, columns)} for row in category.rows]}
        for category in category_standings(tournament=tournament, result=result)
    ]
    teams = club_ranking(tournament=tournament, result=result)
    return {
        "section_text_columns": SECTION_TEXT_COLUMNS,
        "category_sections": sections,
        "team_columns": _team_columns(),
        "team_rows": None if teams is None else _team_rows(teams),
    }


def prize_winners(*, rows: list[dict], categories: list[CategoryStandings], top: int,
                  one_per_player: bool) -> tuple[list[dict], list[tuple[str, list[dict]]]]:
    """The rows given a prize: the first ``top`` places overall (``rows``, the standings'),
    then in each category in the list's order (a place shared at the last one given goes to
    everyone sharing it). ``one_per_player``: a player given a prize higher on the list is
    left out of each next category, whose places are counted again without them
    (``category_rows``), so the next player takes the place."""
    def podium(ranked: list[dict]) -> list[dict]:
        return [row for row in ranked if row["ranked"] and row["rank"] <= top]

    overall = podium(rows)
    prized = {row["player_id"] for row in overall}
    sections = []
    for category in categories:
        category_rows_shown = category.rows
        if one_per_player:
            members = {row["player_id"] for row in category.rows} - prized
            category_rows_shown = category_rows(rows, members)
        winners = podium(category_rows_shown)
        if one_per_player:
            prized.update(row["player_id"] for row in winners)
        sections.append((category.name, winners))
    return overall, sections


def prize_list_context(*, tournament: Tournament) -> dict:
    """The context of ``printing/prize_list.html``: the first ``tournament.prize_count``
    places overall, in each category and among the clubs (a place shared at the last one
    counted is printed for everyone sharing it); with ``tournament.prize_one_per_player``,
    a player is given one prize, the first on the list (:func:`prize_winners`)."""
    result = standings(tournament=tournament)
    top = tournament.prize_count
    columns = [("rank", _("rank")), ("name", _("player")), ("club", _("club"))]
    category_columns = [*columns, _overall_column()]

    def printed(rows, shown):
        return [{"podium": False, "withdrawn": False, "cells": _player_cells(row, shown)}
                for row in rows]

    overall, sections = prize_winners(
        rows=result.rows, categories=category_standings(tournament=tournament, result=result),
        top=top, one_per_player=tournament.prize_one_per_player)
    teams = club_ranking(tournament=tournament, result=result)
    return {
        "tournament": tournament,
        "standings": result,
        "top": top,
        "one_per_player": tournament.prize_one_per_player,
        "section_text_columns": SECTION_TEXT_COLUMNS,
        "overall": {"columns": columns, "rows": printed(overall, columns)},
        "category_sections": [
            {"name": name, "columns": category_columns, "rows": printed(rows, category_columns)}
            for name, rows in sections
        ],
        "team_columns": _team_columns(),
        "team_rows": None if teams is None else _team_rows(teams, top=top),
    }
