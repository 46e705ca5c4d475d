"""django-tables2 tables for the pages' lists."""

from __future__ import annotations

import django_tables2 as tables2
from django.template.loader import get_template
from django.utils import formats, translation
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django_tables2.utils import AttributeDict, computed_values

from tournament.kit.digits import is_ascii_number
from tournament.kit.spreadsheet import spreadsheet_cell


class QuietHeaderColumn(tables2.Column):
    """A column whose header is for screen readers only (a column of links or buttons, whose
    cells say what they are): the header cell is never empty, its words visually hidden."""

    @property
    def header(self):
        return format_html('<span class="visually-hidden">{}</span>', self.verbose_name)


class QuietHeaderTemplateColumn(tables2.TemplateColumn):
    """:class:`QuietHeaderColumn` for a column rendered by a template."""

    header = QuietHeaderColumn.header


class PythonBodyTable(tables2.Table):
    """A django-tables2 table whose body is built in Python, not cell by cell in templates.

    Columns, headers, sorting and the CSV export stay django-tables2's; only the ``<tbody>``
    is written by ``body_html()``: a column's cell is ``cell_<name>(record)`` (safe HTML) when
    the table defines it, else the record's value escaped. django-tables2's default rendering
    goes through the template engine for every cell: about 0.7 s for the standings of 512
    players, against a few milliseconds here; the pages that poll every 15 seconds need it.
    The template ``tournament/parts/_python_body_table.html`` is django-tables2's own with
    the body replaced. While the body is built, ``self.separator`` is the active language's
    decimal separator (read once, not once per cell).
    """

    separator = "."

    class Meta:
        template_name = "tournament/parts/_python_body_table.html"

    def table_html(self, request=None) -> SafeString:
        """The table as ``{% render_table %}`` writes it, for less.

        The pages polled while the tables play are made again at nearly every poll, and
        django-tables2's template (the wrapper, the headers, their sorting links) costs more
        than a small table's body. Its frame around the ``<tbody>`` is rendered once a process
        for what it shows (:func:`_frame_key`) and kept; only the ``<tbody>`` is built each
        time. A request with a query string (a sort asked for), a paginated table or one with
        a footer is rendered whole, as the tag does.
        """
        if (request is not None and request.GET) or getattr(self, "page", None) \
                or self.has_footer():
            return self._rendered(request)
        key = _frame_key(self)
        frame = _frames.get(key)
        if frame is None:
            tbody_html = self.tbody_html
            self.tbody_html = lambda: mark_safe(_BODY_MARK)
            try:
                rendered = self._rendered(request)
            finally:
                self.tbody_html = tbody_html
            before, mark, after = rendered.partition(_BODY_MARK)
            if not mark:  # a template of django-tables2's cells: the table as it wrote it
                return rendered
            if len(_frames) >= KEPT_FRAMES:  # a league's columns are its tournaments' names
                _frames.clear()
            frame = _frames[key] = (before, after)
        return mark_safe(f"{frame[0]}{self.tbody_html()}{frame[1]}")  # the template's, escaped

    def _rendered(self, request) -> SafeString:
        """``{% render_table %}``: the table's template, with the table and the request."""
        self.before_render(request)
        return get_template(self.template_name).render(
            context={"table": self, "request": request}, request=request
        )

    def tbody_html(self) -> SafeString:
        """The ``<tbody>`` and its rows (the template's ``table.tbody`` block writes it)."""
        attrs = self.attrs.get("tbody")
        opening = f"<tbody {AttributeDict(attrs).as_html()}>" if attrs else "<tbody>"
        return mark_safe(f"{opening}{self.body_html()}</tbody>")  # attributes escaped

    def body_html(self) -> SafeString:
        return self.rows_html(self.data)

    def rows_html(self, records) -> SafeString:
        """The body's rows of ``records`` (the table's, or some of them)."""
        self.separator = formats.get_format("DECIMAL_SEPARATOR")
        cells = []
        for column in self.columns:
            cell = getattr(self, f"cell_{column.name}", None)
            td = column.attrs["td"].as_html()
            cells.append((column.name, f"<td {td}>" if td else "<td>", cell))
        rows = []
        for record in records:
            row_attrs = self.body_row_attrs(record)
            rows.append(f"<tr {row_attrs}>" if row_attrs else "<tr>")
            for name, opening, cell in cells:
                content = cell(record) if cell else escape(record[name])
                rows.append(f"{opening}{content}</td>")
            rows.append("</tr>")
        if not rows and self.empty_text:
            rows.append(
                format_html('<tr><td colspan="{}">{}</td></tr>', len(cells), self.empty_text)
            )
        return mark_safe("".join(rows))  # every part escaped above or built by format_html

    def body_row_attrs(self, record) -> str:
        """A row's attributes as HTML (from Meta.row_attrs; override to make it faster)."""
        if not self.row_attrs:
            return ""
        return AttributeDict(
            computed_values(self.row_attrs, kwargs={"record": record, "table": self})
        ).as_html()


