"""The ratings as a django-tables2 table (from ``ratings_rows()``'s dicts) and their exports:
CSV written straight from the rows (:func:`ratings_csv`), XLSX and ODS through django-tables2's
export (tablib), each cell from :func:`export_value`; the PDF's cells from :func:`print_rows`."""

from __future__ import annotations

import csv
import io

import django_tables2 as tables2
from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.kit.formats import figure
from tournament.kit.spreadsheet import spreadsheet_cell
from tournament.kit.tables import PlayerRankingTable, rank_value

#: Decimals shown on the page and in the PDF (the rating, its mean and its uncertainty).
SHOWN_DECIMALS = 1
#: Decimals of the exports' figures.
EXPORT_DECIMALS = 3

#: The exports' columns: the page's, with the last event's change and name apart, and
#: whether the rating is provisional (the page's tag next to the rating).
EXPORT_COLUMNS = (
    "rank", "name", "club", "conservative", "provisional", "mu", "sigma", "matches",
    "last_event_change", "last_event",
)


#: The mark of a rating of fewer rated matches than ``PROVISIONAL_MATCHES``.
PROVISIONAL = _("provisional")


def figure_display(value: float, *, separator: str | None = None, signed: bool = False) -> str:
    """A figure to one decimal with the page's decimal separator (12,3 in French), rounded
    half away from zero (``tournament.kit.formats.figure``); ``signed``: with its sign, "0.0"
    for no change.

    >>> figure_display(12.34, separator=","), figure_display(-0.04, separator=".", signed=True)
    ('12,3', '0.0')
    >>> figure_display(-2.26, separator=".", signed=True)
    '-2.3'
    """
    return figure(value, places=SHOWN_DECIMALS, signed=signed, separator=separator)


def change_display(row: dict, *, separator: str | None = None) -> str:
    """The change at the last event with the event's name: "+3.2 (Spring Open)"."""
    change = figure_display(row["last_event_change"], separator=separator, signed=True)
    return f"{change} ({row['last_event']})" if row["last_event"] else change


class RatingsTable(PlayerRankingTable):
    """One row per rated player, best first."""

    conservative = tables2.Column(verbose_name=_("rating"), attrs={"td": {"class": "number"}})
    mu = tables2.Column(verbose_name=_("mean"), attrs={"td": {"class": "number"}})
    sigma = tables2.Column(verbose_name=_("uncertainty"), attrs={"td": {"class": "number"}})
    matches = tables2.Column(verbose_name=_("rated matches"), attrs={"td": {"class": "number"}})
    last_event_change = tables2.Column(
        verbose_name=_("change at the last event"), attrs={"td": {"class": "number"}}
    )
    last_event = tables2.Column(verbose_name=_("last event"), visible=False)
    provisional = tables2.Column(verbose_name=_("provisional"), visible=False)

    class Meta(PlayerRankingTable.Meta):
        attrs = {"class": "data-table ratings", "id": "ratings"}
        orderable = False
        empty_text = _("No rated player yet.")

    def cell_conservative(self, record):
        shown = f"<b>{figure_display(record['conservative'], separator=self.separator)}</b>"
        if record["provisional"]:
            shown += f' <span class="tag tag--provisional">{escape(PROVISIONAL)}</span>'
        return shown

    def cell_mu(self, record):
        return figure_display(record["mu"], separator=self.separator)

    def cell_sigma(self, record):
        return figure_display(record["sigma"], separator=self.separator)

    def cell_last_event_change(self, record):
        return escape(change_display(record, separator=self.separator))

    # The XLSX and ODS exports (django-tables2's TableExport reads these): typed cells.
    def as_values(self, exclude_columns=None):
        """Every export column, headers capitalised as in the CSV."""
        yield [spreadsheet_cell(header) for _name, header in export_columns()]
        for row in self.data:
            yield [export_value(name, row) for name in EXPORT_COLUMNS]


def export_columns() -> list[tuple[str, str]]:
    """The exports' columns and their headers, in the active language."""
    return [
        (name, capfirst(str(RatingsTable.base_columns[name].verbose_name)))
        for name in EXPORT_COLUMNS
    ]


def export_value(name: str, row: dict):
    """A row's cell in the exports: figures as numbers to three decimals, the rank as shown
    ("3=" for a tie, else a number), text that a spreadsheet would run as a formula
    neutralised (:func:`tournament.kit.spreadsheet.spreadsheet_cell`); a provisional rating
    marked as the page marks it, by the word "provisional" (empty otherwise)."""
    if name == "rank":
        return rank_value(row["rank_label"])
    if name == "provisional":
        return str(PROVISIONAL) if row["provisional"] else ""
    value = row[name]
    if isinstance(value, float):
        return round(value, EXPORT_DECIMALS) + 0.0
    return spreadsheet_cell(value)


def ratings_csv(*, rows) -> str:
    """The ratings as CSV text, best first: a header line, then a line per player."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([spreadsheet_cell(header) for _name, header in export_columns()])
    for row in rows:
        writer.writerow([export_value(name, row) for name in EXPORT_COLUMNS])
    return text.getvalue()


def print_rows(rows) -> list[dict]:
    """The PDF's rows: the page's cells as text (figures to one decimal), and whether the
    rating is provisional (marked next to it, as on the page)."""
    return [
        {
            "rank": row["rank_label"], "name": row["name"], "club": row["club"],
            "conservative": figure_display(row["conservative"]),
            "mu": figure_display(row["mu"]), "sigma": figure_display(row["sigma"]),
            "matches": row["matches"], "change": change_display(row),
            "provisional": row["provisional"],
        }
        for row in rows
    ]
