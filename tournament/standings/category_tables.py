"""A category's standings as a table (the standings' own, with the main ranking's rank beside
the category's) and its CSV; the club teams' table (docs/guides/categories.md)."""

from __future__ import annotations

import csv
import io

import django_tables2 as tables2
from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.kit.tables import PythonBodyTable, rank_value
from tournament.standings.ranking import CRITERIA
from tournament.standings.tables import (
    CSV_DIALECTS,
    EXPORT_LEADING_COLUMNS,
    TRAILING_COLUMNS,
    StandingsTable,
    criterion_display,
    csv_cell,
    export_columns,
    export_value,
)


class CategoryStandingsTable(StandingsTable):
    """:class:`StandingsTable` of a category's rows (``category_rows``): the rank within the
    category, then the rank in the main standings (``overall``)."""

    overall = tables2.Column(verbose_name=_("overall rank"), accessor="overall_rank_label",
                             order_by="position", attrs={"td": {"class": "rank"}})

    class Meta(StandingsTable.Meta):
        attrs = {"class": "data-table standings", "id": "category-standings"}
        empty_text = _("No player in this category.")

    @classmethod
    def for_criteria(cls, rows, criteria, **kwargs) -> CategoryStandingsTable:
        return cls(
            rows,
            sequence=(*category_columns(criteria),),
            exclude=[code for code in CRITERIA if code not in criteria],
            **kwargs,
        )

    def cell_overall(self, record):
        return escape(record["overall_rank_label"])

    def value_overall(self, record):
        return rank_value(record["overall_rank_label"])


def category_columns(criteria) -> tuple[str, ...]:
    """A category's columns: the standings' exports', the overall rank after the tie."""
    leading = list(EXPORT_LEADING_COLUMNS)
    leading.insert(leading.index("tie") + 1, "overall")
    return (*leading, *criteria, *TRAILING_COLUMNS)


def category_csv(*, rows, criteria, dialect: str = "comma") -> str:
    """A category's standings as CSV text, as :func:`tournament.standings.tables.standings_csv`
    writes the standings, with the overall rank after the tie."""
    delimiter, decimal = CSV_DIALECTS[dialect]
    headers = dict(export_columns(criteria))
    headers["overall"] = capfirst(str(CategoryStandingsTable.base_columns["overall"].verbose_name))
    names = category_columns(criteria)
    text = io.StringIO()
    writer = csv.writer(text, delimiter=delimiter)
    writer.writerow([headers[name] for name in names])
    for row in rows:
        writer.writerow([
            rank_value(row["overall_rank_label"]) if name == "overall"
            else csv_cell(name, export_value(name, row), decimal=decimal)
            for name in names
        ])
    return text.getvalue()


def team_players_display(team: dict) -> str:
    """The counted players of a club's team, each with their rank in the main standings:
    "Ana Roy (1), Bo Lin (4=)"."""
    return ", ".join(f"{row['name']} ({row['rank_label']})" for row in team["counted"])


class ClubTeamsTable(PythonBodyTable):
    """The clubs ranked by their best players (``club_teams``' rows)."""

    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "rank"}},
                          order_by="position")
    club = tables2.Column(verbose_name=_("club"))
    score = tables2.Column(verbose_name=_("score"), attrs={"td": {"class": "number"}})
    players = tables2.Column(verbose_name=_("players ranked"),
                             attrs={"td": {"class": "number col-secondary"},
                                    "th": {"class": "col-secondary"}})
    counted = tables2.Column(verbose_name=_("players counted"), orderable=False)

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table standings", "id": "club-teams"}
        orderable = False
        empty_text = _("No club has a ranked player yet.")

    def body_row_attrs(self, record) -> str:
        return f'data-club="{escape(record["club"])}"'

    def cell_rank(self, record):
        return escape(record["rank_label"])

    def cell_score(self, record):
        return escape(criterion_display(record["criterion"], {record["criterion"]: record["score"]},
                                        separator=self.separator))

    def cell_counted(self, record):
        text = escape(team_players_display(record))
        if not record["ranked"]:
            label = escape(_("too few players"))
            text += f' <span class="tag tag--unranked">{label}</span>'
        return text
