"""Properties, with Hypothesis: the generator and the check agree, undo restores, tiles are
conserved, simulated matches replay clean in board and sheet mode, and no record, however
odd, makes the check crash."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import (
    ALL_TILES,
    FORMAT,
    Board,
    Bonus,
    Cell,
    IllegalPlacement,
    MatchReplay,
    Placement,
    Tile,
    cells_around,
    check_record,
    parse_record,
)
from scoring.geometry import geometry
from scoring.simulate import simulate_match
from tests.examples import examples

SLOW = settings(deadline=None, max_examples=examples(25),
                suppress_health_check=[HealthCheck.too_slow])
FAST = settings(deadline=None, max_examples=examples(60),
                suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boards(draw: st.DrawFn, max_tiles: int = 45) -> Board:
    """A table laid with legal placements, each drawn among all the legal ones."""
    board = Board()
    size = draw(st.integers(0, max_tiles))
    for _ in range(size):
        options = list(board.legal_placements(t for t in ALL_TILES if t not in board.tiles_played))
        if not options:
            break
        board.place(options[draw(st.integers(0, len(options) - 1))])
    return board


def racks(board: Board) -> st.SearchStrategy[list[Tile]]:
    free = [t for t in ALL_TILES if t not in board.tiles_played]
    return st.lists(st.sampled_from(free), min_size=1, max_size=9) if free else st.just([])


def state(board: Board) -> tuple[Any, ...]:
    points = {p for c in board.placements for p in c.points}
    return (
        board.placements,
        set(board.open_cells()),
        set(board.tiles_played),
        {p: board.value_at(p) for p in points},
        {c: board.shared_sides(c) for c in board.open_cells()},
    )


def bonus_by_definition(board: Board, placement: Placement) -> Bonus | None:
    """The bonus, read straight from rules.md, without the board's counters."""
    if len(board) == 0:
        return Bonus.OPENING if placement.tile.is_triple else None
    points, neighbours = geometry(placement.cell)
    hexagons = sum(
        all(c in board or c == placement.cell for c in cells_around(p)) for p in points
    )
    if hexagons:
        return (Bonus.HEXAGON, Bonus.DOUBLE_HEXAGON, Bonus.TRIPLE_HEXAGON)[hexagons - 1]
    shared = [n for n in neighbours if n in board]
    if len(shared) >= 2:
        return Bonus.TWO_SIDES
    opposite = points[neighbours.index(shared[0])]
    if any(c in board for c in cells_around(opposite)):
        return Bonus.BRIDGE
    return None


@FAST
@given(st.data())
def test_every_generated_placement_is_accepted_and_none_is_missed(data: st.DataObject) -> None:
    board = data.draw(boards())
    rack = data.draw(racks(board))
    found = list(board.legal_placements(rack))
    for placement in found:
        score = board.check(placement)
        assert placement.tile in rack
        assert score.bonus == bonus_by_definition(board, placement)
    brute = {
        Placement(cell, rotation)
        for cell in board.open_cells()
        for tile in set(rack)
        for rotation in tile.rotations()
        if board.is_legal(Placement(cell, rotation))
    }
    assert set(found) == brute and len(found) == len(brute)


@FAST
@given(st.data())
def test_place_then_undo_restores_the_board(data: st.DataObject) -> None:
    board = data.draw(boards())
    options = list(board.legal_placements(t for t in ALL_TILES if t not in board.tiles_played))
    if not options:
        return
    placement = data.draw(st.sampled_from(options))
    before = state(board)
    board.place(placement)
    assert state(board) != before
    assert board.undo() == placement
    assert state(board) == before


@FAST
@given(st.data())
def test_check_never_changes_the_board(data: st.DataObject) -> None:
    board = data.draw(boards(max_tiles=20))
    cells = board.open_cells() + [p.cell for p in board.placements] + [Cell(9, 9, "U")]
    cell = data.draw(st.sampled_from(cells))
    corners = data.draw(st.tuples(*[st.integers(-1, 6)] * 3))
    before = state(board)
    try:
        board.check(Placement(cell, corners))
    except IllegalPlacement as error:
        assert error.code in {"occupied", "no-shared-side", "corner-mismatch", "mirror-tile",
                              "unknown-tile", "tile-already-played"}
    assert state(board) == before


@FAST
@given(boards())
def test_open_cells_are_the_empty_cells_sharing_a_side(board: Board) -> None:
    expected = {n for p in board.placements for n in p.cell.neighbours if n not in board}
    if len(board):
        assert set(board.open_cells()) == expected
        for cell in expected:
            assert board.shared_sides(cell) == sum(n in board for n in cell.neighbours)


# -- simulated matches --------------------------------------------------------------------------

GAMES = st.one_of(
    st.tuples(st.just("goliath-tournament"), st.integers(2, 4)),
    st.tuples(st.just("goliath-family"), st.integers(2, 6)),
    st.tuples(st.just("travel-tour"), st.integers(2, 4)),
)


