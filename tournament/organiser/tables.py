"""The organiser's tables (django-tables2)."""

from __future__ import annotations

import django_tables2 as tables2
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.kit.tables import QuietHeaderTemplateColumn
from tournament.models import Registration, Session, StaffRole


class OrganiserSessionTable(tables2.Table):
    number = tables2.Column(
        verbose_name=_("session"),
        linkify=lambda record: reverse(
            "tournament:session_organise",
            kwargs={"slug": record.tournament.slug, "number": record.number},
        ),
    )
    table_count = tables2.Column(verbose_name=_("tables"))
    seat_count = tables2.Column(verbose_name=_("players seated"))
    confirmed_count = tables2.Column(verbose_name=_("matches confirmed"))

    class Meta:
        model = Session
        fields = ("number", "status", "table_count", "seat_count", "confirmed_count")
        empty_text = _("No session yet.")
        attrs = {"class": "data-table", "id": "organiser-sessions"}

    def render_number(self, value, record):
        if record.is_final:
            return _("%(number)s (final)") % {"number": value}
        return value


class OrganiserRegistrationTable(tables2.Table):
    name = tables2.Column(
        accessor="player__name",
        order_by="player__name_key",
        verbose_name=_("player"),
        linkify=lambda record: reverse(
            "tournament:registration_edit",
            kwargs={"slug": record.tournament.slug, "registration_id": record.pk},
        ),
    )
    club = tables2.Column(accessor="player__club", verbose_name=_("club"))
    licence = tables2.Column(accessor="player__licence", verbose_name=_("licence number"))
    first_session = tables2.Column(verbose_name=_("first session"))
    categories = tables2.Column(verbose_name=_("categories"), empty_values=(), orderable=False)
    actions = QuietHeaderTemplateColumn(
        template_name="tournament/organiser/_registration_actions.html",
        verbose_name=_("actions"),
        orderable=False,
    )

    class Meta:
        model = Registration
        fields = ("name", "club", "licence", "status", "first_session", "categories",
                  "actions")
        empty_text = _("No player registered yet: add them one by one or import a CSV file.")
        attrs = {"class": "data-table", "id": "organiser-players"}
        row_attrs = {"class": lambda record: f"registration--{record.status}"}


    def render_categories(self, record):
        return ", ".join(sorted((category.name for category in record.categories.all()),
                                key=str.casefold))


class StaffRoleTable(tables2.Table):
    username = tables2.Column(accessor="user__username", verbose_name=_("user"))
    tables = tables2.Column(verbose_name=_("tables"), default=_("all"))
    revoke = QuietHeaderTemplateColumn(
        template_name="tournament/parts/_staff_revoke_button.html",
        verbose_name=_("actions"),
        orderable=False,
    )

    class Meta:
        model = StaffRole
        fields = ("username", "role", "tables", "revoke")
        empty_text = _("No staff yet.")
        attrs = {"class": "data-table", "id": "staff"}
