"""The tables of the public pages that are not the seating's or the standings'."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.standings.tables import points_display


class PlayerMatchesTable(tables2.Table):
    """A player's matches, one per session: from ``player_page()["matches"]``."""

    session = tables2.Column(verbose_name=_("session"),
                             linkify=lambda record: record["session_url"])
    table = tables2.Column(verbose_name=pgettext_lazy("game table", "table"))
    opponents = tables2.TemplateColumn(
        template_name="tournament/public/_opponents.html",
        verbose_name=_("opponents"),
        orderable=False,
    )
    total = tables2.Column(verbose_name=_("total"), attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"),
                                  attrs={"td": {"class": "number"}})
    status_label = tables2.Column(verbose_name=_("match"),
                                  linkify=lambda record: record["url"] or None)

    class Meta:
        attrs = {"class": "data-table player-matches", "id": "matches"}
        empty_text = _("No match yet.")
        order_by = ("-session",)

    def render_match_points(self, value, record):
        text = points_display(value)
        return text if record["confirmed"] else f"({text})"

    def value_opponents(self, value):
        return ", ".join(opponent["name"] for opponent in value)
