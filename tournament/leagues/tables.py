"""The league pages' tables: the list of leagues, and the ranking (a django-tables2 table of
plain dicts, a column per tournament), with its exports (CSV written from the rows, XLSX
through django-tables2's export) and the rule in words."""

from __future__ import annotations

import csv
import io
from functools import partial

import django_tables2 as tables2
from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournament.kit.addresses import career_url_maker
from tournament.kit.spreadsheet import spreadsheet_cell
from tournament.kit.tables import PlayerRankingTable, rank_value
from tournament.leagues.ranking import LINEAR, LeagueRow, PointsRule, points_table_text
from tournament.models import League
from tournament.names import name_sort_key

LEADING_COLUMNS = ("rank", "name", "club")
TRAILING_COLUMNS = ("total", "best", "played")


def tournament_column(tournament_id: int) -> str:
    return f"t_{tournament_id}"


class LeagueTable(tables2.Table):
    name = tables2.Column(verbose_name=_("league"), linkify=True, order_by="name_key")
    tournament_count = tables2.Column(verbose_name=_("tournaments"),
                                      attrs={"td": {"class": "number"}})
    is_public = tables2.BooleanColumn(verbose_name=_("public"))

    class Meta:
        model = League
        fields = ("name", "tournament_count", "is_public")
        empty_text = _("No league yet.")
        attrs = {"class": "data-table", "id": "leagues"}


def ranking_records(rows: list[LeagueRow], tournament_ids: list[int]) -> list[dict]:
    """The ranking's rows as the table and the exports read them: the player, the totals, and
    under ``t_<id>`` each tournament's export value (points as a number when counted, in
    brackets as text when dropped, empty when not played)."""
    records = []
    career_url = career_url_maker()
    for row in rows:
        record = {
            "rank": row.rank, "rank_label": row.rank_label, "player_id": row.player.id,
            "url": career_url(row.player.id), "name": row.player.name, "name_key": name_sort_key(row.player.name),
            "club": row.player.club, "total": row.total, "best": row.best,
            "played": row.played, "results": row.results,
        }
        for tid in tournament_ids:
            result = row.results.get(tid)
            record[tournament_column(tid)] = (
                "" if result is None else result.points if result.counted else f"({result.points})"
            )
        records.append(record)
    return records


class LeagueRankingTable(PlayerRankingTable):
    """One row per player: rank, name, club, a column of points per tournament (dropped
    results in brackets, marked for screen readers too), total, best result, tournaments.

    Build it with ``LeagueRankingTable.for_tournaments(records, tournaments)``.
    """

    total = tables2.Column(verbose_name=_("points"), attrs={"td": {"class": "number"},
                                                            "th": {"class": "league-total"}})
    best = tables2.Column(verbose_name=_("best result"), attrs={"td": {"class": "number"}})
    played = tables2.Column(verbose_name=_("tournaments"), attrs={"td": {"class": "number"}})

    class Meta(PlayerRankingTable.Meta):
        attrs = {"class": "data-table league-ranking", "id": "league-ranking"}
        order_by = ("rank",)
        empty_text = _("No result yet: the ranking starts with the first confirmed match.")

    @classmethod
    def for_tournaments(cls, records, tournaments, **kwargs) -> LeagueRankingTable:
        """The table with a column per tournament (``tournaments``: ``Tournament`` objects,
        in the league's order)."""
        extra = [
            (tournament_column(tournament.pk), tables2.Column(
                verbose_name=tournament.name, orderable=False,
                # on a phone the total, which ranks, stays in view; each result gives way
                attrs={"td": {"class": "number col-secondary"}, "th": {"class": "col-secondary"}}
            ))
            for tournament in tournaments
        ]
        names = [name for name, _column in extra]
        table = cls(
            records, extra_columns=extra,
            sequence=(*LEADING_COLUMNS, *names, *TRAILING_COLUMNS), **kwargs,
        )
        for tournament in tournaments:
            setattr(table, f"cell_{tournament_column(tournament.pk)}",
                    partial(table.cell_result, tournament.pk))
        return table

    def cell_result(self, tournament_id: int, record) -> str:
        result = record["results"].get(tournament_id)
        if result is None:
            return ""
        rank = escape(gettext("rank %(rank)s") % {"rank": result.rank_label or result.rank})
        if result.counted:
            return (f'<span class="league-points" title="{rank}">{result.points:d}</span>'
                    f'<span class="visually-hidden">, {rank}</span>')
        dropped = escape(gettext("not counted"))
        return (f'<span class="league-points league-points--dropped" title="{rank}, {dropped}">'
                f'({result.points:d})</span><span class="visually-hidden">, {rank}, {dropped}'
                "</span>")


def export_value(name: str, record: dict):
    """A cell of the exports: the rank as shown ("3=" for a tie, else a number), text that a
    spreadsheet would run as a formula neutralised, numbers as numbers."""
    if name == "rank":
        return rank_value(record["rank_label"])
    return spreadsheet_cell(record[name])


def ranking_csv(*, records: list[dict], tournaments) -> str:
    """The ranking as CSV text: a header line, then a line per player, best first; a
    dropped result in brackets, a tournament not played empty."""
    columns = [(name, capfirst(str(LeagueRankingTable.base_columns[name].verbose_name)))
               for name in LEADING_COLUMNS]
    columns += [(tournament_column(tournament.pk), tournament.name) for tournament in tournaments]
    columns += [(name, capfirst(str(LeagueRankingTable.base_columns[name].verbose_name)))
                for name in TRAILING_COLUMNS]
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([spreadsheet_cell(header) for _name, header in columns])
    for record in records:
        writer.writerow([export_value(name, record) for name, _header in columns])
    return text.getvalue()


def rule_words(rule: PointsRule) -> list[str]:
    """The league's rule in sentences, for its page and its PDF."""
    if rule.scale == LINEAR:
        points = gettext(
            "In each tournament, a player gets the number of players ranked, less their rank, "
            "plus one: among 12, the winner gets 12 points. Players sharing a rank get that "
            "rank's points: ten players sharing rank 3 of 12 get 10 points each; the last gets "
            "1 point when nobody shares that rank."
        )
    else:
        points = gettext(
            "In each tournament, ranks 1, 2, 3… get %(table)s points; the ranks after the "
            "last get none."
        ) % {"table": points_table_text(rule.table)}
    sentences = [points] if rule.scale == LINEAR else [
        points, gettext("Players sharing a rank get that rank's points.")]
    if rule.best is None:
        sentences.append(gettext("Every result counts."))
    else:
        sentences.append(ngettext(
            "Only each player's best result counts; the others are shown in brackets.",
            "Only each player's best %(count)s results count; the others are shown in "
            "brackets.",
            rule.best,
        ) % {"count": rule.best})
    sentences.append(gettext(
        "Players equal on points are ranked by their best result, then by the number of "
        "tournaments played; equal on these too, they share the rank (3=)."
    ))
    return sentences
