"""django-tables2 tables for the pages' lists."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils.translation import gettext_lazy as _

from tournament.models import Registration, Session, StaffRole, Tournament


class TournamentTable(tables2.Table):
    name = tables2.Column(linkify=True)
    player_count = tables2.Column(verbose_name=_("players"))
    session_count = tables2.Column(verbose_name=_("sessions"))

    class Meta:
        model = Tournament
        fields = ("name", "start_date", "end_date", "venue", "player_count", "session_count")
        empty_text = _("No tournament yet.")
        attrs = {"class": "data-table", "id": "tournaments"}


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


class StaffRoleTable(tables2.Table):
    username = tables2.Column(accessor="user__username", verbose_name=_("user"))
    tables = tables2.Column(verbose_name=_("tables"), default=_("all"))
    revoke = tables2.TemplateColumn(
        template_name="tournament/_staff_revoke_button.html",
        verbose_name="",
        orderable=False,
    )

    class Meta:
        model = StaffRole
        fields = ("username", "role", "tables", "revoke")
        empty_text = _("No staff yet.")
        attrs = {"class": "data-table", "id": "staff"}
