"""``python -m scoring``: check (exit 0/1/2), simulate; the benchmarks apart (tests/bench/)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring.cli import main
from tests.scoring.engine_records import record, round_, turn

ROOT = Path(scoring.__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"

GOOD = record(["Ana", "Bo"], round_([turn(0, "5-5-5", claimed=25)]))
WRONG_CLAIM = record(["Ana", "Bo"], round_([turn(0, "5-5-5", claimed=24)]))


def run_check(data: bytes, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    status = main(["check", "-"])
    out, err = capsys.readouterr()
    return status, out, err


def dump(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def test_a_clean_record_exits_0(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_check(dump(GOOD), monkeypatch, capsys)
    assert (status, err) == (0, "")
    assert json.loads(out)["valid"] is True


def test_a_record_with_problems_exits_1(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_check(dump(WRONG_CLAIM), monkeypatch, capsys)
    assert (status, err) == (1, "")
    report = json.loads(out)
    assert report["valid"] is False and report["problems"][0]["code"] == "claim-mismatch"


def _without(key: str) -> dict[str, Any]:
    return {k: v for k, v in GOOD.items() if k != key}


def _with_turn(extra: dict[str, Any]) -> dict[str, Any]:
    return record(["Ana", "Bo"], round_([{**turn(0, "5-5-5"), **extra}]))


UNREADABLE = [
    pytest.param(b"{", "not JSON: line 1 column 2", id="not JSON"),
    pytest.param(b"", "not JSON", id="empty"),
    pytest.param(b"\xff\xfe{}", "not UTF-8", id="not UTF-8"),
    pytest.param(b"[1, 2]", "record: expected an object, got a list", id="a list"),
    pytest.param(b"[" * 100_000, "", id="nested too deeply"),
    pytest.param(dump(_without("players")), "players: missing", id="no players"),
    pytest.param(dump(_without("rounds")), "rounds: missing", id="no rounds"),
    pytest.param(dump({**GOOD, "format": "triominos-match/9"}), "format: expected",
                 id="unknown format"),
    pytest.param(dump({**GOOD, "rules": "chess"}), "unknown rule set 'chess'",
                 id="unknown rule set"),
    pytest.param(dump({**GOOD, "target": "400"}), "target: expected an integer",
                 id="target a string"),
    pytest.param(dump({**GOOD, "players": ["Ana"]}), "2 to 4 players, got 1", id="one player"),
    pytest.param(dump(_with_turn({"draws": "2"})), "rounds[0].turns[0].draws: expected an integer",
                 id="draws a string"),
    pytest.param(dump(_with_turn({"draws": -1})), "draws: expected an integer >= 0, got -1",
                 id="negative draws"),
    pytest.param(dump(_with_turn({"player": 2})), "turns[0].player: 2 is not a player index",
                 id="player out of range"),
    pytest.param(dump(_with_turn({"player": True})), "player: expected an integer, got a boolean",
                 id="player a boolean"),
    pytest.param(dump(_with_turn({"claimed": 2.5})), "claimed: expected an integer, got a number",
                 id="claimed a float"),
    pytest.param(dump(_with_turn({"bonus": "jackpot"})), "bonus: expected one of", id="bonus"),
    pytest.param(dump(_with_turn({"place": {"cell": [0, 0, "X"], "corners": [1, 2, 3]}})),
                 "place.cell: expected a cell", id="bad cell"),
    pytest.param(dump(_with_turn({"place": {"cell": [0, 0, "U"]}})), "place.corners: missing",
                 id="cell without corners"),
    pytest.param(dump(_with_turn({"place": {"corners": [1, 2]}})),
                 "place.corners: expected three corner values", id="two corners"),
    pytest.param(dump(_with_turn({"place": {}})), "place: needs cell and corners, or tile",
                 id="empty place"),
    pytest.param(dump(record(["Ana", "Bo"], round_([], racks=[[]]))),
                 "racks: expected one rack per player (2), got 1", id="racks length"),
    pytest.param(dump(record(["Ana", "Bo"], round_([], racks=[[1], []]))),
                 "racks[0][0]: expected a tile name", id="rack entry"),
    pytest.param(dump(record(["Ana", "Bo"], round_([], settlement=[1]))),
                 "settlement_claimed: expected one number per player", id="settlement length"),
]


@pytest.mark.parametrize(("data", "in_message"), UNREADABLE)
def test_unreadable_input_exits_2_with_one_line(
    data: bytes, in_message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_check(data, monkeypatch, capsys)
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("scoring check: standard input: ")
    assert in_message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("path", ["no/such/record.json", "."])
def test_a_file_that_cannot_be_read_exits_2(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cannot read" in err


def run_module(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, cwd=ROOT,
                          capture_output=True, timeout=120, check=False)


@pytest.mark.parametrize(
    ("args", "stdin", "status"),
    [
        (["check", str(DATA / "match-clean.json")], b"", 0),
        (["check", str(DATA / "round-with-mistakes.json")], b"", 1),
        (["check", "-"], b"not json at all", 2),
        (["check", "-"], dump({**GOOD, "rules": "goliath"}), 2),
        ([], b"", 2),
        (["check"], b"", 2),
        (["simulate", "--players", "9"], b"", 2),
        (["explode"], b"", 2),
    ],
)
def test_python_m_scoring_exit_statuses(args: list[str], stdin: bytes, status: int) -> None:
    result = run_module(*args, stdin=stdin)
    assert result.returncode == status
    if status == 2:
        assert result.stdout == b""
        assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr
    else:
        assert json.loads(result.stdout)["valid"] is (status == 0)
        assert result.stderr == b""


def test_simulate_prints_a_record_that_checks_clean(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["simulate", "--players", "3", "--seed", "11"]) == 0
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert data["players"] == ["Alice", "Bruno", "Chloé"]
    assert main(["simulate", "--players", "3", "--seed", "11"]) == 0
    assert capsys.readouterr()[0] == out  # seeded: the same record again
    status, _, _ = run_check(out.encode("utf-8"), monkeypatch, capsys)
    assert status == 0


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["--sheet"], 0),
        (["--mistakes", "1"], 1),
        (["--rules", "goliath-family", "--players", "6"], 0),
        (["--rules", "travel-tour", "--target", "200"], 0),
    ],
)
def test_simulate_options(args: list[str], status: int, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["simulate", "--seed", "5", *args]) == 0
    out, _ = capsys.readouterr()
    if "--sheet" in args:
        assert '"cell"' not in out and '"tile"' in out
    if "--target" in args:
        assert json.loads(out)["target"] == 200
    assert run_check(out.encode("utf-8"), monkeypatch, capsys)[0] == status


def test_a_check_loads_no_benchmark(tmp_path: Path) -> None:
    """The benchmarks are imported when asked for only (scoring/benchmarks/)."""
    path = tmp_path / "match.json"
    path.write_bytes(dump(GOOD))
    code = (
        "import sys\n"
        "from scoring.cli import main\n"
        f"status = main(['check', {str(path)!r}])\n"
        "print(status, sorted(m for m in sys.modules if m.startswith('scoring.benchmarks')),\n"
        "      file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=True)
    assert result.stderr.strip() == "0 []"


def test_a_seeded_simulation_does_not_depend_on_hash_randomisation() -> None:
    outputs = {
        subprocess.run([sys.executable, "-m", "scoring", "simulate", "--seed", "3"], cwd=ROOT,
                       capture_output=True, timeout=120, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


def test_a_record_without_format_is_read_as_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_bytes(dump(_without("format")))
    result = subprocess.run([sys.executable, "-m", "scoring", "check", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode in (0, 1), result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout)["totals"]


def test_the_report_text_is_the_report_json_one_turn_per_line() -> None:
    from scoring import check_record, parse_record
    from scoring.simulate import simulate_match
    for seed, mistakes, sheet in [(1, 0.0, False), (2, 0.3, False), (3, 0.3, True)]:
        data = simulate_match(players=3, seed=seed, mistakes=mistakes, sheet=sheet)
        report = check_record(parse_record(data))
        text = report.to_text()
        assert json.loads(text) == report.to_json()
        turns = sum(len(r.turns) for r in report.rounds)
        assert text.count('{"player": ') == turns
        assert all(line.count('"player"') <= 1 for line in text.splitlines())


def test_several_files_in_one_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, wrong, bad = tmp_path / "good.json", tmp_path / "wrong.json", tmp_path / "bad.json"
    good.write_bytes(dump(GOOD))
    wrong.write_bytes(dump(WRONG_CLAIM))
    bad.write_bytes(b'{"players": ["Ana", "Bo"], "rounds": [{"turns": [{"player": 0, '
                    b'"bonus": ["opening"]}]}]}')
    assert main(["check", str(good), str(wrong)]) == 1
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(line["file"], line["status"]) for line in lines] == [(str(good), 0), (str(wrong), 1)]
    assert lines[1]["report"]["problems"][0]["code"] == "claim-mismatch"
    assert err == ""
    # the same report as when the file is checked alone
    assert main(["check", str(wrong)]) == 1
    assert json.loads(capsys.readouterr()[0]) == lines[1]["report"]

    assert main(["check", str(good), str(bad), str(tmp_path / "missing.json")]) == 2
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["status"] for line in lines] == [0, 2, 2]
    assert "rounds[0].turns[0].bonus" in lines[1]["error"]
    assert "cannot read" in lines[2]["error"]
    assert err.count("\n") == 2 and str(bad) in err


def test_a_check_process_prints_its_whole_report_and_status(tmp_path: Path) -> None:
    # The process ends with os._exit once its output is flushed: nothing may be lost, on
    # standard output or standard error, whatever the status.
    from scoring.simulate import simulate_match

    data = simulate_match(players=4, seed=4, mistakes=0.2)
    path = tmp_path / "match.json"
    path.write_bytes(dump(data))
    expected = scoring.check_record(scoring.parse_record(data))
    result = subprocess.run([sys.executable, "-m", "scoring", "check", str(path)], cwd=ROOT,
                            capture_output=True, check=False, timeout=120)
    assert result.returncode == 1
    assert result.stdout.decode("utf-8") == expected.to_text()
    missing = subprocess.run(
        [sys.executable, "-m", "scoring", "check", str(path), str(tmp_path / "none.json")],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "none.json" in missing.stderr
    assert [json.loads(line)["status"] for line in missing.stdout.splitlines()] == [1, 2]


@pytest.mark.parametrize(
    ("args", "parser_used"),
    [(["check", "GOOD"], False), (["check", "GOOD", "-"], False), (["check", "--", "GOOD"], True)],
)
def test_a_plain_check_does_not_build_the_argument_parser(
    tmp_path: Path, args: list[str], parser_used: bool
) -> None:
    path = tmp_path / "good.json"
    path.write_bytes(dump(GOOD))
    argv = [str(path) if arg == "GOOD" else arg for arg in args]
    code = (
        "import sys; from scoring.cli import main; "
        f"status = main({argv!r}); print(status, 'argparse' in sys.modules, file=sys.stderr)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=dump(GOOD),
                            capture_output=True, check=False, timeout=120)
    assert result.stderr.decode().split() == ["0", str(parser_used)]


@pytest.mark.parametrize("field", ["bonus", "decision", "rules", "players"])
def test_a_lone_surrogate_is_reported_for_its_file_and_the_others_are_checked(
    tmp_path: Path, field: str
) -> None:
    """A text holding an unpaired surrogate (``"\\udfff"``, valid JSON, not Unicode) is that
    file's status 2, named by its field, on one line; the files after it are checked as
    usual, and nothing ends in a traceback."""
    damaged = json.loads(json.dumps(GOOD))
    if field == "players":
        damaged["players"][1] = "\udfff"
    elif field == "rules":
        damaged["rules"] = "\udfff"
    else:
        damaged["rounds"][0]["turns"][0][field] = "\udfff"
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(json.dumps(damaged), encoding="ascii")  # the escape as written: \\udfff
    good.write_bytes(dump(GOOD))
    result = run_module("check", str(bad), str(good))
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    lines = [json.loads(line) for line in result.stdout.decode("utf-8").splitlines()]
    assert [(line["file"], line["status"]) for line in lines] == [(str(bad), 2), (str(good), 0)]
    assert field in lines[0]["error"]
    assert result.stderr.decode("utf-8").count("\n") == 1
    alone = run_module("check", str(bad))
    assert alone.returncode == 2 and alone.stdout == b""
    assert alone.stderr.count(b"\n") == 1 and field.encode() in alone.stderr
