"""Every benchmark runs, small, and prints each of its lines: the commands of
docs/development/benchmarks.md stay reproducible. The figures are not checked (they measure, a test does
not), hence ``slow``: ``pytest -m "not slow"`` leaves them out."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

import scoring
from scoring.benchmarks.command import run_command_bench
from scoring.benchmarks.engine import run_bench

pytestmark = pytest.mark.slow

ROOT = Path(scoring.__file__).resolve().parent.parent


def run(command: str, **options) -> str:
    out = io.StringIO()
    call_command(command, stdout=out, **options)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_bench_running():
    report = run("bench_running", sessions=2, players=16, sizes="16", requests=2)
    assert "Seating, 2 sessions in memory (seed 0): pairs meeting again" in report
    assert f"Database ({connection.vendor}, throwaway): 16 players, 2 sessions" in report
    for line in ("  standings page /t/bench-16/standings/: ", "  seating session 3 (16 players",
                 "  /t/bench-16/sessions/3/ (session 3 in play): ", "/players/"):
        assert line in report, report


@pytest.mark.django_db(transaction=True)
def test_bench_polls_reports_every_page_and_its_304():
    """Every 304 is asserted by the command itself."""
    lines = run("bench_polls", players=12, sessions=1, requests=2).splitlines()
    assert [line.split()[0] for line in lines[2:]] == ["standings", "session", "player", "match"]
    assert all(line.rstrip().endswith("x") for line in lines[2:])


@pytest.mark.django_db(transaction=True)
def test_bench_room_requests_reports_every_request_of_the_room():
    """Every answer's status (the 304s, the save's 200) is asserted by the command itself;
    the clock's 304 and the polls' read one query each, the tablet's two more (its login)."""
    lines = run("bench_room_requests", players=16, sessions=1, requests=2).splitlines()
    rows = {line.rsplit(None, 3)[0].strip(): line.split() for line in lines[2:]}
    assert list(rows) == ["clock 304, phone", "clock 304, tablet", "poll 304, standings",
                          "poll 304, session", "poll 304, player", "poll 304, match",
                          "poll kept, match", "save: turn"]
    queries = {name: int(row[-1]) for name, row in rows.items()}
    assert queries["clock 304, phone"] == 1 and queries["clock 304, tablet"] == 3
    assert all(queries[f"poll 304, {page}"] == 1
               for page in ("standings", "session", "player", "match"))


@pytest.mark.django_db(transaction=True)
def test_bench_polls_in_play_counts_every_poll_of_every_page():
    """Two tables, 8 phones, 30 s of the room, none of it a warm-up: each phone polls its four
    pages at 0 and 15 s (whatever their offsets, both before 30 s), so 16 polls of each page."""
    lines = run("bench_polls_in_play", tables=2, seconds=30, warm_up=0).splitlines()
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert list(rows) == ["standings", "match", "player", "session", "all"]
    assert [int(row[1]) for row in rows.values()] == [16, 16, 16, 16, 64]


@pytest.mark.django_db(transaction=True)
def test_bench_room_screens_reports_the_screen_and_the_board_and_their_304():
    """Every 304 is asserted by the command itself."""
    lines = run("bench_room_screens", players=12, sessions=1, requests=2).splitlines()
    assert [line.split()[0] for line in lines[2:]] == ["screen", "board"]
    assert all(line.rstrip().endswith("x") for line in lines[2:])


def test_bench_exports_in_memory():
    report = run("bench_exports", players=21, sessions=2, repeat=1)
    for label in ("csv (as_values)", "csv (rows)", "xlsx", "ods"):
        assert f"  {label} " in report, report
    assert "the two CSVs are the same (22 lines)" in report


@pytest.mark.django_db(transaction=True)
def test_bench_exports_times_whole_requests():
    report = run("bench_exports", players=12, sessions=1, repeat=1, database=True)
    for label in ("page (HTML)", "csv", "xlsx", "ods", "csv before (selector + as_values)"):
        assert f"  {label} " in report, report


@pytest.mark.django_db(transaction=True)
def test_bench_printing_reports_every_document(tmp_path):
    report = run("bench_printing", tables=2, players=8, sessions=1, repeat=1, out=tmp_path)
    for label in ("blank score sheets, 2 tables", "seating, 8 players", "standings, 8 players",
                  "match sheet"):
        assert label in report, report
    assert "2 pages" in report
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "match-sheet.pdf", "score-sheets.pdf", "seating.pdf", "standings.pdf"
    ]


@pytest.mark.django_db(transaction=True)
def test_bench_match_answers_prints_every_kind_at_every_turn():
    """Every status (a 304 for the unchanged poll, 200 for the others) is asserted by the
    command itself."""
    lines = run("bench_match_answers", requests=1, turns="5,40").splitlines()
    rows = [line.split() for line in lines[2:]]
    kinds = ["preview", "save", "poll,", "poll,", "poll,"]
    assert [row[0] for row in rows] == kinds * 2
    assert [row[-4] for row in rows] == ["5"] * 5 + ["40"] * 5
    unchanged = [row for row in rows if row[1] == "unchanged"]
    assert [row[-2:] for row in unchanged] == [["0", "0"]] * 2


