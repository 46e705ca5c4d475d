"""The tables of the public pages that are not the seating's or the standings'."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.standings.tables import points_display


class PlayerMatchesTable(tables2.Table):
    """A player's matches, one per session: from ``player_page()["matches"]``."""

    session = tables2.Column(verbose_name=_("session"), attrs={"td": {"class": "session"}})
    opponents = tables2.TemplateColumn(
        template_name="tournament/public/_opponents.html",
        verbose_name=_("opponents"),
        orderable=False,
    )
    total = tables2.Column(verbose_name=_("total"), attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"),
                                  attrs={"td": {"class": "number"}})

    class Meta:
        attrs = {"class": "data-table player-matches", "id": "matches"}
        empty_text = _("No match yet.")
        order_by = ("-session",)

    def render_session(self, value, record):
        """The session, the table, and the match's state linked to the match."""
        where = format_html(
            '<a href="{}#table-{}">{}</a> <span class="where">{}</span>',
            record["session_url"], record["table"], value,
            _("table %(table)s") % {"table": record["table"]},
        )
        if not record["url"]:
            return where
        return format_html(
            '{} <a class="where match-state match-state--{}" href="{}">{}</a>',
            where, record["status"], record["url"], record["status_label"],
        )

    def value_session(self, value, record):
        return f"{value}/{record['table']}"

    def render_match_points(self, value, record):
        text = points_display(value)
        return text if record["confirmed"] else f"({text})"

    def value_opponents(self, value):
        return ", ".join(opponent["name"] for opponent in value)
