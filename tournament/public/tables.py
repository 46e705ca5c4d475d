"""The tables of the public pages that are not the seating's or the standings'."""

from __future__ import annotations

import html

import django_tables2 as tables2
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.kit.tables import PythonBodyTable
from tournament.standings.tables import points_display


class PlayerMatchesTable(PythonBodyTable):
    """A player's matches, one per session: from ``player_page()["matches"]``.

    Its body is built in Python (``PythonBodyTable``): the player's page is polled every 15
    seconds while a session is in play, and its matches change as they end (their totals
    shown once they are over)."""

    session = tables2.Column(verbose_name=_("session"), attrs={"td": {"class": "session"}})
    opponents = tables2.Column(verbose_name=_("opponents"), orderable=False)
    total = tables2.Column(verbose_name=_("total"), attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"),
                                  attrs={"td": {"class": "number"}})

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table player-matches", "id": "matches"}
        empty_text = _("No match yet.")
        order_by = ("-session",)

    def cell_session(self, record) -> str:
        """The session, the table, and the match's state linked to the match."""
        where = format_html(
            '<a href="{}#table-{}">{}</a> <span class="where">{}</span>',
            record["session_url"], record["table"], record["session"],
            _("table %(table)s") % {"table": record["table"]},
        )
        if not record["url"]:
            return where
        return format_html(
            '{} <a class="where match-state match-state--{}" href="{}">{}</a>',
            where, record["status"], record["url"], record["status_label"],
        )

    def cell_opponents(self, record) -> str:
        """Each opponent linked to their page, with their total once the match has one."""
        return ", ".join(
            f'<a href="{html.escape(opponent["url"])}">{html.escape(opponent["name"])}</a>'
            + ("" if opponent["total"] is None else f' ({opponent["total"]:d})')
            for opponent in record["opponents"]
        )

    def cell_total(self, record) -> str:
        return self.default if record["total"] is None else f'{record["total"]:d}'

    def cell_match_points(self, record) -> str:
        value = record["match_points"]
        if value is None:
            return self.default
        text = points_display(value, separator=self.separator)
        return text if record["confirmed"] else f"({text})"

    def value_session(self, value, record):
        return f"{value}/{record['table']}"

    def value_opponents(self, value):
        return ", ".join(opponent["name"] for opponent in value)
