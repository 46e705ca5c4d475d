"""The placement rules in the browser (``board.js``, used to go on entering offline) give the
engine's answers: on a corpus of boards from the engine's simulator (every round of simulated
matches of two to four players, after each of their placements), every fitting place of every
tile not yet played (the tile, the cell and the way it is turned) is the same set in node
running board.js as in ``scoring``, and so are the open cells. The two cannot drift."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from scoring import ALL_TILES, Board, Cell, Placement
from tournament import engine

BOARD_JS = (Path(__file__).resolve().parents[3]
            / "tournament" / "static" / "tournament" / "matches" / "board.js")
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node runs board.js")

RUN = """
const rules = require(process.argv[1]);
const boards = JSON.parse(require("fs").readFileSync(0, "utf8"));
const tiles = rules.allTiles();
const out = boards.map((placements) => {
  const board = new rules.Board(placements);
  const places = [];
  board.openCells().forEach((cell) => tiles.forEach((tile) => {
    board.orientations(tile, cell).forEach((r) => places.push(cell + ":" + r.join("-")));
  }));
  return {open: board.openCells(), places: places, legal: board.legalCells(tiles)};
});
process.stdout.write(JSON.stringify(out));
"""


def corpus(seeds: range) -> list[list[str]]:
    """Boards of simulated rounds: the placements so far, after each placement."""
    boards: list[list[str]] = [[]]
    for seed in seeds:
        names = [f"P{n}" for n in range(2 + seed % 3)]
        record = engine.simulated_match_record(names=names, seed=seed)
        for round_ in record["rounds"]:
            placed: list[str] = []
            for turn in round_["turns"]:
                place = turn.get("place")
                if place:
                    x, y, o = place["cell"]
                    placed.append(f"{o}({x},{y}):" + "-".join(map(str, place["corners"])))
                    boards.append(list(placed))
    return boards


def engine_answers(placements: list[str]) -> dict:
    board = Board([Placement.parse(text) for text in placements])
    places = {str(p) for p in board.legal_placements(ALL_TILES)}
    return {"open": {str(c) for c in board.open_cells()}, "places": places,
            "legal": {tile: set(cells) for tile, cells in
                      engine.legal_cells(board, ALL_TILES).items()}}


@pytest.mark.slow
def test_board_js_fits_every_tile_where_the_engine_does():
    boards = corpus(range(12))
    assert len(boards) > 400
    run = subprocess.run([NODE, "-e", RUN, str(BOARD_JS)], input=json.dumps(boards),
                         capture_output=True, text=True, timeout=300, check=True)
    answers = json.loads(run.stdout)
    places = 0
    for placements, browser in zip(boards, answers, strict=True):
        expected = engine_answers(placements)
        assert set(browser["open"]) == expected["open"], placements
        assert set(browser["places"]) == expected["places"], placements
        assert {tile: set(cells) for tile, cells in browser["legal"].items()} \
            == expected["legal"], placements
        places += len(expected["places"])
    assert places > 10_000  # the corpus holds many fitting places, not a few


def test_board_js_refuses_what_the_engine_refuses():
    """A tile already played, a taken cell, a cell touching no side, a corner that differs,
    a mirror image: no orientation, as the engine says."""
    check = """
const rules = require(process.argv[1]);
const board = new rules.Board(["U(0,0):5-5-5", "D(0,0):5-5-3"]);
process.stdout.write(JSON.stringify([
  board.orientations("5-5-5", "D(-1,0)"), board.orientations("0-0-0", "D(0,0)"),
  board.orientations("0-0-0", "U(3,3)"), board.orientations("0-1-2", "D(-1,0)"),
  board.orientations("3-5-5", "U(1,0)"), board.orientations("2-3-5", "U(1,0)")]));
"""
    run = subprocess.run([NODE, "-e", check, str(BOARD_JS)], capture_output=True, text=True,
                         timeout=60, check=True)
    answers = json.loads(run.stdout)
    board = Board([Placement.parse("U(0,0):5-5-5"), Placement.parse("D(0,0):5-5-3")])
    asked = [("5-5-5", "D(-1,0)"), ("0-0-0", "D(0,0)"), ("0-0-0", "U(3,3)"),
             ("0-1-2", "D(-1,0)"), ("3-5-5", "U(1,0)"), ("2-3-5", "U(1,0)")]
    expected = [[list(p.corners) for p in board.legal_orientations(
        engine.parse_tile(tile), Cell.parse(cell))] for tile, cell in asked]
    assert answers == expected
    assert answers[:4] == [[], [], [], []]