@SLOW
@given(GAMES, st.integers(0, 2**32 - 1))
def test_the_56_tiles_are_always_on_the_table_in_a_rack_or_in_the_pool(
    game: tuple[str, int], seed: int
) -> None:
    rules, players = game
    turns = 0

    def on_turn(board: Board, racks: Sequence[Sequence[Tile]], pool: Sequence[Tile]) -> None:
        nonlocal turns
        turns += 1
        everywhere = list(board.tiles_played) + [t for r in racks for t in r] + list(pool)
        assert len(everywhere) == 56
        assert set(everywhere) == set(ALL_TILES)

    simulate_match(players=players, seed=seed, rules=rules, on_turn=on_turn)
    assert turns > 0


@SLOW
@given(GAMES, st.integers(0, 2**32 - 1), st.booleans())
def test_a_simulated_match_replays_with_no_problem(
    game: tuple[str, int], seed: int, sheet: bool
) -> None:
    rules, players = game
    data = simulate_match(players=players, seed=seed, rules=rules, sheet=sheet)
    record = parse_record(data)
    assert parse_record(record.to_dict()) == record
    replay = MatchReplay(record.players, rules=record.rules)
    for round_ in record.rounds:
        replay.begin_round()
        for t in round_.turns:
            replay.play(t)
            # the referee's own accounting of the tiles
            assert len(replay.tiles_played) + sum(replay.hand_counts) + replay.pool_size == 56
        assert round_.racks is not None
        shown = [Tile(name) for rack in round_.racks for name in rack]  # type: ignore[union-attr]
        assert len(set(shown) | replay.tiles_played) == len(shown) + len(replay.tiles_played)
        assert len(shown) + len(replay.tiles_played) + replay.pool_size == 56
        replay.end_round(round_.racks, round_.settlement_claimed)
    report = replay.report()
    assert report.valid, report.problems[:3]
    assert report.finished
    for round_report in report.rounds:
        for turn_report in round_report.turns:
            assert turn_report.verdict in (("ok", "unverified") if sheet else ("ok",))


@SLOW
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.data())
def test_a_wrong_claim_is_caught_exactly_where_it_is(
    seed: int, delta: int, data: st.DataObject
) -> None:
    record = simulate_match(players=3, seed=seed)
    places = [(r, t) for r, round_ in enumerate(record["rounds"])
              for t in range(len(round_["turns"]))]
    r, t = data.draw(st.sampled_from(places))
    wrong = copy.deepcopy(record)
    wrong["rounds"][r]["turns"][t]["claimed"] += data.draw(st.sampled_from([delta, -delta]))
    report = check_record(parse_record(wrong))
    assert [(p.round, p.turn, p.code) for p in report.problems] == [(r, t, "claim-mismatch")]


# -- any record at all ----------------------------------------------------------------------

TILE_NAMES = st.one_of(st.sampled_from([str(t) for t in ALL_TILES]), st.text(max_size=6))
PLACES = st.one_of(
    st.fixed_dictionaries({"tile": TILE_NAMES}),
    st.fixed_dictionaries({
        "cell": st.tuples(st.integers(-3, 3), st.integers(-3, 3),
                          st.sampled_from(["U", "D"])).map(list),
        "corners": st.lists(st.integers(-1, 6), min_size=3, max_size=3),
    }),
    st.fixed_dictionaries({"corners": st.lists(st.integers(0, 5), min_size=3, max_size=3)}),
)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 4))
    turn = st.fixed_dictionaries(
        {"player": st.integers(0, players - 1)},
        optional={
            "draws": st.integers(0, 5),
            "place": PLACES,
            "claimed": st.integers(-60, 120),
            "bonus": st.sampled_from([b.value for b in Bonus]),
        },
    )
    rack = st.one_of(st.lists(TILE_NAMES, max_size=8), st.integers(0, 200))
    round_ = st.fixed_dictionaries(
        {"turns": st.lists(turn, max_size=40)},
        optional={
            "racks": st.lists(rack, min_size=players, max_size=players),
            "settlement_claimed": st.lists(st.integers(-50, 300), min_size=players,
                                           max_size=players),
        },
    )
    return {
        "format": FORMAT,
        "rules": "goliath-tournament",
        "target": draw(st.integers(1, 400)),
        "players": [f"P{i}" for i in range(players)],
        "rounds": draw(st.lists(round_, max_size=3)),
    }


@settings(deadline=None, max_examples=examples(200))
@given(records())
def test_no_record_makes_the_check_crash(data: dict[str, Any]) -> None:
    report = check_record(parse_record(data))
    out = report.to_json()
    assert out["valid"] == (not out["problems"])
    assert len(out["rounds"]) == len(data["rounds"])
    order = [(p["round"], p["turn"] is None) for p in out["problems"]]
    assert order == sorted(order)
    for round_ in out["rounds"]:
        for turn in round_["turns"]:
            assert turn["points"] == turn["tile"] + turn["bonus_points"] - turn["penalty"]
            assert turn["verdict"] in ("ok", "mismatch", "illegal", "unverified")
            assert 0 <= turn["draws"] <= 3
    if not out["finished"]:
        assert out["winners"] == []
