"""The players' CSV file, read without touching the database: one player a line, ``name, club,
licence, categories`` (all but the name may be blank; the categories one cell, their names
separated by commas: :func:`category_names`), separated by commas, semicolons or tabs (sniffed on
the first lines), a header line allowed. :func:`players_csv_lines` returns the lines, or
raises ``ValidationError`` listing every bad line with its number and the reason.

The registrations' checks against the tournament's players are the services' business
(``tournament.organiser.services.registrations``)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.models import Category

# The first cell of a header line (any case), in the languages of the tool.
CSV_HEADER_NAMES = {"name", "nom", "player", "joueur", "joueuse", "nom du joueur"}


CSV_COLUMNS = 4  # name, club, licence, categories


CSV_MAX_LINES = 5000


@dataclass(frozen=True)
class PlayerLine:
    """A player to enter: from a CSV line (``line`` its number) or from the form (line 0)."""

    line: int
    name: str
    club: str = ""
    licence: str = ""
    categories: tuple[str, ...] = ()


def category_names(text: str) -> tuple[str, ...]:
    """The category names of a cell or a field: separated by commas, spaces trimmed and
    collapsed, empty ones dropped, each name once whatever its case (the first spelling kept).

    >>> category_names(" Juniors, Dames ,, juniors,  Club   Est")
    ('Juniors', 'Dames', 'Club Est')
    """
    names: dict[str, str] = {}
    for part in text.split(","):
        name = " ".join(part.split())
        if name:
            names.setdefault(name.casefold(), name)
    return tuple(names.values())


def category_names_problem(names: Sequence[str]) -> ValidationError | None:
    """Why these category names cannot be given to a player (a name too long), None if
    they can."""
    for name in names:
        if len(name) > Category.NAME_MAX_LENGTH:
            return ValidationError(
                _("the category “%(name)s” is longer than %(max)s characters.")
                % {"name": name[:Category.NAME_MAX_LENGTH] + "…",
                   "max": Category.NAME_MAX_LENGTH},
                code="category-too-long",
            )
    return None


#: The separators a spreadsheet saves a CSV with, preferred in this order on a tie.
CSV_SEPARATORS = (";", "\t", ",")


#: How many non-blank lines the separator is guessed from.
CSV_SAMPLE_LINES = 50


#: How many bad lines a refusal lists (then a count of the others): a broken file of 100,000
#: lines must not make a page of megabytes.
CSV_MAX_ERRORS = 100


def _cell_count(line: str, separator: str) -> int:
    """How many cells ``line`` has with this separator (quotes respected), 0 if unreadable."""
    try:
        rows = list(csv.reader([line], delimiter=separator, strict=True))
    except csv.Error:
        return 0
    return len(rows[0]) if rows else 0


def csv_separator(lines: Sequence[str]) -> str:
    """The separator of a CSV: among ``;``, tab and ``,``, the one that splits the most of its
    first non-blank lines (a sample), not the first line alone, so that a one-column header
    (``nom``) does not hide the ``;`` of the lines below it. ``,`` when none splits a line.

    >>> csv_separator(["nom", "Bob;Club B;L-77", "Ana;Club A"])
    ';'
    >>> csv_separator(["Ana", "Bo"])
    ','
    """
    sample = [line for line in lines if line.strip()][:CSV_SAMPLE_LINES]
    splits = {
        separator: sum(1 for line in sample if _cell_count(line, separator) > 1)
        for separator in CSV_SEPARATORS
    }
    best = max(CSV_SEPARATORS, key=lambda separator: splits[separator])  # first on a tie
    return best if splits[best] else ","


def players_csv_read(text: str) -> tuple[list[PlayerLine], list[tuple[int, str, str]]]:
    """The lines of a CSV of players, and the (line number, message, code) of those that
    cannot be read."""
    text = text.lstrip("\ufeff")
    physical_lines = text.splitlines(keepends=True)
    delimiter = csv_separator(physical_lines)
    others = [separator for separator in CSV_SEPARATORS if separator != delimiter]
    reader = csv.reader(physical_lines, delimiter=delimiter, strict=True)
    lines: list[PlayerLine] = []
    errors: list[tuple[int, str, str]] = []
    first_row = True
    try:
        for row in reader:
            cells = [cell.strip() for cell in row]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            if first_row and cells[0].casefold() in CSV_HEADER_NAMES:
                first_row = False
                continue
            first_row = False
            if any("\n" in cell or "\r" in cell for cell in cells):
                errors.append((reader.line_num, _("a cell runs over several lines."),
                               "csv-multiline"))
                continue
            raw = physical_lines[reader.line_num - 1]  # the record is this one line
            if len(row) == 1 and (
                other := next((sep for sep in others if _cell_count(raw, sep) > 1), None)
            ):
                errors.append((
                    reader.line_num,
                    _("separated by “%(other)s” while the file’s other lines use “%(used)s”: "
                      "use one separator throughout.")
                    % {"other": _separator_name(other), "used": _separator_name(delimiter)},
                    "csv-separator",
                ))
                continue
            if len(cells) > CSV_COLUMNS:
                errors.append((
                    reader.line_num,
                    _("%(count)s columns, expected at most 4: name, club, licence, "
                      "categories.")
                    % {"count": len(cells)},
                    "csv-columns",
                ))
                continue
            cells += [""] * (CSV_COLUMNS - len(cells))
            categories = category_names(cells[3])
            if problem := category_names_problem(categories):
                errors.append((reader.line_num, problem.message, problem.code))
                continue
            lines.append(PlayerLine(reader.line_num, *cells[:3], categories=categories))
            if len(lines) > CSV_MAX_LINES:
                raise ValidationError(
                    _("The file has more than %(max)s players.") % {"max": CSV_MAX_LINES},
                    code="csv-too-many",
                )
    except csv.Error as error:
        if "end of data" in str(error):
            reason = _("a quotation mark is never closed.")
        elif "expected after" in str(error):
            reason = _("text follows a closing quotation mark: put the whole cell in quotes.")
        else:
            reason = _("it cannot be read as CSV (%(error)s).") % {"error": error}
        errors.append((reader.line_num, reason, "csv-quote"))
    return lines, errors


def _separator_name(separator: str) -> str:
    return _("tab") if separator == "\t" else separator


def csv_line_errors(errors: list[tuple[int, str, str]]) -> list[ValidationError]:
    """The bad lines in order, each with its number: the first ``CSV_MAX_ERRORS``, then how
    many more there are."""
    errors = sorted(errors, key=lambda error: error[0])
    listed = [
        ValidationError(_("Line %(line)s: %(reason)s"), code=code,
                        params={"line": line, "reason": message})
        for line, message, code in errors[:CSV_MAX_ERRORS]
    ]
    if len(errors) > CSV_MAX_ERRORS:
        more = len(errors) - CSV_MAX_ERRORS
        listed.append(ValidationError(
            _("Bad lines not listed: %(count)s."), code="csv-more-errors", params={"count": more},
        ))
    return listed


def players_csv_lines(text: str) -> list[PlayerLine]:
    """Read a CSV of players: name, club, licence, categories (all but the name may be left
    out).

    The separator is sniffed on a sample of lines (``csv_separator``: ``;``, tab or ``,``);
    a line separated by another one is refused; a first line whose
    first cell is a column name (name, nom, ...) is a header; blank lines are skipped. Raises
    ``ValidationError`` listing every line that cannot be read, with its number.

    >>> [line.name for line in players_csv_lines("nom;club\\nAnaïs Morel;Perpignan\\n\\nBo;")]
    ['Anaïs Morel', 'Bo']
    """
    lines, errors = players_csv_read(text)
    if errors:
        raise ValidationError(csv_line_errors(errors))
    return lines
