"""The placement rules in the browser (``board.js``, used to go on entering offline) give the
engine's answers: on a corpus of boards from the engine's simulator (every round of simulated
matches of two to four players, after each of their placements), every fitting place of every
tile not yet played (the tile, the cell and the way it is turned) is the same set in node
running board.js as in ``scoring``, and so are the open cells. The two cannot drift: without
Node.js these tests fail, they never skip (tests/node.py)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from scoring import ALL_TILES, Board, Cell, MatchReplay, Placement, settle
from scoring.record import PlaceRecord, TurnRecord
from scoring.record_reading import parse_record
from scoring.rules import RULE_SETS
from scoring.simulate import simulate_match
from tests.node import node
from tournament import engine
from tournament.matches.reading.turn_preview import rule_figures

BOARD_JS = (Path(__file__).resolve().parents[3]
            / "tournament" / "static" / "tournament" / "matches" / "board.js")

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
    run = subprocess.run([node(), "-e", RUN, str(BOARD_JS)], input=json.dumps(boards),
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
    run = subprocess.run([node(), "-e", check, str(BOARD_JS)], capture_output=True, text=True,
                         timeout=60, check=True)
    answers = json.loads(run.stdout)
    board = Board([Placement.parse("U(0,0):5-5-5"), Placement.parse("D(0,0):5-5-3")])
    asked = [("5-5-5", "D(-1,0)"), ("0-0-0", "D(0,0)"), ("0-0-0", "U(3,3)"),
             ("0-1-2", "D(-1,0)"), ("3-5-5", "U(1,0)"), ("2-3-5", "U(1,0)")]
    expected = [[list(p.corners) for p in board.legal_orientations(
        engine.parse_tile(tile), Cell.parse(cell))] for tile, cell in asked]
    assert answers == expected
    assert answers[:4] == [[], [], [], []]


# -- the turn's preview: what a fitting placement scores ------------------------------------

PREVIEW = """
const rules = require(process.argv[1]);
const states = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = states.map((state) => {
  const board = new rules.Board(state.placements);
  return state.asks.map(([tile, cell, draws]) => {
    const score = board.preview(tile, cell, draws, {rules: state.rules, pool: state.pool});
    return score && {points: score.points, tile: score.tile, bonus: score.bonus,
                     bonus_points: score.bonusPoints, penalty: score.penalty,
                     explain: rules.explain(score, {})};
  });
});
process.stdout.write(JSON.stringify(out));
"""


def preview_js(states: list[dict]) -> list[list[dict | None]]:
    run = subprocess.run([node(), "-e", PREVIEW, str(BOARD_JS)], input=json.dumps(states),
                         capture_output=True, text=True, timeout=300, check=True)
    return json.loads(run.stdout)


def engine_preview(replay: MatchReplay, placement: Placement, draws: int) -> dict | None:
    """``MatchReplay.preview`` of the placement with ``draws``, as the browser says it: None
    where the engine refuses the turn."""
    player = replay.next_player if replay.next_player is not None else 0
    report = replay.preview(TurnRecord(player=player, draws=draws, place=PlaceRecord(
        cell=placement.cell, corners=placement.corners)))
    if report.verdict == "illegal":
        return None
    assert report.verdict == "ok", report
    score = report.score
    return {"points": report.points, "tile": score.tile_value,
            "bonus": score.bonus.value if score.bonus else None,
            "bonus_points": score.bonus_points, "penalty": score.penalty,
            "explain": score.explain().replace(" - ", " \u2212 ")
            if score.bonus is not None or score.penalty else ""}


def preview_corpus(rule_names, seeds) -> tuple[list[dict], list[list[dict | None]]]:
    """Before every turn of simulated matches under each rule set (two players up to the
    set's most, the opening included), every fitting place of every tile not played yet,
    with 0 to 3 draws before it (more than the pool holds near a round's end): the states
    for board.js and the engine's answers."""
    states: list[dict] = []
    expected: list[list[dict | None]] = []
    for name in rule_names:
        rules = engine.rule_set(name)
        figures = rule_figures(rules)
        for seed in seeds:
            players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
            record = parse_record(simulate_match(players=players, seed=seed, rules=name))
            for round_ in record.rounds:
                replay = MatchReplay(record.players, rules=record.rules)
                replay.begin_round()
                for turn in round_.turns:
                    board = replay.board
                    played = replay.tiles_played
                    places = list(board.legal_placements(t for t in ALL_TILES if t not in played))
                    asks = [(str(p.tile), str(p.cell), index % 4) for index, p in enumerate(places)]
                    states.append({"placements": [str(p) for p in board.placements],
                                   "pool": replay.pool_size, "rules": figures, "asks": asks})
                    expected.append([engine_preview(replay, p, index % 4)
                                     for index, p in enumerate(places)])
                    replay.play(turn)
    return states, expected


@pytest.mark.slow
def test_board_js_scores_every_fitting_place_as_the_engine_previews_it():
    states, expected = preview_corpus(RULE_SETS, range(6))
    answers = preview_js(states)
    assert answers == expected
    found = [a for answer in expected for a in answer if a]
    bonuses = {a["bonus"] for a in found}
    assert {"opening", "bridge", "two-sides", "hexagon", None} <= bonuses
    assert any(a["penalty"] for a in found) and any(a is None for e in expected for a in e)
    assert len(found) > 10_000
    assert sum(1 for s in states if not s["placements"]) >= 3 * 6  # the openings


def test_board_js_scores_a_few_turns_as_the_engine_previews_them():
    """The opening with 0-0-0 and with another triple, a plain tile, a hexagon, the draws
    taken off: the engine's figures under each rule set. More draws than the rules allow, a
    tile that does not fit and a rule set with a figure board.js does not know: no answer
    (the server's preview says)."""
    hexagon = ["U(0,0):5-5-5", "D(0,-1):0-5-5", "D(-1,0):5-1-5", "U(0,-1):5-0-0",
               "U(-1,0):1-5-1"]
    asks = [
        ([], "0-0-0", "U(0,0)", 0), ([], "2-2-2", "U(0,0)", 1), ([], "1-2-3", "U(0,0)", 0),
        (hexagon, "0-1-5", "D(-1,-1)", 0), (hexagon, "0-1-5", "D(-1,-1)", 2),
        (hexagon, "0-1-5", "D(-1,-1)", 4), (hexagon, "2-3-4", "D(-1,-1)", 0),
        (["U(0,0):5-5-5"], "3-5-5", "D(0,0)", 3),
    ]
    for name in RULE_SETS:
        rules = engine.rule_set(name)
        figures = rule_figures(rules)
        states, expected = [], []
        for placements, tile, cell, draws in asks:
            replay = MatchReplay(["A", "B"], rules=rules)
            replay.begin_round()
            for index, text in enumerate(placements):
                placement = Placement.parse(text)
                replay.play(TurnRecord(player=index % 2, place=PlaceRecord(
                    cell=placement.cell, corners=placement.corners)))
            states.append({"placements": placements, "pool": replay.pool_size,
                           "rules": figures, "asks": [[tile, cell, draws]]})
            fits = replay.board.legal_orientations(engine.parse_tile(tile), Cell.parse(cell))
            expected.append(engine_preview(replay, fits[0], draws) if fits else None)
        states.append({"placements": [], "pool": 20, "rules": {**figures, "mystery": 5},
                       "asks": [["0-0-0", "U(0,0)", 0]]})
        answers = [answer[0] for answer in preview_js(states)]
        assert answers == expected + [None], name
        opening, triple, plain, hexagon_, with_draws, too_many, no_fit, last, _ = answers
        assert opening["bonus"] == "opening"
        assert opening["points"] == rules.zero_triple_opening_bonus
        assert triple["points"] == 6 + rules.opening_bonus - rules.draw_penalty
        assert plain == {"points": 6, "tile": 6, "bonus": None, "bonus_points": 0, "penalty": 0,
                         "explain": ""}
        assert hexagon_["bonus"] == "hexagon" and hexagon_["points"] == 6 + rules.hexagon_bonuses[0]
        assert with_draws["explain"] == f"6 + {rules.hexagon_bonuses[0]} (hexagon) \u2212 10 " \
            f"(draws) = {with_draws['points']}"
        assert too_many is None and no_fit is None
        assert last["penalty"] == 3 * rules.draw_penalty


SETTLE = """
const rules = require(process.argv[1]);
const asks = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(asks.map((ask) => ask.totals
  ? rules.settle(ask.totals, ask.end, ask.out, ask.rules)
  : -rules.passPenalty(ask.draws, ask.rules))));
"""


def test_board_js_settles_a_round_and_prices_a_pass_as_the_engine_does():
    """What the tablet shows pending when a round ends offline: a pass's cost (its draws, and
    the failed draws' penalty after the most draws allowed) and the round's settlement (out:
    the bonus and the others' racks; blocked: the lowest rack takes the others', and under
    some rule sets the others lose their own) are the engine's, under every rule set, on
    racks drawn at random (ties for the lowest included)."""
    draw = random.Random(40)
    asks, expected = [], []
    for name in RULE_SETS:
        rules = engine.rule_set(name)
        figures = rule_figures(rules)
        for draws in range(rules.max_draws + 1):
            replay = MatchReplay(["A", "B"], rules=rules)
            replay.begin_round()
            replay.play(TurnRecord(player=0, place=PlaceRecord(cell=Cell(0, 0, "U"),
                                                               corners=(5, 5, 5))))
            report = replay.play(TurnRecord(player=1, draws=draws))
            asks.append({"draws": draws, "rules": figures})
            expected.append(report.points)
        for _ in range(60):
            totals = [draw.choice([0, 3, 7, 12, 12, 25, 40]) for _ in range(draw.randint(2, 4))]
            end = draw.choice(["out", "blocked", "unfinished"])
            out = draw.randrange(len(totals)) if end == "out" else None
            if out is not None:
                totals[out] = 0
            asks.append({"totals": totals, "end": end, "out": out, "rules": figures})
            found = settle(totals, end=end, out_player=out, rules=rules)
            expected.append(list(found) if found is not None else None)
    run = subprocess.run([node(), "-e", SETTLE, str(BOARD_JS)], input=json.dumps(asks),
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(run.stdout) == expected
    assert any(points < 0 for points in expected if isinstance(points, int))
