"""The board drawn as SVG: well-formed, every tile with its three values, the last tile and the
open cells marked for the web page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from scoring import Board, Cell, Placement
from scoring.svg import board_svg, element_id

NS = {"svg": "http://www.w3.org/2000/svg"}


def board_of(*placements: str) -> Board:
    return Board([Placement.parse(p) for p in placements])


BOARD = board_of("U(0,0):5-5-5", "D(0,0):5-5-3", "D(-1,0):5-4-5")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_tile_with_its_values() -> None:
    root = parse(board_svg(BOARD))
    tiles = root.findall("svg:g", NS)
    assert [g.get("data-cell") for g in tiles] == ["U(0,0)", "D(0,0)", "D(-1,0)"]
    assert [g.get("data-tile") for g in tiles] == ["5-5-5", "3-5-5", "4-5-5"]
    for g, placement in zip(tiles, BOARD.placements):
        assert [t.text for t in g.findall("svg:text", NS)] == [str(v) for v in placement.corners]
        assert len(g.findall("svg:polygon", NS)) == 1


def test_the_highlight_and_the_open_cells() -> None:
    opens = BOARD.open_cells()
    assert BOARD.last is not None
    root = parse(board_svg(BOARD, highlight=BOARD.last.cell, open_cells=opens))
    last = [g for g in root.findall("svg:g", NS) if "last" in g.get("class", "").split()]
    assert [g.get("data-cell") for g in last] == ["D(-1,0)"]
    clickable = root.findall("svg:polygon[@class='open']", NS)
    assert sorted(p.get("data-cell", "") for p in clickable) == sorted(str(c) for c in opens)
    for polygon in clickable:
        cell = Cell.parse(polygon.get("data-cell", ""))
        assert (polygon.get("data-x"), polygon.get("data-y"), polygon.get("data-o")) == (
            str(cell.x), str(cell.y), cell.o
        )


def test_the_view_box_holds_every_corner() -> None:
    root = parse(board_svg(BOARD, open_cells=BOARD.open_cells(), side=10))
    left, top, width, height = (float(v) for v in root.get("viewBox", "").split())
    for polygon in root.iter("{http://www.w3.org/2000/svg}polygon"):
        for pair in polygon.get("points", "").split():
            x, y = (float(v) for v in pair.split(","))
            assert left <= x <= left + width and top <= y <= top + height


def test_up_is_up() -> None:
    """The apex of U(0,0) is above its base: SVG's y grows downwards."""
    root = parse(board_svg(board_of("U(0,0):5-5-5"), side=10))
    points = root.find("svg:g/svg:polygon", NS).get("points").split()  # type: ignore[union-attr]
    apex_y = float(points[0].split(",")[1])
    base_y = float(points[1].split(",")[1])
    assert apex_y < base_y


def test_a_pure_function_of_placements() -> None:
    before = BOARD.placements
    assert board_svg(BOARD) == board_svg(BOARD.placements) == board_svg(BOARD)
    assert BOARD.placements == before
    empty = parse(board_svg(Board(), title="Table 3 <empty>"))
    assert empty.findall("svg:g", NS) == []
    assert empty.find("svg:title", NS).text == "Table 3 <empty>"  # type: ignore[union-attr]
    assert "http" not in board_svg(BOARD).replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_open_cells_named_in_the_callers_words() -> None:
    """With ``cell_label``, the drawing is a group of named cells; the words are the caller's."""
    board = board_of("U(0,0):5-5-5")
    seen = []

    def label(cell: Cell, neighbours: tuple[tuple[str, str], ...]) -> str:
        seen.append((str(cell), neighbours))
        return "près de " + " et ".join(f"{tile} ({where})" for tile, where in neighbours)

    root = parse(board_svg(board, open_cells=board.open_cells(), title="Table « 3 »",
                           cell_label=label))
    assert root.get("role") == "group" and root.get("aria-label") == "Table « 3 »"
    cells = root.findall("svg:polygon[@class='open']", NS)
    assert {p.get("role") for p in cells} == {"button"}
    names = sorted(p.get("aria-label", "") for p in cells)
    assert len(set(names)) == len(cells) == 3
    assert all(name.startswith("près de 5-5-5 (") for name in names)
    assert sorted(where for _cell, ((_tile, where),) in seen) == ["below", "upper left", "upper right"]
    plain = parse(board_svg(board, open_cells=board.open_cells()))
    assert plain.get("role") == "img"
    assert {p.get("role") for p in plain.findall("svg:polygon[@class='open']", NS)} == {None}


def test_open_cells_titled_in_the_callers_words_on_a_drawing_that_stays_an_image() -> None:
    """A page that only shows the table (``operable=False``) still titles its open cells in
    the caller's words, never by their code; without ``cell_label`` the code is all there is."""
    board = board_of("U(0,0):5-5-5")
    root = parse(board_svg(board, open_cells=board.open_cells(), operable=False,
                           cell_label=lambda cell, neighbours: f"next to {neighbours[0][0]}"))
    assert root.get("role") == "img"
    cells = root.findall("svg:polygon[@class='open']", NS)
    assert {p.get("role") for p in cells} == {None} and len(cells) == 3
    assert {p.findtext("svg:title", namespaces=NS) for p in cells} == {"next to 5-5-5"}
    plain = parse(board_svg(board, open_cells=[Cell(0, 0, "D")]))
    assert plain.find("svg:polygon[@class='open']/svg:title", NS).text == "D(0,0)"


def test_with_ids_every_element_is_named_and_the_kept_cells_are_left_out() -> None:
    opens = BOARD.open_cells()
    whole = parse(board_svg(BOARD, open_cells=opens, ids=True))
    named = {element.get("id") for element in whole if element.get("id")}
    assert named == ({element_id(p.cell, placed=True) for p in BOARD.placements}
                     | {element_id(cell, placed=False) for cell in opens})
    assert all(re.fullmatch(r"(placed|open)-[UD]m?\d+_m?\d+", name) for name in named)
    kept = {BOARD.placements[0].cell, opens[0]}
    changes = parse(board_svg(BOARD, open_cells=opens, ids=True, kept=kept))
    assert {element.get("id") for element in changes if element.get("id")} == \
        named - {element_id(BOARD.placements[0].cell, placed=True),
                 element_id(opens[0], placed=False)}
    assert changes.get("viewBox") == whole.get("viewBox")  # the frame of the whole table
    assert "id=" not in board_svg(BOARD, open_cells=opens)  # no ids unless asked


def test_an_element_id_tells_every_cell_apart() -> None:
    cells = [Cell(x, y, o) for x in range(-12, 13) for y in range(-12, 13) for o in "UD"]
    assert len({element_id(cell, placed=True) for cell in cells}) == len(cells)
    assert element_id(Cell(1, -1, "U"), placed=True) != element_id(Cell(-1, 1, "U"), placed=True)
