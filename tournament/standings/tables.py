"""The standings as a django-tables2 table (from ``standings_rows()``'s dicts, sortable) and
their exports: CSV written straight from the rows (:func:`standings_csv`), XLSX and ODS through
django-tables2's export (tablib), each cell from :func:`export_value`."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import django_tables2 as tables2
from django.utils import formats
from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.kit.spreadsheet import spreadsheet_cell
from tournament.kit.tables import PlayerRankingTable, rank_value
from tournament.models import RankingCriterion
from tournament.standings.final import STAGE_FINAL
from tournament.standings.ranking import CRITERIA

#: The printed standings' headers of the criteria: short, so that six columns of figures fit;
#: the legend above the table spells each one out.
PRINT_HEADERS = {
    "match_points": pgettext_lazy("short for: match points", "MP"),
    "table_wins": pgettext_lazy("short for: table wins", "Wins"),
    "total_points": pgettext_lazy("short for: total points", "Total"),
    "share": pgettext_lazy("short for: average share of the table's points", "Share"),
    "best_match": pgettext_lazy("short for: best match", "Best"),
    "opponents": pgettext_lazy("short for: opponents' strength", "Opp."),
}
#: The printed standings turn landscape beyond this many criteria.
PRINT_PORTRAIT_CRITERIA = 3

#: Decimals that show any match points exactly (multiples of 1/40 at tables of 2 to 6).
POINTS_DECIMALS = 3

LEADING_COLUMNS = ("rank", "name", "club", "matches")
#: Columns of the exports only (not shown on the page: "3=" and a tag there): whether the
#: rank is shared, after the rank (so that the rank stays a number a spreadsheet sorts), and
#: the status, after the criteria.
EXPORT_LEADING_COLUMNS = ("rank", "tie", "name", "club", "matches")
TRAILING_COLUMNS = ("status",)
#: The exports' column of a tournament whose final is decided (docs/guides/final.md), after the tie:
#: which part of the standings placed the player, the final or the qualifying sessions.
STAGE_COLUMN = "stage"


def export_names(criteria, *, final: bool = False, check_in: bool = False) -> tuple[str, ...]:
    """The exports' column names for ``criteria``; ``final``: with the stage column;
    ``check_in``: with the sessions missed."""
    leading = EXPORT_LEADING_COLUMNS
    if final:
        leading = (*leading[:2], STAGE_COLUMN, *leading[2:])
    absent = ("absent",) if check_in else ()
    return (*leading, *criteria, *absent, *TRAILING_COLUMNS)

#: The CSV's two dialects, named for what they write: ``semicolon`` (``;`` between columns,
#: decimal commas: what a French spreadsheet opens in columns) and ``comma`` (``,`` and
#: decimal points). Without a choice the page's language decides (:func:`csv_dialect`).
CSV_DIALECTS = {"semicolon": (";", ","), "comma": (",", ".")}


def csv_dialect(asked: str | None) -> str:
    """The CSV dialect asked for (``?csv=``), else the one the active language's spreadsheets
    open in columns: ``semicolon`` where the decimal separator is a comma."""
    if asked in CSV_DIALECTS:
        return asked
    return "semicolon" if formats.get_format("DECIMAL_SEPARATOR") == "," else "comma"


def csv_choices() -> list[tuple[str, str]]:
    """The CSV downloads the page offers, (dialect, label), the active language's first."""
    labels = {
        "semicolon": _("Download (CSV: semicolons, decimal commas)"),
        "comma": _("Download (CSV: commas, decimal points)"),
    }
    first = csv_dialect(None)
    return [(first, str(labels[first]))] + [
        (dialect, str(label)) for dialect, label in labels.items() if dialect != first]


def points_display(value: float, *, separator: str | None = None) -> str:
    """Points exactly as counted, without trailing zeros, with the page's decimal separator
    (7,5 in French).

    Match points, and opponents' strength which sums them, are exact multiples of 1/40 point
    at tables of 2 to 6 players (two tied second at a table of 5: 1.875 each): three decimals
    show every one of them exactly, never rounded.

    >>> points_display(7.5, separator=",")
    '7,5'
    >>> points_display(3.0, separator=",")
    '3'
    >>> points_display(1.875, separator=","), points_display(1.875, separator=".")
    ('1,875', '1.875')
    >>> points_display(0.025 * 7, separator=".")
    '0.175'
    """
    separator = separator or formats.get_format("DECIMAL_SEPARATOR")
    text = f"{value:.{POINTS_DECIMALS}f}".rstrip("0").rstrip(".")
    return text.replace(".", separator)


