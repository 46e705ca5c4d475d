"""``python -m scoring``: check a match record, simulate a match, run the benchmark.

- ``check FILE|- [FILE ...]``: print the check report (JSON); exit 0 when the record has no
  problem, 1 when it has problems, 2 when it is not a readable record (one line on standard
  error, nothing on standard output). With several files, in one process: one line of JSON
  per file, ``{"file": ..., "status": 0|1, "report": {...}}`` or ``{"file": ..., "status": 2,
  "error": "..."}`` (the error on standard error too), and the highest status.
- ``simulate --players 4 --seed 7 [--rules R] [--target N] [--sheet] [--mistakes P]
  [--skills P,P,...]``: print a whole simulated match record (``--skills``: players of known
  strength).
- ``bench [--matches 200]``: print the engine's speed (``scoring/benchmarks/engine.py``).
- ``bench-command [--runs 15] [--against DIR] [--bytecode-cache]``: the CPU time of whole
  ``check`` commands, start-up included (``scoring/benchmarks/command.py``).

The benchmarks are imported only when asked for: a check never loads them.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from scoring.errors import RecordError
from scoring.record_reading import load_record
from scoring.replay import check_record
from scoring.reports import MatchReport
from scoring.rules import RULE_SETS

if TYPE_CHECKING:
    import argparse

__all__ = ["main", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_UNREADABLE"]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_UNREADABLE = 2


def _write_json(data: Any, stream: TextIO) -> None:
    _write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", stream)


def _write_text(text: str, stream: TextIO) -> None:
    """Write UTF-8 text, whatever the stream's own encoding; a character UTF-8 cannot hold
    (an unpaired surrogate) is written as its escape (``\\udfff``), never a crash."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        buffer.write(text.encode("utf-8", "backslashreplace"))
        buffer.flush()
    else:
        stream.write(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_one(name: str) -> tuple[int, MatchReport | str]:
    """Read and check one file: its status, and its report or the line that says why it
    cannot be read (also written on standard error)."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                data = handle.read()
    except OSError as error:
        message = f"cannot read: {error.strerror}"
        print(f"scoring check: {name}: {message}", file=sys.stderr)
        return EXIT_UNREADABLE, message
    try:
        record = load_record(data)
        report = check_record(record)
    except RecordError as error:
        return _unreadable(name, _one_line(str(error)))
    except Exception as error:  # noqa: BLE001 - this file is reported, the next ones checked
        return _unreadable(name, f"cannot be checked: {type(error).__name__}")
    return (EXIT_OK if report.valid else EXIT_PROBLEMS), report


def _unreadable(name: str, message: str) -> tuple[int, str]:
    """Status 2 for this file, and its line on standard error."""
    where = "standard input" if name == "-" else name
    _write_text(f"scoring check: {where}: {message}\n", sys.stderr)
    return EXIT_UNREADABLE, message


def _check(args: argparse.Namespace) -> int:
    return _check_many(args.files)


def _check_many(names: list[str]) -> int:
    # A record, its replay and its report make no reference cycles, so reference counting
    # frees them all; the cyclic collector would only walk the growing report again and
    # again (about 15 % of a 5,000-turn check). Restored after: main() may run inside a
    # longer process, as in the tests.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _check_files(names)
    finally:
        if collecting:
            gc.enable()


def _check_files(names: list[str]) -> int:
    if len(names) == 1:
        status, result = _check_one(names[0])
        if isinstance(result, MatchReport):
            _write_text(result.to_text(), sys.stdout)
        return status
    worst = EXIT_OK
    for name in names:
        status, result = _check_one(name)
        line: dict[str, Any] = {"file": name, "status": status}
        if isinstance(result, MatchReport):
            line["report"] = result.to_json()
        else:
            line["error"] = result
        _write_text(json.dumps(line, ensure_ascii=False) + "\n", sys.stdout)
        worst = max(worst, status)
    return worst


def _simulate(args: argparse.Namespace) -> int:
    from scoring.simulate import simulate_match

    try:
        skills = None
        if args.skills:
            skills = [float(part) for part in args.skills.split(",")]
        record = simulate_match(
            players=args.players,
            seed=args.seed,
            rules=args.rules,
            target=args.target,
            mistakes=args.mistakes,
            sheet=args.sheet,
            skills=skills,
        )
    except ValueError as error:
        print(f"scoring simulate: {_one_line(str(error))}", file=sys.stderr)
        return EXIT_UNREADABLE
    _write_json(record, sys.stdout)
    return EXIT_OK


def _bench(args: argparse.Namespace) -> int:
    from scoring.benchmarks.engine import run_bench

    run_bench(
        matches=args.matches,
        players=args.players,
        boards=args.boards,
        runs=args.runs,
        out=sys.stdout,
    )
    return EXIT_OK


def _bench_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scoring.benchmarks.command import run_command_bench

    run_command_bench(
        runs=args.runs,
        against=None if args.against is None else Path(args.against),
        bytecode_cache=args.bytecode_cache,
        out=sys.stdout,
    )
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    import argparse  # not needed by a plain check (see main())

    class _Parser(argparse.ArgumentParser):
        """An argument parser whose errors are one line on standard error, exit status 2."""

        def error(self, message: str) -> NoReturn:
            self.exit(EXIT_UNREADABLE, f"{self.prog}: error: {message}\n")

    parser = _Parser(prog="python -m scoring", description="The Triominos rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    check = commands.add_parser(
        "check",
        help="replay match records and check every claim",
        description="Replay a match record and print the check report (JSON, one turn per "
        "line). Exit status: 0 no problem, 1 problems, 2 not a readable record (one line on "
        "standard error). With several files, checked in one process: one line of JSON per "
        'file, {"file": FILE, "status": 0 or 1, "report": {...}} or {"file": FILE, "status": '
        '2, "error": "..."}, in the order given; the exit status is the highest one.',
    )
    check.add_argument(
        "files", metavar="FILE", nargs="+", help="a record (JSON), or - for standard input"
    )
    check.set_defaults(run=_check)

    simulate = commands.add_parser(
        "simulate",
        help="print a simulated match record",
        description="Print a whole match record of legal play, seeded.",
    )
    simulate.add_argument("--players", type=int, default=4, help="players (default 4)")
    simulate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    simulate.add_argument(
        "--rules", choices=sorted(RULE_SETS), default="goliath-tournament", help="rule set"
    )
    simulate.add_argument("--target", type=int, default=None, help="override the target")
    simulate.add_argument(
        "--sheet", action="store_true", help="record tiles only, as a paper score sheet"
    )
    simulate.add_argument(
        "--mistakes",
        type=float,
        default=0.0,
        metavar="P",
        help="probability of a wrong claim (default 0)",
    )
    simulate.add_argument(
        "--skills",
        default="",
        metavar="P,P,...",
        help="each player's strength: the probability of the best-scoring placement, else the "
        "worst (default: the best 85%% of the time, else any)",
    )
    simulate.set_defaults(run=_simulate)

    bench = commands.add_parser(
        "bench",
        help="measure the engine's speed",
        description="Turns checked per second over simulated matches, and the time to list "
        "the legal placements of a 7-tile rack on boards of 20 to 60 tiles.",
    )
    bench.add_argument("--matches", type=int, default=200, help="matches to check (200)")
    bench.add_argument("--players", type=int, default=4, help="players per match (4)")
    bench.add_argument("--boards", type=int, default=10, help="boards of each size (10)")
    bench.add_argument("--runs", type=int, default=200, help="runs per rack (200)")
    bench.set_defaults(run=_bench)

    command = commands.add_parser(
        "bench-command",
        help="measure whole check commands, start-up included",
        description="The CPU time of python -m scoring check processes on a 150-round "
        "record and a 110-turn match, simulated first; with --against, the same for another "
        "checkout of the project, and the ratios.",
    )
    command.add_argument("--runs", type=int, default=15, help="runs of each command (15)")
    command.add_argument(
        "--against", metavar="DIR", default=None, help="root of another checkout to compare"
    )
    command.add_argument(
        "--bytecode-cache",
        action="store_true",
        help="keep compiled modules between runs (in a temporary directory)",
    )
    command.set_defaults(run=_bench_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if (
        len(arguments) > 1
        and arguments[0] == "check"
        and not any(name.startswith("-") and name != "-" for name in arguments[1:])
    ):
        # check FILE..., the command run most, read without the argument parser: importing
        # argparse and building the parser is 2 to 3 ms of a check. Anything else (an
        # option, --help, a mistake) goes through the parser.
        return _check_many(arguments[1:])
    args = _parser().parse_args(arguments)
    status: int = args.run(args)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
