"""No input crashes the reader: damaged records, built by Hypothesis from real ones, go
through ``python -m scoring check`` (in this process) and always come out as exit 0, 1 or 2,
with the JSON report matching the status, or one line on standard error naming the field.

A damage is one change at one place of a good record: a value replaced by another of the
wrong type (lists, objects, booleans, floats, texts with unicode digits or a lone surrogate,
integers huge and negative, 5,000 digits long, lists nested thousands deep), a key taken away,
or a key added.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.cli import main
from tests.examples import examples

DATA = Path(__file__).parent / "data"
#: Real records: board mode with mistakes and settlements, sheet mode, a clean match; and one
#: with options, decisions, a rack given as a total and a settlement claimed.
BASES: list[dict[str, Any]] = [
    json.loads((DATA / name).read_text(encoding="utf-8"))
    for name in ("round-with-mistakes.json", "round-sheet-mode.json", "match-clean.json")
] + [
    {
        "format": "triominos-match/1",
        "rules": "travel-tour",
        "target": 300,
        "options": {"opening_bonus": False, "rounds": 2},
        "players": ["Ana", "Bo"],
        "rounds": [
            {
                "turns": [
                    {"player": 0, "place": {"cell": [0, 0, "U"], "corners": [5, 5, 5]},
                     "claimed": 15},
                    {"player": 1, "place": {"tile": "3-5-5"}, "bonus": "bridge", "claimed": 9,
                     "decision": "claim", "reason": "agreed at the table"},
                    {"player": 0, "draws": 3, "claimed": -25},
                ],
                "racks": [["0-0-1", "2-3-4"], 17],
                "settlement_claimed": [0, 0],
                "settlement_decision": "engine",
            }
        ],
    }
]

#: WriteResult into the JSON text in place of a marker: what json.dumps cannot write itself.
RAW = {
    "@huge@": "9" * 5000,
    "@huge-negative@": "-" + "7" * 5000,
    "@deep@": "[" * 5000 + "]" * 5000,
    "@deep-object@": '{"a": ' * 3000 + "1" + "}" * 3000,
    "@nested@": "[" * 900 + "]" * 900,
}

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**9, max_value=10**40),
    st.integers(max_value=-(10**9), min_value=-(10**40)),
    st.sampled_from([10**4000, -(10**4000), 10**9 + 1, -1, 0, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["٣-٤-٥", "３-４-５", "²-³-⁴", "U", "D", "\ud800", "Ana\udfff", "5-5-5",
                     "triominos-match/1", "travel-tour", "", "opening", "claim"]),
    st.sampled_from(list(RAW)),
    st.lists(st.integers(-3, 7), max_size=4),
    st.lists(st.sampled_from(["U", "D", 0, [], {}, None]), max_size=4),
    st.dictionaries(st.sampled_from(["tile", "cell", "corners", "player", "x"]),
                    st.integers(-2, 6), max_size=3),
    st.recursive(st.integers(0, 5), lambda inner: st.lists(inner, max_size=2), max_leaves=6),
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, as the keys and indexes that lead to it."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _places(item, (*path, i))


def _parent(record: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        record = record[key]
    return record


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    record = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    places = list(_places(record))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(places))
        kind = draw(st.sampled_from(["replace", "remove", "add"]))
        target = _parent(record, path) if path else None
        if kind == "replace" or not path:
            junk = draw(JUNK)
            if path:
                target[path[-1]] = junk
            else:
                record = junk
            break  # the places below a replaced value are gone
        if kind == "remove":
            if isinstance(target, dict):
                del target[path[-1]]
            else:
                target.pop(path[-1])
            break
        holder = target[path[-1]]
        if isinstance(holder, dict):
            holder[draw(st.sampled_from(["extra", "options", "opening_bonus", "rounds",
                                         "decision", "racks", "tile", "cell"]))] = draw(JUNK)
        elif isinstance(holder, list):
            holder.append(draw(JUNK))
    text = json.dumps(record, ensure_ascii=True)
    for marker, raw in RAW.items():
        text = text.replace(json.dumps(marker), raw)
    return text.encode("utf-8")


def run_check(data: bytes) -> tuple[int, bytes, str]:
    """``python -m scoring check -`` on ``data``, in this process."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stderr = io.StringIO()
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["check", "-"])
    finally:
        sys.stdin = saved
    stdout.flush()
    return status, stdout.buffer.getvalue(), stderr.getvalue()  # type: ignore[attr-defined]


def assert_sound(status: int, out: bytes, err: str) -> None:
    assert status in (0, 1, 2)
    if status == 2:
        assert out == b""
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert err.startswith("scoring check: standard input: ")
    else:
        assert err == ""
        report = json.loads(out.decode("utf-8"))
        assert report["valid"] is (status == 0)
        assert report["valid"] == (not report["problems"])


@settings(deadline=None, max_examples=examples(300),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(damaged())
def test_no_damaged_record_crashes_the_check(data: bytes) -> None:
    assert_sound(*run_check(data))


@pytest.mark.parametrize(
    ("text", "field"),
    [
        # the damages first found by hand: a cell's orientation or a bonus as a list or an
        # object, integers of 5,000 digits
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
         '{"cell": [0, 0, ["U"]], "corners": [5, 5, 5]}}]}]}', "rounds[0].turns[0].place.cell"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
         '{"cell": [0, 0, {"o": "U"}], "corners": [5, 5, 5]}}]}]}',
         "rounds[0].turns[0].place.cell"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
         '{"tile": "5-5-5"}, "bonus": ["opening"]}]}]}', "rounds[0].turns[0].bonus"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
         '{"tile": "5-5-5"}, "bonus": {"opening": true}}]}]}', "rounds[0].turns[0].bonus"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "draws": '
         + "9" * 5000 + "}]}]}", "rounds[0].turns[0].draws"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [], "racks": [' + "9" * 5000
         + ", 3]}]}", "rounds[0].racks[0]"),
        ('{"target": ' + "4" * 5000 + ', "players": ["A", "B"], "rounds": []}', "target"),
        ('{"target": 1000000001, "players": ["A", "B"], "rounds": []}', "target"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "claimed": -'
         + "1" * 40 + "}]}]}", "rounds[0].turns[0].claimed"),
        ('{"players": ["A\\ud800", "B"], "rounds": []}', "players[0]"),
        ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
         '{"tile": "\\udc00"}}]}]}', "rounds[0].turns[0].place.tile"),
    ],
)
def test_a_damaged_field_is_named_on_one_line(text: str, field: str) -> None:
    status, out, err = run_check(text.encode("utf-8"))
    assert_sound(status, out, err)
    assert status == 2
    assert err.startswith(f"scoring check: standard input: {field}: ")
    assert len(err) < 300


def test_unicode_digits_are_not_tile_values() -> None:
    text = ('{"players": ["A", "B"], "rounds": [{"turns": [{"player": 0, "place": '
            '{"tile": "٣-٤-٥"}}]}]}')
    status, out, err = run_check(text.encode("utf-8"))
    assert (status, err) == (1, "")
    assert [p["code"] for p in json.loads(out)["problems"]] == ["unknown-tile"]
