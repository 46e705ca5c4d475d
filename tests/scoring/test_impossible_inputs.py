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
