"""``python manage.py bench_room_knee``: the room at increasing sizes, and the knee.

Builds the room (``bench_room_setup --tables`` the largest step, in the database of
``DATABASE_URL``) unless ``--no-setup``; starts gunicorn serving ``--app`` with ``--gunicorn``
(its options; the README's by default: ``tournament.serving``, ``"-k uvicorn_worker.UvicornWorker
--workers 2 --keep-alive 30"``) on ``--bind`` unless ``--no-server``
(then a server must answer at that address, with the same settings); then runs Locust headless (``bench/locustfile.py``)
once per step of ``--steps`` tables, 4 phones each, every step for ``--seconds`` counted after
the users have started and a ``--warm-up``. Each step prints its line: requests a second, a
save's p50/p95 (a turn, a round's end, a confirmation), a preview's, a poll's, the share of
polls answered 304, the errors, the fetches of a match told by its stream, the server's CPU per request type (the median of
``Server-Timing: cpu``), and the machine's load average (``/proc/loadavg``) at the start and
the end of the counted seconds: the machine may be shared, and the figures say with what.
Started here, the server's workers' own CPU is counted too, and how many times the room's
tournament's results version was raised in the counted seconds (a match confirmed: every
public page is made again, every phone's next poll a 200): the room's matches go on from
one step to the next, so a later step, or a room played before, confirms more of them.

The knee is the most tables of a step with a save's p95 <= ``--save-p95`` (300 ms), the p95 of
every periodic request of the pages (the polls, the clock, the fetches after a stream's event)
<= ``--poll-p95`` (100 ms) and no error. The steps after the first that misses are still
run unless ``--stop-past-knee``. ``--json`` writes every step's figures.

The server must run with the benchmarks' app (``TRIOMINOS_BENCH=1`` in production mode) for
the CPU per request; the room's referees' sessions are signed with the server's secret key:
run this command with the server's environment.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from tournament.models import Tournament

LOCUSTFILE = Path(__file__).resolve().parents[2] / "locustfile.py"
#: The request types whose CPU each step prints, in this order.
CPU_KINDS = ("save: turn", "save: round end", "save: confirm", "preview", "poll: match",
             "fetch: match (moved)", "fetch: match (rounds)", "clock", "poll: player",
             "poll: session", "poll: standings")
SPAWN_RATE = 50


def knee(steps: list[dict], *, save_p95: float, poll_p95: float) -> int | None:
    """The most tables of a step that meets both aims with no error (None: no step does)."""
    good = [step["tables"] for step in steps if meets(step, save_p95=save_p95, poll_p95=poll_p95)]
    return max(good) if good else None


def meets(step: dict, *, save_p95: float, poll_p95: float) -> bool:
    save, poll = step["save"]["p95"], step["poll"]["p95"]
    return (step["errors"] == 0 and save is not None and poll is not None
            and save <= save_p95 and poll <= poll_p95)


def step_line(step: dict) -> str:
    def pair(group: dict) -> str:
        return "/".join("-" if group[p] is None else f"{group[p]:.0f}" for p in ("p50", "p95"))

    cpu = " ".join(
        f"{kind.split(': ')[-1]}={step['kinds'][kind]['cpu_median']:.1f}"
        for kind in CPU_KINDS
        if kind in step["kinds"] and step["kinds"][kind]["cpu_median"] is not None)
    load = step["load_average"]
    workers = (f", {step['workers_cores']:.2f} in the workers "
               f"({step['workers_cpu_ms_per_request']:.1f} ms a request)"
               if "workers_cores" in step else "")
    raised = (f"; results version raised {step['results_raised']} times"
              if "results_raised" in step else "")
    return (f"{step['tables']:>6} {step['phones']:>6} {step['requests_per_second']:>7.1f} "
            f"{pair(step['save']):>11} {pair(step['preview']):>11} {pair(step['poll']):>15} "
            f"{step['poll_304_share']:>5.0%} {step['errors']:>6}  clock p50/95 "
            f"{pair(step['clock']) if 'clock' in step else '-'} (304 "
            f"{step.get('clock_304_share', 0):.0%}); parts brought by the streams "
            f"{step.get('parts_told', 0)}; fetches after an event "
            f"{step.get('fetches', 0)} (304 with them {step.get('phone_304_share', 0):.0%}); server CPU "
            f"{step['server_cpu_seconds'] / max(step['seconds'], 1):.2f} cores in the requests' "
            f"threads{workers}{raised}; ms: {cpu}  "
            f"load {load['start']} -> {load['end']}")


class Command(BaseCommand):
    help = "Run the Locust room at increasing table counts and print the knee."

    def add_arguments(self, parser):
        parser.add_argument("--steps", default="8,16,32,64,128",
                            help="Tables at each step, comma-separated (8,16,32,64,128).")
        parser.add_argument("--seconds", type=int, default=60,
                            help="Seconds counted at each step (60).")
        parser.add_argument("--warm-up", type=int, default=20,
                            help="Seconds after the users started, not counted (20).")
        parser.add_argument("--bind", default="127.0.0.1:8000",
                            help="The server's address (127.0.0.1:8000).")
        parser.add_argument("--app", default="tournament.serving",
                            help="The application gunicorn serves (tournament.serving; "
                                 "tournament.asgi: Django's ASGI handler alone; "
                                 "tournament.wsgi: the pages without the matches' streams).")
        parser.add_argument("--gunicorn", default="-k uvicorn_worker.UvicornWorker --workers 2 "
                                                   "--keep-alive 30",
                            help='gunicorn\'s options (the README\'s: "-k '
                                 'uvicorn_worker.UvicornWorker --workers 2 --keep-alive 30").')
        parser.add_argument("--no-server", action="store_true",
                            help="Start no server: one answers at --bind already.")
        parser.add_argument("--no-setup", action="store_true",
                            help="Use the room of --room as it is (no bench_room_setup).")
        parser.add_argument("--room", default="bench/room.json", help="The room file.")
        parser.add_argument("--sessions-before", type=int, default=3)
        parser.add_argument("--save-p95", type=float, default=300.0)
        parser.add_argument("--poll-p95", type=float, default=100.0)
        parser.add_argument("--stop-past-knee", action="store_true")
        parser.add_argument("--json", dest="json_out", default="",
                            help="Write every step's figures there.")

    def handle(self, *args, steps, verbosity, seconds, warm_up, bind, app, gunicorn, no_server, no_setup, room,
               sessions_before, save_p95, poll_p95, stop_past_knee, json_out,
               **options):
        self.verbosity = verbosity
        tables = sorted({int(step) for step in steps.split(",") if step.strip()})
        if not tables or tables[0] < 1:
            raise CommandError("--steps: table counts of 1 or more, e.g. 8,16,32")
        if not no_setup:
            call_command("bench_room_setup", tables=tables[-1], sessions_before=sessions_before,
                         out=room, force=True, stdout=self.stdout)
        elif len(_read_room(room)["tables"]) < tables[-1]:
            raise CommandError(f"{room} has fewer tables than {tables[-1]}")
        host = f"http://{bind}"
        server = self.server = None if no_server else self.start_server(app, bind, gunicorn)
        try:
            self.wait_for(host)
            self.stdout.write(
                f"server: {'as it runs' if no_server else f'gunicorn {app} {gunicorn}'}, "
                f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, cache "
                f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; "
                f"{seconds} s counted a step after {warm_up} s; phones: one page each at a time")
            self.stdout.write(f"{'tables':>6} {'phones':>6} {'req/s':>7} {'save p50/95':>11} "
                              f"{'prev. p50/95':>11} {'periodic p50/95':>15} {'304':>5} "
                              f"{'errors':>6}")
            done: list[dict] = []
            for count in tables:
                step = self.run_step(host=host, room=room, tables=count, seconds=seconds,
                                     warm_up=warm_up)
                done.append(step)
                self.stdout.write(step_line(step))
                for name, samples in step["error_samples"].items():
                    self.stdout.write(f"  errors of {name}: {samples}")
                if json_out:  # after each step: a run stopped halfway keeps its figures
                    Path(json_out).parent.mkdir(parents=True, exist_ok=True)
                    Path(json_out).write_text(json.dumps(
                        {"steps": done, "gunicorn": gunicorn}, indent=1))
                if stop_past_knee and not meets(step, save_p95=save_p95, poll_p95=poll_p95):
                    break
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:  # streams still open past gunicorn's grace
                    server.kill()
                    server.wait(timeout=30)
        found = knee(done, save_p95=save_p95, poll_p95=poll_p95)
        self.stdout.write(
            f"knee (save p95 <= {save_p95:.0f} ms, poll p95 <= {poll_p95:.0f} ms, no error): "
            + (f"{found} tables, {4 * found} phones" if found else "no step"))
        if json_out:
            Path(json_out).parent.mkdir(parents=True, exist_ok=True)
            Path(json_out).write_text(json.dumps(
                {"steps": done, "knee": found, "gunicorn": gunicorn}, indent=1))

    def start_server(self, app: str, bind: str, options: str) -> subprocess.Popen:
        command = ["gunicorn", app, "--bind", bind, *shlex.split(options)]
        log = None if self.verbosity > 1 else subprocess.DEVNULL
        return subprocess.Popen(command, cwd=settings.BASE_DIR, stdout=log, stderr=log)

    def wait_for(self, host: str) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{host}/", timeout=5).read()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise CommandError(f"no server answers at {host}") from None
                time.sleep(0.5)

    def run_step(self, *, host: str, room: str, tables: int, seconds: int, warm_up: int
                 ) -> dict:
        users = 5 * tables
        run_time = -(-users // SPAWN_RATE) + warm_up + seconds
        # the workers' own CPU over the counted seconds (all of it: the event loop's, the
        # threads', beyond what Server-Timing sees of the requests' threads)
        workers: dict[str, float] = {}
        if self.server is not None:
            started = time.monotonic() + run_time - seconds

            def sample(at: str) -> None:
                workers[at] = workers_cpu(self.server.pid)
                workers[f"{at}_time"] = time.monotonic()
                workers[f"{at}_results"] = results_version(room)

            timer = threading.Timer(max(0.0, started - time.monotonic()), sample, ("start",))
            timer.start()
        with tempfile.TemporaryDirectory() as folder:
            summary = Path(folder) / "summary.json"
            env = {**os.environ, "BENCH_ROOM": room, "BENCH_TABLES": str(tables),
                   "BENCH_WARMUP": str(warm_up), "BENCH_SUMMARY": str(summary)}
            run = subprocess.run(
                ["locust", "-f", str(LOCUSTFILE), "--headless", "--host", host,
                 "--users", str(users), "--spawn-rate", str(SPAWN_RATE),
                 "--run-time", f"{run_time}s", "--only-summary", "--loglevel", "ERROR",
                 "--exit-code-on-error", "0"],
                env=env, cwd=settings.BASE_DIR, capture_output=True, text=True,
                timeout=run_time + 120)
            if self.server is not None:
                timer.cancel()
                sample("end")
            if not summary.exists():
                raise CommandError(f"locust gave no figures:\n{run.stderr[-3000:]}")
            figures = _read_room(str(summary))
            if "start" in workers:
                cores = (workers["end"] - workers["start"]) / (
                    workers["end_time"] - workers["start_time"])
                figures["workers_cores"] = cores
                figures["workers_cpu_ms_per_request"] = (
                    1000 * cores / max(figures["requests_per_second"], 1e-9))
                figures["results_raised"] = workers["end_results"] - workers["start_results"]
            return figures


def workers_cpu(master: int) -> float:
    """The CPU seconds (user and system) of the processes whose parent is ``master`` (the
    gunicorn workers), from ``/proc``."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:  # fields after the name: state, ppid, ..., utime, stime
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def results_version(room: str) -> int:
    """The results version of the room's tournament now: each raise (a match confirmed, in
    the room) makes every public page of the tournament again (``tournament.core.freshness``).
    Read on the timer's thread: its connection closed at once."""
    try:
        return Tournament.objects.values_list("results_version", flat=True).get(
            slug=_read_room(room)["slug"])
    finally:
        connection.close()


def _read_room(path: str) -> dict:
    return json.loads(Path(path).read_text())
