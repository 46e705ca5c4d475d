"""The tables of the home page and of a tournament's page: tournaments, sessions, players."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.translation import gettext_lazy as _

from tournament.models import Registration, Session, Tournament


class TournamentTable(tables2.Table):
    """The tournaments, each with its dates, venue and address: two alike (an archive and
    its copy, same name and dates) are told apart by their address."""

    name = tables2.Column(linkify=True)
    address = tables2.Column(verbose_name=_("address"), accessor="slug", orderable=False,
                             attrs={"td": {"class": "address"}})
    player_count = tables2.Column(verbose_name=_("players"))
    session_count = tables2.Column(verbose_name=_("sessions"))

    class Meta:
        model = Tournament
        fields = ("name", "start_date", "end_date", "venue", "address", "player_count",
                  "session_count")
        empty_text = _("No tournament yet.")
        attrs = {"class": "data-table", "id": "tournaments"}

    def render_address(self, record) -> str:
        return record.get_absolute_url()


class SessionTable(tables2.Table):
    number = tables2.Column(verbose_name=_("session"))
    table_count = tables2.Column(verbose_name=_("tables"))
    matches_done = tables2.Column(verbose_name=_("matches finished"))

    class Meta:
        model = Session
        fields = ("number", "status", "table_count", "matches_done")
        empty_text = _("No session yet.")
        attrs = {"class": "data-table", "id": "sessions"}


class RegistrationTable(tables2.Table):
    name = tables2.Column(accessor="player__name", order_by="player__name_key",
                          verbose_name=_("player"))
    club = tables2.Column(accessor="player__club", verbose_name=_("club"))

    class Meta:
        model = Registration
        fields = ("name", "club", "status")
        empty_text = _("No player registered yet.")
        attrs = {"class": "data-table", "id": "players"}