def criterion_display(code: str, row: dict, *, separator: str | None = None) -> str:
    """A row's score on one criterion, as the pages show it (plain text; a share's "%" is
    held to its figure by a no-break space, so that a narrow column never parts them)."""
    value = row[code]
    if code in ("match_points", "opponents"):
        return points_display(value, separator=separator)
    if code == "share":
        separator = separator or formats.get_format("DECIMAL_SEPARATOR")
        # Translators: a percentage; French puts a narrow no-break space before the sign.
        return gettext("%(percent)s%%") % {"percent": f"{value * 100:.1f}".replace(".", separator)}
    return str(value)


class StandingsTable(PlayerRankingTable):
    """One row per player; the chosen criteria's columns, in the tournament's order.

    Build it with ``StandingsTable.for_criteria(rows, criteria)``.
    """

    matches = tables2.Column(verbose_name=_("matches"), attrs={
        "td": {"class": "number col-secondary"}, "th": {"class": "col-secondary"}})
    match_points = tables2.Column(verbose_name=_("match points"), attrs={"td": {"class": "number"}})
    table_wins = tables2.Column(verbose_name=_("table wins"), attrs={"td": {"class": "number"}})
    total_points = tables2.Column(verbose_name=_("total points"), attrs={"td": {"class": "number"}})
    share = tables2.Column(verbose_name=_("share"), attrs={"td": {"class": "number"}})
    best_match = tables2.Column(verbose_name=_("best match"), attrs={"td": {"class": "number"}})
    opponents = tables2.Column(verbose_name=_("opponents"), attrs={"td": {"class": "number"}})
    status = tables2.Column(verbose_name=_("status"), accessor="withdrawn", visible=False)
    # With check-in (docs/guides/check-in.md): the sessions missed; shown only then (for_criteria).
    absent = tables2.Column(verbose_name=_("absent"), accessor="absent_sessions",
                            orderable=False, attrs={"td": {"class": "absent"}})
    # Sorting by rank keeps the list's order: the players ranked, then the others.
    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "rank"}},
                          order_by="position")
    tie = tables2.Column(verbose_name=_("tied"), accessor="rank_label", visible=False,
                         orderable=False)
    stage = tables2.Column(verbose_name=_("placed by"), accessor="position", visible=False,
                           orderable=False)

    class Meta(PlayerRankingTable.Meta):
        attrs = {"class": "data-table standings", "id": "standings"}
        order_by = ("rank",)
        empty_text = _("No player registered yet.")
        row_attrs = {"data-player": lambda record: record["player_id"]}

    @classmethod
    def for_criteria(cls, rows, criteria, *, final: bool = False, check_in: bool = False,
                     **kwargs) -> StandingsTable:
        """The table with the chosen criteria's columns only, in their order; ``final``: with
        the exports' stage column (docs/guides/final.md); ``check_in``: the sessions each player
        missed, after the criteria (the tournament uses check-in: docs/guides/check-in.md)."""
        return cls(
            rows,
            sequence=export_names(criteria, final=final, check_in=check_in),
            exclude=[code for code in CRITERIA if code not in criteria]
            + ([] if final else [STAGE_COLUMN]) + ([] if check_in else ["absent"]),
            **kwargs,
        )

    def cell_name(self, record):
        link = super().cell_name(record)
        if record["withdrawn"]:
            link += f' <span class="tag">{escape(_("withdrawn"))}</span>'
        elif not record["ranked"]:
            link += f' <span class="tag tag--unranked">{escape(_("not ranked"))}</span>'
        return link

    def cell_absent(self, record):
        """The sessions missed, "forfeit" after each one that counts as a match for nothing."""
        sessions = record["absent_sessions"]
        if not sessions:
            return "—"
        label = ", ".join(str(number) for number in sessions)
        if record["forfeits"]:
            word = escape(_("forfeit"))
            label += f' <span class="tag" data-forfeits="{record["forfeits"]}">{word}</span>'
        return label  # numbers and an escaped word

    def value_absent(self, record):
        return export_value("absent", record)

    def cell_match_points(self, record):
        return criterion_display("match_points", record, separator=self.separator)

    def cell_opponents(self, record):
        return criterion_display("opponents", record, separator=self.separator)

    def cell_share(self, record):
        return criterion_display("share", record, separator=self.separator)

    # The XLSX and ODS exports (django-tables2's TableExport reads these): typed cells.
    def value_rank(self, record):
        return export_value("rank", record)

    def value_tie(self, record):
        return export_value("tie", record)

    def value_status(self, record):
        return export_value("status", record)

    def value_stage(self, record):
        return export_value(STAGE_COLUMN, record)

    def value_match_points(self, record):
        return export_value("match_points", record)

    def value_opponents(self, record):
        return export_value("opponents", record)

    def value_share(self, record):
        return export_value("share", record)


