"""The standings as a django-tables2 table: from ``standings_rows()``'s dicts, sortable, CSV."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tournament.standings.ranking import CRITERIA
from tournament.tables import PythonBodyTable

LEADING_COLUMNS = ("rank", "name", "club", "matches")


def points_display(value: float, *, separator: str | None = None) -> str:
    """Points (in quarters, or finer at tables of 5 and 6) without trailing zeros, with the
    page's decimal separator (7,5 in French).

    >>> points_display(7.5, separator=",")
    '7,5'
    >>> points_display(3.0, separator=",")
    '3'
    """
    separator = separator or formats.get_format("DECIMAL_SEPARATOR")
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", separator)


def criterion_display(code: str, row: dict, *, separator: str | None = None) -> str:
    """A row's score on one criterion, as the pages show it (plain text)."""
    value = row[code]
    if code in ("match_points", "opponents"):
        return points_display(value, separator=separator)
    if code == "share":
        separator = separator or formats.get_format("DECIMAL_SEPARATOR")
        return f"{value * 100:.1f} %".replace(".", separator)
    return str(value)


class StandingsTable(PythonBodyTable):
    """One row per player; the chosen criteria's columns, in the tournament's order.

    Build it with ``StandingsTable.for_criteria(rows, criteria)``.
    """

    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "rank"}})
    name = tables2.Column(verbose_name=_("player"), order_by="name_key")
    club = tables2.Column(verbose_name=_("club"), attrs={"cell": {"class": "club"}})
    matches = tables2.Column(verbose_name=_("matches"), attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"), attrs={"td": {"class": "number"}})
    table_wins = tables2.Column(verbose_name=_("table wins"), attrs={"td": {"class": "number"}})
    total_points = tables2.Column(verbose_name=_("total points"), attrs={"td": {"class": "number"}})
    share = tables2.Column(verbose_name=_("share"), attrs={"td": {"class": "number"}})
    best_match = tables2.Column(verbose_name=_("best match"), attrs={"td": {"class": "number"}})
    opponents = tables2.Column(verbose_name=_("opponents"), attrs={"td": {"class": "number"}})

    class Meta(PythonBodyTable.Meta):
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

    def body_html(self) -> SafeString:
        self._separator = formats.get_format("DECIMAL_SEPARATOR")
        return super().body_html()

    def body_row_attrs(self, record) -> str:
        return f'data-player="{record["player_id"]:d}"'

    def cell_rank(self, record):
        return escape(record["rank_label"])

    def cell_name(self, record):
        link = f'<a href="{escape(record["url"])}">{escape(record["name"])}</a>'
        if record["withdrawn"]:
            link += f' <span class="tag">{escape(_("withdrawn"))}</span>'
        return link

    def cell_match_points(self, record):
        return criterion_display("match_points", record, separator=self._separator)

    def cell_opponents(self, record):
        return criterion_display("opponents", record, separator=self._separator)

    def cell_share(self, record):
        return criterion_display("share", record, separator=self._separator)

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