#: The frames of :meth:`PythonBodyTable.table_html`: the markup before and after the
#: ``<tbody>``, by :func:`_frame_key`. Each process keeps its own: a frame is made from its
#: key alone (the code's templates and what the key names), so every process and app
#: server makes the same one; at most ``KEPT_FRAMES``, all dropped when full (a site of
#: many leagues, whose rankings head their columns with their tournaments' names).
_frames: dict[tuple, tuple[str, str]] = {}
KEPT_FRAMES = 2048
_BODY_MARK = "\x00tbody\x00"


def _frame_key(table: PythonBodyTable) -> tuple:
    """What a table's frame shows: its template, attributes, prefix and order, each column's
    name, header and header attributes, in the active language."""
    columns = tuple(
        (column.name, str(column.header), column.orderable, column.attrs["th"].as_html())
        for column in table.columns
    )
    return (type(table), table.template_name, table.attrs.as_html(), table.prefix,
            table.show_header, str(table.order_by or ""), translation.get_language(), columns)


def rank_value(label: str) -> int | str:
    """A rank in the exports as the pages show it: a number, or text for a tie ("3=").

    >>> rank_value("3"), rank_value("3=")
    (3, '3=')
    """
    return int(label) if is_ascii_number(label) else label


class PlayerRankingTable(PythonBodyTable):
    """Players ranked, one row each (``data-player``), from plain dicts with ``rank_label``,
    ``player_id``, ``url``, ``name`` and ``club``: the standings, a league's ranking, the
    ratings. The rank as shown ("3=" for a tie), the name a link to ``url``. In the XLSX and
    ODS exports (django-tables2's TableExport), headers capitalised as in the CSV, the rank a
    number unless tied (:func:`rank_value`), text that a spreadsheet would run as a formula
    neutralised (:func:`tournament.kit.spreadsheet.spreadsheet_cell`)."""

    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "rank"}})
    name = tables2.Column(verbose_name=_("player"), order_by="name_key")
    # the club gives way on a phone to the columns that decide the rank (site.css)
    club = tables2.Column(verbose_name=_("club"), attrs={"cell": {"class": "club col-secondary"}})

    def body_row_attrs(self, record) -> str:
        return f'data-player="{record["player_id"]:d}"'

    def cell_rank(self, record):
        return escape(record["rank_label"])

    def cell_name(self, record):
        return f'<a href="{escape(record["url"])}">{escape(record["name"])}</a>'

    def as_values(self, exclude_columns=None):
        """django-tables2's rows of values, headers capitalised as in the CSV and neutralised
        as the cells are (a league's columns are headed by its tournaments' names)."""
        values = super().as_values(exclude_columns=exclude_columns)
        yield [spreadsheet_cell(capfirst(str(header))) for header in next(values)]
        yield from values

    def value_rank(self, record):
        return rank_value(record["rank_label"])

    def value_name(self, record):
        return spreadsheet_cell(record["name"])

    def value_club(self, record):
        return spreadsheet_cell(record["club"])


#: The columns of a printed ranking (``printing/_ranking_table.html``: the standings, the
#: ratings, a league's ranking) that hold words, not figures: left-aligned, wrapped.
RANKING_TEXT_COLUMNS = frozenset({"name", "club"})
