"""The three example records of the docs, replayed: the output of ``python -m scoring check``
equals ``*.expected.json`` except each problem's free-text ``message``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import check_record, load_record
from scoring.cli import main

DATA = Path(__file__).parent / "data"
NAMES = ["match-clean", "round-with-mistakes", "round-sheet-mode"]


def without_messages(report: dict[str, Any]) -> dict[str, Any]:
    problems = [{k: v for k, v in p.items() if k != "message"} for p in report["problems"]]
    return {**report, "problems": problems}


@pytest.mark.parametrize("name", NAMES)
def test_check_reproduces_the_expected_output(name: str) -> None:
    expected = json.loads((DATA / f"{name}.expected.json").read_text("utf-8"))
    report = check_record(load_record((DATA / f"{name}.json").read_bytes())).to_json()
    assert without_messages(report) == without_messages(expected)
    assert list(report) == list(expected)  # the keys, in order
    assert list(report["rounds"][0]["turns"][0]) == list(expected["rounds"][0]["turns"][0])
    for problem in report["problems"]:
        assert problem["message"].strip()


@pytest.mark.parametrize(("name", "status"), [("match-clean", 0), ("round-with-mistakes", 1),
                                              ("round-sheet-mode", 0)])
def test_the_command_prints_it_and_exits(name: str, status: int,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / f"{name}.json")]) == status
    out, err = capsys.readouterr()
    expected = json.loads((DATA / f"{name}.expected.json").read_text("utf-8"))
    assert without_messages(json.loads(out)) == without_messages(expected)
    assert err == ""


def test_the_messages_of_the_mistakes() -> None:
    report = check_record(load_record((DATA / "round-with-mistakes.json").read_bytes()))
    assert [p.message for p in report.problems] == [
        "Chloé claimed 14 for 3-5-5 at D(0,-1), the turn scores 13",
        "Alice claimed 5 for 1-2-2 at U(-1,2), the turn scores 5 + 40 (bridge) = 45",
        "Denis claimed 70 at the settlement, the settlement gives 65",
    ]
