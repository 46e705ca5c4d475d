"""The table drawn as SVG, for the web pages and the PDFs: a pure function, no resources.

Each tile is a triangle with its three values near its corners; the last tile can be
highlighted; open cells can be drawn as dashed triangles carrying ``data-cell``, ``data-x``,
``data-y`` and ``data-o`` attributes, so that a page can make them clickable.

Words are the caller's (this module knows no language): ``title`` names the drawing, and
``cell_label`` names each open cell from its neighbours on the table (each a tile and the
direction in which the cell lies from it, one of :data:`DIRECTIONS`). With ``cell_label`` the
drawing is a group of named cells (``role="group"``, each open cell ``role="button"`` with
its ``aria-label``) instead of one image, so that a page can make the cells operable.

With ``ids``, each open cell and each tile carries an id (:func:`element_id`), and the cells
in ``kept`` are left out: the drawing is then what changed on a table a reader already shows
(the page puts each element in place of the one with its id, or adds it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from html import escape
from typing import Final

from scoring.board import Board, Placement
from scoring.geometry import DIRECTIONS, Cell, cell_neighbours, geometry

__all__ = ["DIRECTIONS", "CellLabel", "board_svg", "cell_neighbours", "element_id"]

#: Names an open cell from its neighbours: ``(tile, direction)`` pairs, e.g. ``("3-4-5", "below")``.
CellLabel = Callable[[Cell, tuple[tuple[str, str], ...]], str]

_SQRT3_2: Final = math.sqrt(3) / 2
#: Where a value is drawn: this fraction of the way from its corner to the tile's centre.
_LABEL_INSET: Final = 0.42


def _xy(point: tuple[int, int], side: float) -> tuple[float, float]:
    x, y = point
    return ((x + y / 2) * side, -y * _SQRT3_2 * side)


def _fmt(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def element_id(cell: Cell, *, placed: bool) -> str:
    """The id of a cell's element in a drawing with ids: ``placed-`` (a tile) or ``open-`` (an
    open cell), then the cell in letters, digits, ``_`` and ``m`` for minus (an id a CSS
    selector takes as it is).

    >>> element_id(Cell(0, -1, "D"), placed=False)
    'open-D0_m1'
    """
    def number(n: int) -> str:
        return f"m{-n}" if n < 0 else str(n)

    return f"{'placed' if placed else 'open'}-{cell.o}{number(cell.x)}_{number(cell.y)}"


def board_svg(
    board: Board | Iterable[Placement],
    *,
    highlight: Cell | None = None,
    open_cells: Iterable[Cell] = (),
    side: float = 60.0,
    title: str | None = None,
    cell_label: CellLabel | None = None,
    operable: bool = True,
    ids: bool = False,
    kept: Collection[Cell] = (),
) -> str:
    """The table as an SVG document (a string).

    ``board`` is a :class:`~scoring.board.Board` or placements; ``highlight`` a cell to
    stand out (the last tile, say); ``open_cells`` the cells to offer for a click; ``side``
    the length of a tile's side in SVG units. ``cell_label`` names the open cells (their
    ``<title>``; else their code); ``operable``: with ``cell_label``, the cells are buttons
    (a group of named cells, the module says), else the drawing stays one image; ``ids``
    and ``kept``: the elements' ids, and the cells left out (the module's docstring).

    >>> from scoring import Board, Placement, Cell
    >>> board = Board([Placement(Cell(0, 0, "U"), (5, 5, 5))])
    >>> svg = board_svg(board, highlight=Cell(0, 0, "U"), open_cells=board.open_cells())
    >>> svg.startswith("<svg"), svg.count('class="tile'), svg.count('data-cell="D(0,0)"')
    (True, 1, 1)
    """
    placements = board.placements if isinstance(board, Board) else list(board)
    opens = list(open_cells)
    xs: list[float] = []
    ys: list[float] = []
    for cell in [p.cell for p in placements] + opens:
        for point in geometry(cell).points:
            x, y = _xy(point, side)
            xs.append(x)
            ys.append(y)
    margin = side * 0.25
    if xs:
        left, top = min(xs) - margin, min(ys) - margin
        width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    else:
        left, top, width, height = -side, -side, 2 * side, 2 * side
    font = side * 0.22
    label = escape(title, quote=True) if title else f"Triominos table, {len(placements)} tiles"
    buttons = cell_label is not None and operable
    role = "group" if buttons else "img"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_fmt(left)} {_fmt(top)} '
        f'{_fmt(width)} {_fmt(height)}" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'role="{role}" aria-label="{label}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{label}</title>",
    ]
    for cell in opens:
        if cell in kept:
            continue
        corners = [_xy(p, side) for p in geometry(cell).points]
        name, named = str(cell), ""
        if cell_label is not None:
            name = escape(cell_label(cell, cell_neighbours(cell, placements)), quote=True)
        if buttons:
            named = f' role="button" aria-label="{name}"'
        parts.append(
            f'<polygon{_id_attribute(cell, ids, placed=False)} class="open" data-cell="{cell}" data-x="{cell.x}" data-y="{cell.y}" '
            f'data-o="{cell.o}"{named} points="{_points(corners)}" fill="#ffffff" fill-opacity="0" '
            f'stroke="#7a8b99" stroke-width="{_fmt(side * 0.025)}" '
            f'stroke-dasharray="{_fmt(side * 0.08)} {_fmt(side * 0.06)}"><title>{name}</title>'
            "</polygon>"
        )
    for placement in placements:
        cell = placement.cell
        if cell in kept:
            continue
        corners = [_xy(p, side) for p in geometry(cell).points]
        lit = cell == highlight
        cx = sum(x for x, _ in corners) / 3
        cy = sum(y for _, y in corners) / 3
        tile = "-".join(str(v) for v in sorted(placement.corners))
        parts.append(
            f'<g{_id_attribute(cell, ids, placed=True)} class="tile{" last" if lit else ""}" data-cell="{cell}" data-tile="{tile}">'
            f"<title>{tile}</title>"
            f'<polygon points="{_points(corners)}" fill="{"#ffe08a" if lit else "#fdf8ec"}" '
            f'stroke="{"#c0392b" if lit else "#3b3b3b"}" '
            f'stroke-width="{_fmt(side * (0.06 if lit else 0.03))}" stroke-linejoin="round"/>'
        )
        for (x, y), value in zip(corners, placement.corners):
            tx = x + (cx - x) * _LABEL_INSET
            ty = y + (cy - y) * _LABEL_INSET
            parts.append(
                f'<text x="{_fmt(tx)}" y="{_fmt(ty)}" font-size="{_fmt(font)}" '
                f'text-anchor="middle" dominant-baseline="central" fill="#1d1d1d">{value}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _id_attribute(cell: Cell, ids: bool, *, placed: bool) -> str:
    return f' id="{element_id(cell, placed=placed)}"' if ids else ""


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in corners)