@pytest.mark.django_db(transaction=True)
def test_bench_long_record_prints_every_request_at_every_length():
    """The upload's redirect and the pages' 200s are asserted by the command itself."""
    lines = run("bench_long_record", requests=1, turns="40,200").splitlines()
    kinds = ("upload", "entry", "public", "live", "entry-kept", "public-kept", "save",
             "save-kept")
    rows = [line.split() for line in lines if line.split()[:1] in ([kind] for kind in kinds)]
    assert [(row[0], row[1]) for row in rows] == [
        (kind, turns) for kind in kinds for turns in ("40", "200")]
    replayed = {(row[0], row[1]): int(row[-2]) for row in rows}
    # the live part replays its round in play alone; a page whose closed rounds' log is not
    # kept yet replays the whole match once to make it, then its round in play; once kept,
    # the page replays its round in play alone, as the live part does
    in_play = replayed["live", "200"]
    assert 0 < in_play < 100
    assert replayed["entry", "200"] == replayed["public", "200"] == 200 + in_play
    assert replayed["entry-kept", "200"] == replayed["public-kept", "200"] == in_play
    # a save with its replay kept plays its own turn alone; its answer leaves the closed
    # rounds (none confirmed) to the page, which shows the match as the save found it
    assert replayed["save-kept", "40"] == replayed["save-kept", "200"] == 0
    size = {(row[0], row[1]): int(row[-3].replace(",", "")) for row in rows}
    assert size["save-kept", "200"] < 1.5 * size["save-kept", "40"]


@pytest.mark.django_db(transaction=True)
def test_bench_recording():
    report = run("bench_recording", repeat=2, late=40)
    for line in ("simulated match 3: 5 rounds, 148 turns", "save a turn (board mode): median ",
                 "preview a turn (replay + engine): median ", "the referee's match page (",
                 "POST a turn at turn 5: CPU median ", "POST a turn at turn 40: CPU median ",
                 "turn 40 / turn 5 CPU ratio: "):
        assert line in report, report


@pytest.mark.django_db
def test_bench_ratings():
    report = run("bench_ratings", players=40, matches=200, start=20, repeat=2)
    for line in ("40 players, 200 matches built in ",
                 "a confirmation's refresh with 20 matches in the history: ",
                 "ratings_rebuild(): ", "a confirmation's refresh with 200 matches",
                 "the ratings page (40 players): 1 queries", "its CSV (40 players): 1 queries",
                 "the league's page (", "charts drawn: ", "charts kept: "):
        assert line in report, report


def test_the_engine_benchmark_prints_its_figures():
    out = io.StringIO()
    run_bench(matches=2, boards=1, runs=2, out=out)
    text = out.getvalue()
    assert "check, read + replay: " in text and "check, replay only: " in text
    assert "turns/s" in text and "us per turn" in text
    for size in (20, 40, 49, 50, 60):
        assert f"{size} tiles: " in text
    assert text.count("two sets") == 2


def test_the_command_benchmark_compares_two_checkouts():
    out = io.StringIO()
    run_command_bench(runs=1, against=ROOT, bytecode_cache=True, out=out)
    text = out.getvalue()
    assert "long record: 150 rounds, 5134 turns" in text
    assert "short record: " in text and ", 110 turns" in text
    assert text.count("us per turn") == 4 and text.count("x as fast per turn") == 2
    assert text.count(" us a turn") == 2 and text.count("x as fast a turn") == 1


def test_bench_archive_reads_every_archive():
    report = run("bench_archive", matches=3, scale=0.01).splitlines()
    assert report[0].startswith("Reading an archive as the import does")
    assert report[1].startswith("  well-formed, 3 matches: read;")
    assert len(report) == 10 and all(" peak " in line for line in report[1:])


def test_bench_rating_study_rates_every_candidate():
    output = run("bench_rating_study", seasons=2, events=2, sessions=2, betas="8")
    assert "2 seasons, 32 matches" in output
    for name in ("openskill ties, beta 25/6 (before)", "beta 20 (in use)", "BradleyTerryFull",
                 "ThurstoneMostellerFull", "beta 8"):
        assert name in output


def test_a_tie_rated_by_the_study_is_the_app_s():
    """The study's "in use" candidate is the app's model exactly."""
    from openskill.models import PlackettLuce

    from bench.study import mean_of_orders
    from tournament.ratings.model import BETA, INITIAL, rate

    model = PlackettLuce(beta=BETA)
    studied = mean_of_orders(model, [model.rating()] * 4, (300, 300, 200, 100))
    used = rate([INITIAL] * 4, [300, 300, 200, 100])
    assert [(r.mu, r.sigma) for r in studied] == [(s.mu, s.sigma) for s in used]


@pytest.mark.django_db(transaction=True)
def test_bench_federation_reports_the_app_and_postgresql_per_save_and_poll():
    """Every save and every 304 is asserted by the command itself; PostgreSQL's CPU is read
    from its server process, hence PostgreSQL only."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's own CPU per request: DATABASE_URL=postgres://...")
    lines = run("bench_federation", saves=35, polls=3).splitlines()
    rows = {line[:16].strip(): line[16:].split() for line in lines if line[:4] in ("save", "poll")}
    assert list(rows) == ["save", "poll, 304", "poll, kept 200"]
    assert rows["save"][0] == "35" and rows["poll, 304"][0] == "3"
    assert rows["poll, 304"][3] == "1.0"  # one indexed read, before anything is made