def export_columns(criteria, *, final: bool = False, check_in: bool = False
                   ) -> list[tuple[str, str]]:
    """The exports' columns, names and headers: the page's columns for ``criteria`` (the
    sessions missed with ``check_in``), then the status (headers in the active language, as
    on the page); ``final``: with the stage."""
    names = export_names(criteria, final=final, check_in=check_in)
    return [(name, capfirst(str(StandingsTable.base_columns[name].verbose_name))) for name in names]


def export_value(name: str, row: dict):
    """A row's cell in the exports: numbers as numbers (match points and opponents' strength
    exact, the share from 0 to 1 to four decimals), the rank a number (3 for "3=", empty when
    not ranked), the tie "tied" or nothing, the status "withdrawn", "not ranked" (no confirmed
    match) or nothing, and text that a spreadsheet would run as a formula neutralised
    (:func:`tournament.kit.spreadsheet.spreadsheet_cell`)."""
    if name == "rank":
        return rank_value(row["rank_label"].rstrip("="))
    if name == "tie":
        return str(_("tied")) if row["rank_label"].endswith("=") else ""
    if name == STAGE_COLUMN:
        return str(_("Final") if row.get("stage") == STAGE_FINAL else _("Qualifying"))
    if name == "status":
        if row["withdrawn"]:
            return str(_("withdrawn"))
        return "" if row["ranked"] else str(_("not ranked"))
    if name == "share":
        return round(row["share"], 4)
    if name == "absent":  # the sessions missed (docs/guides/check-in.md)
        return ", ".join(str(number) for number in row["absent_sessions"])
    return spreadsheet_cell(row[name])


def csv_cell(name: str, value, *, decimal: str = "."):
    """An export's cell (:func:`export_value`) as CSV text: ``decimal`` between units and
    decimals, match points and opponents' strength exact, the share to four decimals."""
    if name in ("match_points", "opponents"):
        return points_display(value, separator=decimal)
    if name == "share":
        return f"{value:.4f}".replace(".", decimal)
    return value


def standings_csv(*, rows, criteria, dialect: str = "comma", final: bool = False,
                  check_in: bool = False) -> str:
    """The standings as CSV text, written straight from the rows (best first): a header line,
    then a line per player (:func:`csv_cell`), in ``dialect`` (``CSV_DIALECTS``); ``final``:
    with the stage column (docs/guides/final.md); ``check_in``: the sessions each player missed."""
    delimiter, decimal = CSV_DIALECTS[dialect]
    columns = export_columns(criteria, final=final, check_in=check_in)
    text = io.StringIO()
    writer = csv.writer(text, delimiter=delimiter)
    writer.writerow([header for _name, header in columns])
    names = [name for name, _header in columns]
    for row in rows:
        writer.writerow([csv_cell(name, export_value(name, row), decimal=decimal)
                         for name in names])
    return text.getvalue()


@dataclass(frozen=True)
class PrintLayout:
    """How the printed standings lay out ``criteria``: ``columns`` (name, header), the
    ``legend`` (short header, the criterion's name) in the criteria's order, and ``wide``
    (A4 landscape: more than ``PRINT_PORTRAIT_CRITERIA`` criteria)."""

    columns: list[tuple[str, str]]
    legend: list[tuple[str, str]]
    wide: bool


def print_layout(criteria, *, check_in: bool = False) -> PrintLayout:
    """The printed standings' columns: the page's leading columns, then each criterion under
    its short header (``PRINT_HEADERS``), explained by the legend; ``check_in``: then the
    sessions each player missed, as on the page (docs/guides/check-in.md)."""
    labels = dict(RankingCriterion.choices)
    leading = [(name, str(StandingsTable.base_columns[name].verbose_name))
               for name in LEADING_COLUMNS]
    legend = [(str(PRINT_HEADERS[code]), str(labels[code])) for code in criteria]
    absent = [("absent", str(StandingsTable.base_columns["absent"].verbose_name))] if check_in else []
    return PrintLayout(
        columns=leading + [(code, short) for code, (short, _label) in zip(criteria, legend)]
        + absent,
        legend=legend,
        wide=len(criteria) > PRINT_PORTRAIT_CRITERIA,
    )
