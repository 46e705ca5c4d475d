"""The Locust room (``bench/locustfile.py``) runs as the docs say, against a real server: a
small room for a few seconds, at a twentieth of the human pace, records every kind of request
the room makes, the server's CPU of each, and no error. Each write is checked by the file
itself: answered 200 with the match's revision one above the one it was posted at."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from bench.management.commands.bench_room_knee import knee, results_version
from tournament.core.freshness import tournament_write
from tournament.models import AuditEntry, Match

LOCUSTFILE = Path(__file__).resolve().parents[2] / "bench" / "locustfile.py"
PACE = 0.05


def small_room(live_server, tmp_path, *, entry: str) -> tuple[dict, dict, dict, int]:
    """A room of 4 tables (``entry``: who enters its matches) played by Locust until its last
    table's third round is confirmed: the room, the figures, that table and that round."""
    room_file = tmp_path / "room.json"
    call_command("bench_room_setup", tables=4, sessions_before=1, out=str(room_file),
                 entry=entry, stdout=io.StringIO())
    room = json.loads(room_file.read_text())
    last = room["tables"][-1]  # caught in its third round, its first two confirmed
    confirming = {"confirm", "sign"}
    to_confirm = max(i for i, write in enumerate(last["writes"])
                     if write["kind"] in confirming and write["round"] == 3)
    assert last["writes"][to_confirm]["round"] == 3
    # the slowest pace of every write up to that confirmation, the round's end counted twice,
    # and a second for each answer: a loaded machine (CI, -n 2) answers each write slowly, and
    # the tablet waits for one before it sends the next (a seat's signature: two requests)
    seconds = math.ceil((to_confirm + 2) * (15 * PACE + 2) + 8 * PACE + 5)
    summary = tmp_path / "summary.json"
    # every placed tile with a cell where it does not fit tapped first: the server's preview
    # (the only one the page asks for) is among the kinds counted
    env = {**os.environ, "BENCH_ROOM": str(room_file), "BENCH_PACE": str(PACE),
           "BENCH_WARMUP": "0", "BENCH_SUMMARY": str(summary), "BENCH_NOFIT": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
         "--host", live_server.url, "--users", "20", "--spawn-rate", "20",
         "--run-time", f"{seconds}s", "--only-summary", "--loglevel", "ERROR"],
        env=env, capture_output=True, text=True, timeout=seconds + 90)
    figures = json.loads(summary.read_text())
    assert figures["errors"] == 0 and run.returncode == 0, run.stdout + run.stderr[-3000:]
    return room, figures, last, to_confirm


def third_round(table: dict):
    match = Match.objects.get(pk=int(table["match"].rstrip("/").rsplit("/", 1)[-1]))
    return match, match.rounds.get(index=2)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_small_room_runs_without_an_error_and_counts_every_kind(live_server, tmp_path):
    room, figures, last, to_confirm = small_room(live_server, tmp_path, entry="referees")
    assert (figures["tables"], figures["phones"]) == (4, 16)
    kinds = figures["kinds"]
    assert {"save: turn", "save: round end", "save: confirm", "preview", "poll: match",
            "poll: player", "poll: session", "poll: standings", "clock"} <= set(kinds)
    # the clock asked fresh first, then with the browser's copy: a 304 while it stands
    assert 0 < kinds["clock"]["not_modified"] < kinds["clock"]["count"]
    # every periodic request in the aim's group: the polls, the clock, the fetches
    assert figures["poll"]["count"] == sum(
        kind["count"] for name, kind in kinds.items()
        if name.startswith(("poll: ", "fetch: ")) or name == "clock")
    # Server-Timing: every answer says its CPU, its queries' time and its time in the worker
    assert all(None not in (kind["cpu_median"], kind["db_median"], kind["app_median"])
               for kind in kinds.values())
    assert all(kinds[name]["db_median"] > 0 for name in ("save: turn", "poll: player"))
    assert figures["save"]["count"] == sum(kinds[name]["count"] for name in (
        "save: turn", "save: round end", "save: confirm"))
    # the writes reached the database: the last table's third round is confirmed
    match, confirmed = third_round(last)
    assert match.revision >= last["revision"] + to_confirm + 1
    assert confirmed.confirmed_at is not None
    # the room spread over rounds 1 to 3: the first table in its first, the last in its third
    assert room["tables"][0]["revision"] == 0 and last["revision"] > 2


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_room_whose_tables_keep_their_score_signs_its_rounds(live_server, tmp_path):
    """The tables' scorer phones make the writes, and every seat signs each round on its
    table's phone, passed round: the last signature confirms it, no referee's."""
    room, figures, last, to_confirm = small_room(live_server, tmp_path, entry="tables")
    assert room["entry"] == "tables" and all(len(table["codes"]) == 4 for table in room["tables"])
    kinds = figures["kinds"]
    assert {"save: turn", "save: round end", "save: sign", "page: sign"} <= set(kinds)
    assert "save: confirm" not in kinds
    assert figures["save"]["count"] == sum(kinds[name]["count"] for name in (
        "save: turn", "save: round end", "save: sign"))
    match, confirmed = third_round(last)
    assert match.revision >= last["revision"] + to_confirm + 1
    assert confirmed.confirmed_at is not None
    signed = AuditEntry.objects.filter(match=match, action=AuditEntry.Action.ROUND_SIGNED)
    assert {entry.details["seat"] for entry in signed if entry.details["round"] == 2} == {
        0, 1, 2, 3}
    assert set(AuditEntry.objects.filter(match=match, action=AuditEntry.Action.ROUND_SIGNED)
               .values_list("device", flat=True)) == {f"bench-{match.pk}"}


def test_the_knee_is_the_most_tables_within_both_aims_and_no_error():
    def step(tables, save, poll, errors=0):
        return {"tables": tables, "errors": errors, "save": {"p95": save}, "poll": {"p95": poll}}

    steps = [step(8, 120, 40), step(16, 250, 90), step(32, 280, 99, errors=1),
             step(64, 310, 80), step(128, 900, 700)]
    assert knee(steps, save_p95=300, poll_p95=100) == 16
    assert knee(steps[3:], save_p95=300, poll_p95=100) is None


@pytest.mark.django_db(transaction=True)
def test_a_step_counts_the_raises_of_the_results_version(tournament, tmp_path):
    """What a step reads at its start and end: the room's tournament's results version, raised
    by a write that moves the results (a match confirmed), not by one that does not (a turn);
    read on a thread of its own, its connection closed after (the test's then opened again)."""
    room = tmp_path / "room.json"
    room.write_text(json.dumps({"slug": tournament.slug, "tables": []}))
    before = results_version(str(room))
    with tournament_write(tournament_id=tournament.pk):
        pass
    assert results_version(str(room)) == before + 1
    with tournament_write(tournament_id=tournament.pk, results=False):
        pass
    assert results_version(str(room)) == before + 1
