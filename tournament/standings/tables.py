"""The standings as a django-tables2 table: from ``standings_rows()``'s dicts, sortable, CSV."""

from __future__ import annotations

import django_tables2 as tables2
from django.template.defaultfilters import floatformat
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.standings.ranking import CRITERIA

LEADING_COLUMNS = ("rank", "name", "club", "matches")


def points_display(value: float) -> str:
    """Points in quarters, without trailing zeros, in the page's language (7,5 in French)."""
    return floatformat(value, -2)


def criterion_display(code: str, row: dict) -> str:
    """A row's score on one criterion, as the standings page shows it."""
    value = row[code]
    if code in ("match_points", "opponents"):
        return points_display(value)
    if code == "share":
        return f"{floatformat(value * 100, 1)} %"
    return str(value)


class StandingsTable(tables2.Table):
    """One row per player; the chosen criteria's columns, in the tournament's order.

    Build it with ``StandingsTable.for_criteria(rows, criteria)``.
    """

    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "rank"}})
    name = tables2.Column(verbose_name=_("player"), linkify=lambda record: record["url"])
    club = tables2.Column(verbose_name=_("club"), attrs={"td": {"class": "club"}})
    matches = tables2.Column(verbose_name=_("matches"), attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"), attrs={"td": {"class": "number"}})
    table_wins = tables2.Column(verbose_name=_("table wins"), attrs={"td": {"class": "number"}})
    total_points = tables2.Column(verbose_name=_("total points"), attrs={"td": {"class": "number"}})
    share = tables2.Column(verbose_name=_("share"), attrs={"td": {"class": "number"}})
    best_match = tables2.Column(verbose_name=_("best match"), attrs={"td": {"class": "number"}})
    opponents = tables2.Column(verbose_name=_("opponents"), attrs={"td": {"class": "number"}})

    class Meta:
        attrs = {"class": "data-table standings", "id": "standings"}
        order_by = ("rank",)
        empty_text = _("No player registered yet.")
        row_attrs = {"data-player": lambda record: record["player_id"]}

    @classmethod
    def for_criteria(cls, rows, criteria, **kwargs) -> StandingsTable:
        """The table with the chosen criteria's columns only, in their order."""
        return cls(
            rows,
            sequence=(*LEADING_COLUMNS, *criteria),
            exclude=[code for code in CRITERIA if code not in criteria],
            **kwargs,
        )

    def render_rank(self, record):
        return record["rank_label"]

    def render_name(self, value, record):
        if record["withdrawn"]:
            return format_html('{} <span class="tag">{}</span>', value, _("withdrawn"))
        return value

    def render_match_points(self, record):
        return criterion_display("match_points", record)

    def render_opponents(self, record):
        return criterion_display("opponents", record)

    def render_share(self, record):
        return criterion_display("share", record)

    # The CSV: plain values, a dot for decimals.
    def value_rank(self, record):
        return record["rank_label"]

    def value_name(self, value):
        return value

    def value_match_points(self, value):
        return f"{value:g}"

    def value_opponents(self, value):
        return f"{value:g}"

    def value_share(self, value):
        return f"{value:.4f}"
