"""Cells written for spreadsheets (CSV, XLSX, ODS): no text that a spreadsheet runs as a formula.

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula, and some
skip a leading tab or carriage return first: a player registered as ``=HYPERLINK("http://…")``
would be a link in the organiser's spreadsheet, ``=1+2`` a sum. :func:`spreadsheet_cell` puts the usual
leading apostrophe before such text, so that it is shown as written; numbers are left alone
(a negative total stays a number). Every file the project writes for spreadsheets goes through
it: the standings, the ratings and the leagues' rankings (CSV, XLSX, ODS) and the records
archive's ``index.csv``.

:func:`csv_download` and :func:`table_download` answer the pages' ``?_export=`` downloads.
"""

from __future__ import annotations

import re

from django.http import HttpResponse
from django_tables2.export import TableExport

#: The ``?_export=`` formats a page's table is downloaded in through django-tables2.
TABLE_FORMATS = (TableExport.XLSX, TableExport.ODS)

#: What a cell's text must not begin with.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Text that is a number as a spreadsheet reads it, kept as it is ("-12", "-1.5").
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def spreadsheet_cell(value):
    """``value`` as a spreadsheet cell: text that would be read as a formula gets a leading
    apostrophe; numbers (``int``, ``float``, and text such as ``-12`` or ``-1.5``) and any other
    text are returned unchanged.

    >>> spreadsheet_cell("=1+2"), spreadsheet_cell("@SUM(1+1)"), spreadsheet_cell("+3")
    ("'=1+2", "'@SUM(1+1)", "'+3")
    >>> spreadsheet_cell("-12"), spreadsheet_cell(-12), spreadsheet_cell("Ana-Maria")
    ('-12', -12, 'Ana-Maria')
    >>> spreadsheet_cell("-20 / 410"), spreadsheet_cell("\\tx")
    ("'-20 / 410", "'\\tx")
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_download(text: str, *, filename: str) -> HttpResponse:
    """A CSV file to download, written with a BOM so that spreadsheets read it as UTF-8."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff" + text)
    return response


def table_download(table, *, export_format: str, title: str, stem: str) -> HttpResponse:
    """A page's table as an XLSX or ODS file (``TABLE_FORMATS``, through django-tables2's
    ``TableExport``: a spreadsheet reads its numbers in its own language), ``stem`` naming
    the file and ``title`` its sheet."""
    return TableExport(export_format, table, dataset_kwargs={"title": title}).response(
        filename=f"{stem}.{export_format}"
    )
