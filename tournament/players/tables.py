"""The career page's tables, from ``player_career()``'s dicts (bodies built in Python:
a long career is hundreds of matches)."""

from __future__ import annotations

import django_tables2 as tables2
from django.utils import formats
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.kit.formats import figure
from tournament.kit.tables import PythonBodyTable, QuietHeaderColumn
from tournament.standings.tables import points_display


def rating_change_display(value: float | None, *, separator: str) -> str:
    """A change of rating with its sign and one decimal ("+1,2" in French); '' for none.

    >>> rating_change_display(1.25, separator=","), rating_change_display(-0.04, separator=".")
    ('+1,3', '0.0')
    """
    if value is None:
        return ""
    return figure(value, signed=True, separator=separator)


def rating_display(value: float | None, *, separator: str) -> str:
    return "" if value is None else figure(value, separator=separator)


class CareerTournamentsTable(PythonBodyTable):
    """One row per tournament, newest first: ``player_career()["tournaments"]``."""

    tournament = tables2.Column(verbose_name=_("tournament"), orderable=False)
    date = tables2.Column(verbose_name=_("date"), accessor="tournament__start_date",
                          orderable=False)
    rank = tables2.Column(verbose_name=_("rank"), orderable=False,
                          attrs={"td": {"class": "number"}})
    matches = tables2.Column(verbose_name=_("matches"), orderable=False,
                             attrs={"td": {"class": "number"}})
    match_points = tables2.Column(verbose_name=_("match points"), orderable=False,
                                  attrs={"td": {"class": "number"}})
    page = QuietHeaderColumn(verbose_name=_("page"), accessor="url", orderable=False)

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table career-tournaments", "id": "tournaments"}
        empty_text = _("No tournament.")

    def body_row_attrs(self, record) -> str:
        rank = "" if record["rank"] is None else f'{record["rank"]:d}'
        return (f'id="tournament-{record["tournament"].pk:d}" data-rank="{rank}"'
                f'{" data-in-play" if record["in_play"] else ""}')

    def cell_tournament(self, record):
        tournament = record["tournament"]
        return format_html('<a href="{}">{}</a>', tournament.get_absolute_url(), tournament.name)

    def cell_date(self, record):
        return escape(formats.date_format(record["tournament"].start_date, "SHORT_DATE_FORMAT"))

    def cell_rank(self, record):
        if record["ranked"]:
            rank = format_html(
                '{} <span class="of">/ {}</span>', record["rank_label"], record["player_count"]
            )
        elif not record["withdrawn"]:
            return format_html('<span class="tag tag--unranked">{}</span>', gettext("not ranked"))
        else:
            rank = mark_safe("")  # noqa: S308 -- empty
        if record["withdrawn"]:
            rank += format_html(' <span class="tag">{}</span>', gettext("withdrawn"))
        if record["in_play"]:  # not a final rank yet
            rank += format_html(' <span class="tag tag--in-play">{}</span>', gettext("so far"))
        return rank

    def cell_matches(self, record):
        if not record["final_included"]:
            return escape(record["matches"])
        # a finalist: the qualifying sessions and the final together (docs/guides/final.md)
        return format_html('{} <span class="tag" data-final-included>{}</span>',
                           record["matches"], gettext("final included"))

    def cell_match_points(self, record):
        return points_display(record["match_points"], separator=self.separator)

    def cell_page(self, record):
        return format_html('<a href="{}">{}</a>', record["url"], gettext("Their page in this tournament"))


class CareerMatchesTable(PythonBodyTable):
    """One row per match, newest first: ``player_career()["matches"]``."""

    tournament = tables2.Column(verbose_name=_("tournament"), orderable=False)
    session = tables2.Column(verbose_name=_("session"), orderable=False)
    opponents = tables2.Column(verbose_name=_("opponents"), orderable=False)
    total = tables2.Column(verbose_name=_("total"), orderable=False,
                           attrs={"td": {"class": "number"}})
    rank = tables2.Column(verbose_name=_("rank at the table"), orderable=False,
                          attrs={"td": {"class": "number"}})
    winners = tables2.Column(verbose_name=_("winner"), orderable=False)
    rating_change = tables2.Column(verbose_name=_("rating change"), orderable=False,
                                   attrs={"td": {"class": "number"}})

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table career-matches", "id": "matches"}
        empty_text = _("No match yet.")

    def body_html(self):
        self._table_label = gettext("table %(table)s")
        return super().body_html()

    def body_row_attrs(self, record) -> str:
        return f'id="match-{record["match_id"]:d}" data-match="{record["match_id"]:d}"'

    def cell_tournament(self, record):
        return escape(record["tournament"].name)

    def cell_session(self, record):
        where = format_html(
            '<a href="{}#table-{}">{}</a> <span class="where">{}</span>',
            record["session_url"], record["table"], record["session"],
            self._table_label % {"table": record["table"]},
        )
        return format_html(
            '{} <a class="where match-state match-state--{}" href="{}">{}</a>',
            where, record["status"], record["url"], record["status_label"],
        )

    def cell_opponents(self, record):
        return ", ".join(
            format_html(
                '<a href="{}">{}</a>{}', opponent["url"], opponent["name"],
                "" if opponent["total"] is None else f" ({opponent['total']:d})",
            )
            for opponent in record["opponents"]
        )

    def cell_total(self, record):
        return "" if record["total"] is None else str(record["total"])

    def cell_rank(self, record):
        return "" if record["rank"] is None else str(record["rank"])

    def cell_winners(self, record):
        return escape(", ".join(record["winners"]))

    def cell_rating_change(self, record):
        return rating_change_display(record["rating_change"], separator=self.separator)
