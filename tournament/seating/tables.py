"""The seating as django-tables2 tables, from ``session_seating()``'s plain data."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class SeatingTable(tables2.Table):
    """One row per table: its players in clockwise seat order, its match and the match's state."""

    number = tables2.Column(verbose_name=pgettext_lazy("game table", "table"),
                            attrs={"td": {"class": "table-number"}})
    players = tables2.TemplateColumn(
        template_name="tournament/seating/_table_players.html",
        verbose_name=_("players, clockwise"),
        orderable=False,
    )
    match_status = tables2.TemplateColumn(
        template_name="tournament/seating/_table_match.html",
        verbose_name=_("match"),
    )

    class Meta:
        attrs = {"class": "data-table seating", "id": "seating"}
        row_attrs = {"id": lambda record: f"table-{record['number']}"}
        empty_text = _("This session is not seated yet.")

    def value_players(self, value):
        return " / ".join(player["name"] for player in value)

    def value_match_status(self, record):
        return record["match_status_label"]


class PlayerSeatTable(tables2.Table):
    """Every seated player by name, with their table and seat: to find one's table."""

    name = tables2.Column(verbose_name=_("player"), linkify=lambda record: record["url"])
    club = tables2.Column(verbose_name=_("club"), attrs={"td": {"class": "club"}})
    table = tables2.Column(
        verbose_name=pgettext_lazy("game table", "table"),
        linkify=lambda record: f"#table-{record['table']}",
        attrs={"td": {"class": "table-number"}},
    )
    seat = tables2.Column(verbose_name=_("seat"), attrs={"td": {"class": "number"}})

    class Meta:
        attrs = {"class": "data-table seats", "id": "seats"}
        empty_text = _("This session is not seated yet.")
