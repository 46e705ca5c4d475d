"""The seating as django-tables2 tables, from ``session_seating()``'s plain data.

Their bodies are built in Python (``PythonBodyTable``): a session of 512 players is 128 tables
and 512 names, and the page polls itself every 15 seconds while the session is in play.
"""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.standings.tables import PythonBodyTable


class SeatingTable(PythonBodyTable):
    """One row per table: its players in clockwise seat order, its match and the match's state."""

    number = tables2.Column(verbose_name=pgettext_lazy("game table", "table"),
                            attrs={"td": {"class": "table-number"}})
    players = tables2.Column(verbose_name=_("players, clockwise"), orderable=False)
    match_status = tables2.Column(verbose_name=_("match"))

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table seating", "id": "seating"}
        empty_text = _("This session is not seated yet.")

    def body_row_attrs(self, record) -> str:
        return f'id="table-{record["number"]:d}"'

    def cell_players(self, record) -> str:
        seat_title = escape(_("seat"))
        items = []
        for player in record["players"]:
            club = f' <span class="club">{escape(player["club"])}</span>' if player["club"] else ""
            total = "" if player["total"] is None else f'{player["total"]:d}'
            winner = ' class="winner"' if player["winner"] else ""
            items.append(
                f'<li{winner}>'
                f'<span class="seat-number" title="{seat_title}">{player["seat"]:d}</span>'
                f'<span class="who"><a href="{escape(player["url"])}">{escape(player["name"])}</a>'
                f'{club}</span><span class="total">{total}</span></li>'
            )
        return f'<ol class="table-players">{"".join(items)}</ol>'

    def cell_match_status(self, record) -> str:
        if not record["match_url"]:
            return ""
        return (
            f'<a class="match-state match-state--{escape(record["match_status"])}" '
            f'href="{escape(record["match_url"])}">{escape(record["match_status_label"])}</a>'
        )

    def value_players(self, value):
        return " / ".join(player["name"] for player in value)

    def value_match_status(self, record):
        return record["match_status_label"]


class PlayerSeatTable(PythonBodyTable):
    """Every seated player by name, with their table and seat: to find one's table."""

    name = tables2.Column(verbose_name=_("player"), order_by="name_key")
    club = tables2.Column(verbose_name=_("club"), attrs={"cell": {"class": "club"}})
    table = tables2.Column(verbose_name=pgettext_lazy("game table", "table"),
                           attrs={"td": {"class": "table-number"}})
    seat = tables2.Column(verbose_name=_("seat"), attrs={"td": {"class": "number"}})

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table seats", "id": "seats"}
        empty_text = _("This session is not seated yet.")

    def cell_name(self, record) -> str:
        return f'<a href="{escape(record["url"])}">{escape(record["name"])}</a>'

    def cell_table(self, record) -> str:
        return f'<a href="#table-{record["table"]:d}">{record["table"]:d}</a>'
