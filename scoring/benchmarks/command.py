"""``python -m scoring bench-command``: the whole ``python -m scoring check`` command, start-up
included, as a user runs it.

Two records are simulated and written to a temporary directory (not timed): a long one of
about 150 rounds (about 5,000 turns: a 4-player match played to 13,000 points) and a 110-turn
match (the first 110 turns of a 4-player match, its last round left unfinished). Each is
checked ``runs`` times by a new ``python -m scoring check`` process; the figure is the
process's CPU time (user + system, from ``resource.getrusage(RUSAGE_CHILDREN)``), the smallest
of the runs and the median. With ``--against DIR`` (the root of another checkout of the
project, e.g. an earlier commit), the same records are checked by that engine too, runs
alternating between the two, and the ratios are printed: both engines are measured in the
same minute on the same machine. The start-up of a bare ``python -c pass`` is printed too:
no engine can check faster than that. Last, the cost of each turn beyond the fixed cost of
starting: the long record's time less the short one's, over the turns it has more.

The processes inherit the environment: with ``PYTHONDONTWRITEBYTECODE`` set, Python compiles
every module at every start; ``--bytecode-cache`` runs them with a cache of compiled modules
in a temporary directory instead (filled by a first run, not timed), as an installed project
has.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final, TextIO

import scoring
from scoring.simulate import simulate_match

__all__ = ["run_command_bench", "first_turns"]

#: The checkout whose engine is measured: the folder that holds ``scoring/``.
_ROOT: Final = Path(scoring.__file__).resolve().parent.parent
_SHORT_TURNS: Final = 110


def first_turns(record: dict[str, Any], turns: int) -> dict[str, Any]:
    """The record cut after its first ``turns`` turns (a round cut short loses its racks).

    >>> cut = first_turns(simulate_match(players=2, seed=1), 30)
    >>> [len(r["turns"]) for r in cut["rounds"]][-1] > 0, sum(len(r["turns"]) for r in cut["rounds"])
    (True, 30)
    """
    rounds, left = [], turns
    for round_ in record["rounds"]:
        kept = round_["turns"][:left]
        left -= len(kept)
        if len(kept) < len(round_["turns"]):
            rounds.append({"turns": kept})
            break
        rounds.append(round_)
        if not left:
            break
    return {**record, "rounds": rounds}


def _records() -> dict[str, dict[str, Any]]:
    long = simulate_match(players=4, seed=1, target=13000)
    short = first_turns(simulate_match(players=4, seed=2), _SHORT_TURNS)
    return {"long": long, "short": short}


def _cpu(command: list[str], *, cwd: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_command_bench(
    *,
    runs: int = 15,
    against: Path | None = None,
    bytecode_cache: bool = False,
    out: TextIO = sys.stdout,
) -> None:
    """Measure and print (see the module's docstring)."""
    engines = {"this engine": _ROOT}
    if against is not None:
        engines["--against"] = against.resolve()
    print(f"Python {sys.version.split()[0]}, {runs} runs of each", file=out)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        print(
            "compiled modules: "
            + ("cached" if bytecode_cache or "PYTHONDONTWRITEBYTECODE" not in env
               else "compiled at every start (PYTHONDONTWRITEBYTECODE)"),
            file=out,
        )
        files = {}
        for name, record in _records().items():
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
            turns = sum(len(r["turns"]) for r in record["rounds"])
            files[name] = (path, turns, len(record["rounds"]))
        times: dict[tuple[str, str], list[float]] = {}
        bare = [_cpu([sys.executable, "-c", "pass"], cwd=_ROOT, env=env) for _ in range(runs)]
        print(
            f"python -c pass (the interpreter's own start-up, for scale): "
            f"{min(bare) * 1e3:.1f} ms CPU",
            file=out,
        )
        for root in engines.values():  # a first run each, not timed (fills the cache)
            for path, _turns, _rounds in files.values():
                _cpu([sys.executable, "-m", "scoring", "check", str(path)], cwd=root, env=env)
        for _ in range(runs):
            for label, root in engines.items():
                for name, (path, _turns, _rounds) in files.items():
                    command = [sys.executable, "-m", "scoring", "check", str(path)]
                    times.setdefault((label, name), []).append(_cpu(command, cwd=root, env=env))
        for name, (_path, turns, rounds) in files.items():
            print(f"{name} record: {rounds} rounds, {turns} turns", file=out)
            for label in engines:
                spent = times[(label, name)]
                best, median = min(spent), statistics.median(spent)
                print(
                    f"  {label}: {best * 1e3:.1f} ms CPU (median {median * 1e3:.1f} ms), "
                    f"{best / turns * 1e6:.1f} us per turn",
                    file=out,
                )
            if against is not None:
                ratio = min(times[("--against", name)]) / min(times[("this engine", name)])
                print(f"  this engine is {ratio:.2f}x as fast per turn", file=out)
        (_, long_turns, _), (_, short_turns, _) = files["long"], files["short"]
        print("each turn beyond the short record's (the long record's time less the short's):",
              file=out)
        marginal = {}
        for label in engines:
            beyond = min(times[(label, "long")]) - min(times[(label, "short")])
            marginal[label] = beyond / (long_turns - short_turns)
            print(f"  {label}: {marginal[label] * 1e6:.1f} us a turn", file=out)
        if against is not None:
            ratio = marginal["--against"] / marginal["this engine"]
            print(f"  this engine is {ratio:.2f}x as fast a turn", file=out)
