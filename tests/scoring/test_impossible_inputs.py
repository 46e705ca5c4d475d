"""What cannot have happened, fed to ``python -m scoring check`` as a clumsy or dishonest
referee would write it: the check reports it (exit 1) with its problem code. The app's tests
upload and import the same records (tests/scoring/impossible_records.py)."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from scoring.cli import main
from tests.scoring.impossible_records import (
    ONE_TILE_SEAT,
    OUT_SEAT,
    legal_match,
    rack_value,
    unseen_tiles,
    with_corner,
    with_rack,
)


def checked(data: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(
        io.BytesIO(json.dumps(data).encode()), encoding="utf-8"))
    status = main(["check", "-"])
    out, err = capsys.readouterr()
    assert err == ""
    return status, json.loads(out)


def problems(report: dict[str, Any]) -> list[tuple[int, int | None, str]]:
    return [(p["round"], p["turn"], p["code"]) for p in report["problems"]]


@pytest.mark.parametrize("total", [500, 16, 10**6])
def test_a_total_beyond_what_a_one_tile_rack_can_hold_is_reported(
        total: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Bruno holds one tile (15 at most): a total of 500 settled as 25 + 500 ended the match."""
    status, report = checked(with_rack(legal_match(), ONE_TILE_SEAT, total), monkeypatch, capsys)
    assert status == 1 and report["valid"] is False
    assert problems(report) == [(0, None, "rack-total-impossible")]


@pytest.mark.parametrize("total", [15, "true value"])
def test_a_total_the_rack_can_hold_is_taken(
        total: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    match = legal_match()
    total = rack_value(match, ONE_TILE_SEAT) if total == "true value" else total
    status, report = checked(with_rack(match, ONE_TILE_SEAT, total), monkeypatch, capsys)
    assert (status, problems(report)) == (0, [])


def test_points_for_the_player_who_went_out_are_reported_as_the_list_form_is(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Denis went out: a total for his rack was ignored silently, a tile in it reported."""
    match = legal_match()
    status, report = checked(with_rack(match, OUT_SEAT, 10), monkeypatch, capsys)
    assert status == 1 and problems(report) == [(0, None, "rack-total-impossible")]
    status, report = checked(with_rack(match, OUT_SEAT, 0), monkeypatch, capsys)
    assert (status, problems(report)) == (0, [])


def test_a_rack_holding_tiles_the_pool_and_the_other_racks_hold_is_reported(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Racks, table and pool make the set: 14 tiles are still in the pool, so Chloé's rack
    cannot show them beside her own 3 (17 tiles where 3 can be), however many the pool held."""
    match = legal_match()
    chloe = 2
    crowded = match["rounds"][0]["racks"][chloe] + unseen_tiles(match)
    status, report = checked(with_rack(match, chloe, crowded), monkeypatch, capsys)
    assert status == 1 and problems(report) == [(0, None, "rack-impossible")]
    # one tile too many is as impossible as fourteen
    one_more = match["rounds"][0]["racks"][chloe] + unseen_tiles(match)[:1]
    status, report = checked(with_rack(match, chloe, one_more), monkeypatch, capsys)
    assert status == 1 and problems(report) == [(0, None, "rack-impossible")]


def test_a_tile_noted_in_the_wrong_rack_is_only_a_mismatch(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Bruno's tile noted in Alice's rack: the racks still hold what the set leaves them."""
    match = legal_match()
    racks = match["rounds"][0]["racks"]
    changed = with_rack(match, 0, racks[0] + racks[1])
    changed["rounds"][0]["racks"][1] = []
    status, report = checked(changed, monkeypatch, capsys)
    assert status == 1 and problems(report) == [(0, None, "rack-mismatch")] * 2


def test_a_tile_in_the_rack_of_the_player_who_went_out_is_reported(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    match = legal_match()
    status, report = checked(with_rack(match, OUT_SEAT, unseen_tiles(match)[:1]),
                             monkeypatch, capsys)
    assert status == 1 and problems(report) == [(0, None, "rack-impossible")]


@pytest.mark.parametrize("value", [-1, 6, 12, -10**9])
def test_a_corner_that_shows_no_tile_is_a_problem_of_the_check_not_a_reading_error(
        value: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """record-format.md: ``unknown-tile``, values outside 0-5. The upload and the import give
    the same verdict (tests/tournament/.../test_impossible_inputs.py)."""
    status, report = checked(with_corner(legal_match(), value), monkeypatch, capsys)
    assert status == 1
    turn = next(t for t, line in enumerate(report["rounds"][0]["turns"]) if line["verdict"]
                == "illegal")
    assert (0, turn, "unknown-tile") in problems(report)
