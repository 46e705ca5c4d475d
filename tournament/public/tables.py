"""The tables of the public pages that are not the seating's or the standings'."""

from __future__ import annotations

import html

import django_tables2 as tables2
from django.template.loader import get_template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournament.core.tables import PythonBodyTable
from tournament.standings.tables import points_display

#: Stands for a table's body in its kept shell (``table_html``).
BODY_MARKER = "\x00python-body\x00"
#: Each table's shell (all its HTML but the body's rows), split at the body, by table class,
#: prefix and language: the same for every page without a query string.
_shells: dict[tuple[type, str, str], tuple[str, str]] = {}


def table_html(table: PythonBodyTable, request) -> SafeString:
    """The table's HTML, as ``{% render_table table %}`` writes it.

    The polled pages are made again at nearly every poll while the tables play, and
    django-tables2's template (headers, sorting links) costs more than a small table's body:
    for a request without a query string (nothing to sort by), the shell is rendered once a
    process for the table's class, prefix and language, and only the body made each time.
    """
    if request.GET:
        return _rendered(table, request)
    key = (type(table), table.prefix, get_language())
    shell = _shells.get(key)
    if shell is None:
        body_html = table.body_html
        table.body_html = lambda: mark_safe(BODY_MARKER)
        try:
            before, after = _rendered(table, request).split(BODY_MARKER)
        finally:
            table.body_html = body_html
        shell = _shells[key] = (before, after)
    return mark_safe(f"{shell[0]}{table.body_html()}{shell[1]}")  # the template's, the body's


def _rendered(table: PythonBodyTable, request) -> SafeString:
    """``{% render_table table %}``: its template, with the table and the request."""
    table.before_render(request)
    return get_template(table.template_name).render(context={"table": table}, request=request)


class PlayerMatchesTable(PythonBodyTable):
    """A player's matches, one per session: from ``player_page()["matches"]``.

    Its body is built in Python (``PythonBodyTable``): the player's page is polled every 15
    seconds while a session is in play, and its matches change with each turn."""

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
