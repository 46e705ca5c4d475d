"""The seating as django-tables2 tables, from ``session_seating()``'s plain data.

Their bodies are built in Python (``PythonBodyTable``): a session of 512 players is 128 tables
and 512 names, and the page polls itself every 15 seconds while the session is in play.
"""

from __future__ import annotations

import html
from typing import Any

import django_tables2 as tables2
from django.utils.html import escape
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.kit.tables import PythonBodyTable


def attention_line(waiting: dict[str, Any]) -> str:
    """What awaits a referee at a match, as one line: "decisions to take: 2 · illegal turns: 1
    · to confirm: round 2". ``waiting``: one of ``session_attention()``'s values."""
    parts = []
    if waiting["pending_decisions"]:
        parts.append(gettext("decisions to take: %(count)s") % {"count": waiting["pending_decisions"]})
    if waiting["illegal_turns"]:
        parts.append(gettext("illegal turns: %(count)s") % {"count": waiting["illegal_turns"]})
    if waiting["rounds_to_confirm"]:
        rounds = ", ".join(
            gettext("round %(number)s") % {"number": number} for number in waiting["rounds_to_confirm"]
        )
        parts.append(gettext("to confirm: %(rounds)s") % {"rounds": rounds})
    return " · ".join(parts)


class SeatingTable(PythonBodyTable):
    """One row per table: its players in clockwise seat order, its match and the match's state.

    ``attention`` (the staff's view): ``session_attention()``'s dict; under a match's state,
    what awaits a referee there.
    """

    number = tables2.Column(verbose_name=pgettext_lazy("game table", "table"),
                            attrs={"td": {"class": "table-number"}})
    players = tables2.Column(verbose_name=_("players, clockwise"), orderable=False)
    match_status = tables2.Column(verbose_name=_("match"))

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table seating", "id": "seating"}
        empty_text = _("This session is not seated yet.")

    def __init__(self, data, *, attention: dict[int, dict[str, Any]] | None = None, **kwargs):
        super().__init__(data, **kwargs)
        self.attention = attention or {}

    def rows_html(self, records):
        self.seat_title = escape(gettext("seat"))  # once a page, in its language
        return super().rows_html(records)

    def body_row_attrs(self, record) -> str:
        return f'id="table-{record["number"]:d}"'

    def cell_players(self, record) -> str:
        # the standard library's escape, as Django's does it, without its check for lazy
        # strings on each of a session's 512 names (the page is polled while it is in play)
        seat_title = self.seat_title
        items = []
        for player in record["players"]:
            club = f' <span class="club">{html.escape(player["club"])}</span>' if player["club"] else ""
            total = "" if player["total"] is None else f'{player["total"]:d}'
            winner = ' class="winner"' if player["winner"] else ""
            items.append(
                f'<li{winner}>'
                f'<span class="seat-number" title="{seat_title}">{html.escape(player["seat"])}</span>'
                f'<span class="who"><a href="{html.escape(player["url"])}">'
                f'{html.escape(player["name"])}</a>'
                f'{club}</span><span class="total">{total}</span></li>'
            )
        return f'<ol class="table-players">{"".join(items)}</ol>'

    def cell_match_status(self, record) -> str:
        if not record["match_url"]:
            return ""
        state = (
            f'<a class="match-state match-state--{html.escape(str(record["match_status"]))}" '
            f'href="{html.escape(record["match_url"])}">'
            f'{html.escape(str(record["match_status_label"]))}</a>'
        )
        waiting = self.attention.get(record["match_id"])
        if waiting:
            state += f'<span class="attention">{escape(attention_line(waiting))}</span>'
        return state

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
