"""The referee's decision on a settlement claimed that differs from the engine's, as a record
carries it (``settlement_decision``, ``settlement_reason``: docs/reference/engine.md): the claim kept
counts in the round's scores and the totals, the engine's figure and its problem stay
reported, and a malformed decision makes the record unreadable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import ALL_TILES, RecordError, check_record, parse_record
from tests.scoring.engine_records import check, codes, going_out_round, record, round_, value

ANA_BO = ["Ana", "Bo"]
OUT_TILES = ["5-5-5", "4-5-5", "3-5-5", "4-4-5", "3-4-5", "2-5-5", "4-4-4"]
LEFT = [str(t) for t in ALL_TILES if str(t) not in OUT_TILES]


def out_round(settlement: list[int], **extra: Any) -> dict[str, Any]:
    """Ana goes out; Bo shows his rack; the settlement claimed is ``settlement``."""
    turns, held = going_out_round(OUT_TILES, opener_bonus=10)
    data = round_(turns, racks=[[], LEFT[:held]], settlement=settlement)
    return {**data, **extra}


def engine_settlement() -> int:
    _, held = going_out_round(OUT_TILES, opener_bonus=10)
    return 25 + value(*LEFT[:held])


def test_a_settlement_claim_kept_counts_in_the_round_and_the_totals() -> None:
    figure = engine_settlement()
    plain = check(record(ANA_BO, out_round([figure + 7, 0])))
    kept = check(record(ANA_BO, out_round([figure + 7, 0], settlement_decision="claim",
                                          settlement_reason="the table agreed")))
    assert codes(kept) == codes(plain) == [(0, None, "settlement-mismatch")]
    (round0,) = kept.rounds
    assert round0.settlement == (figure, 0)  # the engine's figure stays reported
    assert round0.settlement_decision == "claim"
    assert round0.scores == (plain.rounds[0].scores[0] + 7, plain.rounds[0].scores[1])
    assert kept.totals == round0.scores
    output = kept.to_json()["rounds"][0]["end"]
    assert output == {"kind": "out", "player": 0, "settlement": [figure, 0], "decision": "claim"}
    assert json.loads(kept.to_text()) == kept.to_json()


def test_the_engine_decision_keeps_the_engine_settlement() -> None:
    figure = engine_settlement()
    plain = check(record(ANA_BO, out_round([figure + 7, 0])))
    decided = check(record(ANA_BO, out_round([figure + 7, 0], settlement_decision="engine")))
    assert decided.totals == plain.totals
    assert decided.to_json()["rounds"][0]["end"]["decision"] == "engine"
    assert "decision" not in plain.to_json()["rounds"][0]["end"]
    assert json.loads(decided.to_text()) == decided.to_json()


def test_a_claim_kept_on_a_round_not_over_counts_nothing() -> None:
    turns, _ = going_out_round(OUT_TILES, opener_bonus=10)
    data = {**round_(turns[:3], settlement=[30, 0]), "settlement_decision": "claim",
            "settlement_reason": "typed too early"}
    report = check(record(ANA_BO, data))
    assert codes(report) == [(0, None, "settlement-mismatch")]
    assert report.totals == check(record(ANA_BO, round_(turns[:3]))).totals


def test_the_decision_goes_through_the_record_and_back() -> None:
    data = record(ANA_BO, out_round([engine_settlement() + 7, 0], settlement_decision="claim",
                                    settlement_reason="the table agreed"))
    parsed = parse_record(data)
    assert parsed.rounds[0].settlement_decision == "claim"
    assert parsed.rounds[0].settlement_reason == "the table agreed"
    again = parsed.to_dict()
    assert again["rounds"][0]["settlement_decision"] == "claim"
    assert parse_record(json.loads(json.dumps(again))) == parsed
    assert check_record(parsed).totals == check(again).totals


@pytest.mark.parametrize(("extra", "path"), [
    ({"settlement_decision": "claim"}, "rounds[0]"),  # no reason
    ({"settlement_decision": "maybe", "settlement_reason": "x"}, "rounds[0].settlement_decision"),
    ({"settlement_decision": "claim", "settlement_reason": 3}, "rounds[0].settlement_reason"),
    ({"settlement_reason": "a reason alone"}, "rounds[0].settlement_decision"),
])
def test_a_malformed_settlement_decision_is_unreadable(extra: dict[str, Any], path: str) -> None:
    with pytest.raises(RecordError) as error:
        parse_record(record(ANA_BO, out_round([engine_settlement() + 7, 0], **extra)))
    assert error.value.params["path"] == path


def test_a_claim_kept_needs_a_settlement_claimed() -> None:
    turns, held = going_out_round(OUT_TILES, opener_bonus=10)
    data = {**round_(turns, racks=[[], LEFT[:held]]), "settlement_decision": "claim",
            "settlement_reason": "no figures"}
    with pytest.raises(RecordError) as error:
        parse_record(record(ANA_BO, data))
    assert error.value.template == "settlement-claim-without-reason"
