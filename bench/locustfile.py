"""The room under load: tablets entering their matches, phones following the event.

Run against a server of the room built by ``python manage.py bench_room_setup`` (see
docs/development/benchmarks.md, "The room under load"); ``python manage.py bench_room_knee`` runs it at
increasing sizes and prints the knee. By hand, for ``N`` tables (``N`` tablets, ``4N`` phones):

    BENCH_TABLES=N locust -f bench/locustfile.py --headless --host http://127.0.0.1:8000 \
        --users 5N --spawn-rate 50 --run-time 110s

The requests are the ones the pages' scripts send (``tournament/static/``), on a room whose
tables are spread over their rounds 1 to 3 (``bench_room_setup``):

- ``Tablet`` (one per table, ``BENCH_TABLES`` of the room's tables): logged in as its table's
  referee (the room's session cookie: logged in before the session starts), it opens the match
  page, reads the match's revision from ``X-Match-Revision`` and makes its table's writes in
  order, at a human pace: a turn every 8 to 15 s, the round's end (the racks shown) when the
  round is over and its confirmation. The preview of a tile that fits the cell tapped is the
  page's own (``entry.js`` and ``board.js``: no request); the server is asked only for a cell
  where the tile does not fit, which the tablet taps first ``BENCH_NOFIT`` of the turns
  (0.125: a time in eight): the tile at the cell across the side of the one it goes to, which
  the server refuses (taken, or not fitting) at the cost of any preview. Each write is posted as htmx and the queue post it
  (``queue.js``: ``HX-Request``, ``X-CSRFToken``, a ``submission_key``), at the revision the
  last answer gave in ``X-Match-Revision``.
  Where the room's session is entered by the tables (``bench_room_setup --entry tables``), the
  tablet is the table's scorer phone instead (its browser's session bound through the sheet's
  link, no login): the same page and writes, and each round's confirmation is the seats'
  signatures, the phone passed round (``round_sign.html``): the round's page to sign opened,
  then each seat in turn chooses itself, types the code printed beside its name and agrees
  (a form's post answered by a redirect to that page, which the browser follows); after the
  last, the phone goes back to the match's page.
- ``Phone`` (4 per table): a player's phone, on one page at a time: the standings (35%), the
  table's match by the table card's address (35%), the player's own page (20%), the session
  (10%), another drawn every 2 to 5 minutes. It polls the page's live part every 15 s as htmx
  does (``HX-Request``), with the browser's cache: ``If-None-Match`` with the ETag of the last
  answer, a 304 counted apart from a 200. The match's page follows its stream instead
  (``pages.js``): each event brings the live part (counted, no request), or, when it carries
  the revision alone, the live part is asked for (``fetch: match (moved)``); when the live
  part's settled rounds (``data-log``) are not the page's, the whole match is taken again
  (``fetch: match (rounds)``).
- Every match page, a tablet's and a phone's, asks its session clock (``clock.js``): the
  table's ``clock.json`` at once without the browser's copy, then every 20 s with it
  (``If-None-Match``); a phone's match page asks nothing while its stream brings the clock
  (its ``clock`` events), and asks at once when the stream closes.
- Each phone is a device of its own on the venue's network: on a loopback host, its stream
  comes from an address of its own (``127.1.x.y``, :func:`phone_address`), as the server's
  bound of streams per address counts a real phone's; from one address, 64 phones in all
  would stream and the rest would poll.

Every answer carries the server's timings of the request (``Server-Timing: cpu;dur=``, with its
queries' time ``db`` and its wall time in the worker ``app``, added by ``bench/server_timing.py``
when the benchmarks' app is installed in the server); the file counts them per kind of
request. At the end it prints, per kind, the requests, errors, 304s, p50/p95, the server's CPU
(median, mean), the queries' and the worker's time (medians), and the room's save and poll percentiles; ``BENCH_SUMMARY`` names
a JSON file to write them to (``bench_room_knee`` reads it).

``BENCH_ROOM``: the room file (``bench/room.json``); ``BENCH_TABLES``: how many of its tables
play (all); ``BENCH_WARMUP``: seconds after the last user started whose requests are not
counted (20: every phone has opened its page); ``BENCH_PACE``: a factor on every wait (1; the
tests run it at 0.05); ``BENCH_NOFIT``: the share of placed turns with a cell where the tile
does not fit tapped first (0.125); ``BENCH_PREVIEWS=server``: every placed tile previewed by
the server as before the browser scored it (one a turn, a second one a time in four).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlparse

import gevent
import gevent.socket
from locust import FastHttpUser, constant, events, task
from requests.cookies import create_cookie

ROOM = json.loads(Path(os.environ.get("BENCH_ROOM", "bench/room.json")).read_text())
TABLES = ROOM["tables"][: int(os.environ.get("BENCH_TABLES") or len(ROOM["tables"]))]
SLUG = ROOM["slug"]
PACE = float(os.environ.get("BENCH_PACE") or 1)
WARMUP = float(os.environ.get("BENCH_WARMUP") or 20)
NOFIT = float(os.environ.get("BENCH_NOFIT") or 0.125)
#: The tablets as they were before the browser scored a fitting tile: every placed tile
#: previewed by the server, a second time a time in four (for a before/after in one set-up).
SERVER_PREVIEWS = os.environ.get("BENCH_PREVIEWS", "browser") == "server"
#: The seconds between two polls of a phone (``poll_seconds``, the pages' hx-trigger).
POLL_SECONDS = 15
#: The match's page follows the match's stream where the server has one (pages.js);
#: ``BENCH_STREAMS=0``: it polls as before the streams.
STREAMS = os.environ.get("BENCH_STREAMS", "1") != "0"
STREAM_ADDRESS = re.compile(r'data-stream="([^"]+)"')
#: The match's region and its live part, whose ``data-log`` names their settled rounds.
MATCH_TAG = re.compile(r'<div id="match"[^>]*>')
LIVE_TAG = re.compile(r'<div id="match-live"[^>]*>')
DATA_LOG = re.compile(r'data-log="([^"]*)"')
#: The seconds between two asks of a page's clock (``clock.js``).
CLOCK_SECONDS = 20
#: Which page a phone is on (the room model of the measures in docs/development/benchmarks.md),
#: and how long it stays on one before it opens another (minutes, drawn between the two).
PAGE_SHARES = {"standings": 0.35, "match": 0.35, "player": 0.20, "session": 0.10}
PAGE_MINUTES = (2, 5)
#: The page each phone opens first, by its number: those shares over 20 phones, the four
#: kinds among any four phones in a row (a small room reads every kind).
FIRST_PAGES = ("standings", "match", "player", "session", "standings", "match", "standings",
               "match", "player", "standings", "match", "player", "standings", "match",
               "session", "standings", "match", "player", "standings", "match")
#: The kinds of request whose p95 the room's aims are about.
SAVES = ("save: turn", "save: round end", "save: confirm", "save: sign")
PAGES = ("match", "player", "session", "standings")
REVISION = "X-Match-Revision"
#: The round to sign as the page shows it (``round_sign.html``): what the seats read.
SIGNED_DIGEST = re.compile(r'name="digest" value="([^"]*)"')
#: The server's timings of a request (``bench/server_timing.py``): its CPU, its queries, its
#: wall time in the worker.
SERVER_TIMING = {metric: re.compile(rf"\b{metric};dur=([0-9.]+)") for metric in ("cpu", "db", "app")}


def paced(low: float, high: float) -> float:
    return random.uniform(low, high) * PACE


# --- the figures: each request's time, status and server CPU, counted after the warm-up ----


class Figures:
    """Every request counted once the room is up (``start``), by kind (the request's name)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.start: float | None = None
        self.load_at_start = ""
        self.requests: dict[str, list[Answer]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        #: The live parts the streams brought (no request: counted apart).
        self.parts = 0
        #: The clocks the streams brought (no request: counted apart).
        self.clocks = 0

    def told(self) -> None:
        if self.counting():
            with self.lock:
                self.parts += 1

    def clocked(self) -> None:
        if self.counting():
            with self.lock:
                self.clocks += 1

    def counting(self) -> bool:
        return self.start is not None and time.monotonic() >= self.start

    def add(self, name, response_time, response, exception) -> None:
        if not self.counting():
            return
        status = getattr(response, "status_code", 0) or 0
        headers = getattr(response, "headers", None) or {}
        timing = headers.get("Server-Timing", "") or ""
        found = {metric: pattern.search(timing) for metric, pattern in SERVER_TIMING.items()}
        server = {metric: float(match.group(1)) if match else None for metric, match in found.items()}
        size = len(getattr(response, "content", b"") or b"") if status else 0
        with self.lock:
            self.requests[name].append(Answer(response_time, status, size, **server))
            if exception is not None:
                self.errors[name].append(str(exception)[:200])

    def summary(self) -> dict:
        seconds = time.monotonic() - self.start if self.counting() else 0.0
        kinds = {}
        for name, rows in sorted(self.requests.items()):
            cpus = [row.cpu for row in rows if row.cpu is not None]
            kinds[name] = {
                "count": len(rows),
                "errors": len(self.errors.get(name, [])),
                "not_modified": sum(1 for row in rows if row.status == 304),
                "p50": percentile([row.time for row in rows], 50),
                "p95": percentile([row.time for row in rows], 95),
                "cpu_median": percentile(cpus, 50),
                "cpu_mean": sum(cpus) / len(cpus) if cpus else None,
                "cpu_total": sum(cpus),
                "db_median": percentile([row.db for row in rows if row.db is not None], 50),
                "app_median": percentile([row.app for row in rows if row.app is not None], 50),
                "bytes_mean": sum(row.size for row in rows) / len(rows),
            }

        def group(names) -> dict:
            times = [row.time for name in names for row in self.requests.get(name, [])]
            return {"count": len(times), "p50": percentile(times, 50),
                    "p95": percentile(times, 95)}

        polls = [name for name in self.requests if name.startswith("poll: ")]
        # a match's live part asked because its stream told it moved, the whole match taken
        # when its settled rounds changed: a phone's requests, not polls (each is asked
        # because there is something new)
        fetches = [name for name in self.requests if name.startswith("fetch: ")]
        clocks = [name for name in self.requests if name == "clock"]
        every = sum(len(rows) for rows in self.requests.values())
        return {
            "tables": len(TABLES),
            "phones": 4 * len(TABLES),
            "seconds": round(seconds, 1),
            "requests": every,
            "requests_per_second": every / seconds if seconds else 0.0,
            "errors": sum(len(found) for found in self.errors.values()),
            "error_samples": {name: found[:3] for name, found in self.errors.items()},
            "save": group(SAVES),
            # every periodic request of a page: the polls, the clock, the fetches after an
            # event (the room's aim is on their p95)
            "poll": group(polls + fetches + clocks),
            "polls_alone": group(polls),
            "clock": group(clocks),
            "clock_304_share": (sum(kinds[name]["not_modified"] for name in clocks)
                                / max(1, sum(kinds[name]["count"] for name in clocks))),
            "parts_told": self.parts,
            "clocks_told": self.clocks,
            "poll_304_share": (sum(kinds[name]["not_modified"] for name in polls)
                               / max(1, sum(kinds[name]["count"] for name in polls))),
            "fetches": sum(kinds[name]["count"] for name in fetches),
            "phone_304_share": (sum(kinds[name]["not_modified"] for name in polls + fetches)
                                / max(1, sum(kinds[name]["count"] for name in polls + fetches))),
            "preview": group(["preview"]),
            "server_cpu_seconds": sum(kind["cpu_total"] for kind in kinds.values()) / 1000,
            "load_average": {"start": self.load_at_start, "end": load_average()},
            "kinds": kinds,
        }


class Answer(NamedTuple):
    """One request counted: the client's time (ms), the status, the body's bytes, and the
    server's CPU, query and in-worker times (ms; None without ``Server-Timing``)."""

    time: float
    status: int
    size: int
    cpu: float | None = None
    db: float | None = None
    app: float | None = None


def percentile(values: list[float], pct: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))]


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return ""


FIGURES = Figures()


@events.request.add_listener
def _count(request_type, name, response_time, response_length, response=None, exception=None,
           **kwargs):
    FIGURES.add(name, response_time, response, exception)


@events.spawning_complete.add_listener
def _room_up(user_count, **kwargs):
    FIGURES.start = time.monotonic() + WARMUP
    gevent.spawn_later(WARMUP, lambda: setattr(FIGURES, "load_at_start", load_average()))


@events.quitting.add_listener
def _report(environment, **kwargs):
    summary = FIGURES.summary()
    print(report(summary))
    if os.environ.get("BENCH_SUMMARY"):
        Path(os.environ["BENCH_SUMMARY"]).write_text(json.dumps(summary, indent=1))


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def tenth(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def report(summary: dict) -> str:
    lines = [
        f"The room: {summary['tables']} tables, {summary['phones']} phones "
        f"(one page each at a time), {summary['seconds']} s counted, "
        f"{summary['requests_per_second']:.1f} requests/s, {summary['errors']} errors; "
        f"load average {summary['load_average']['start']} -> {summary['load_average']['end']}",
        f"{'request':<22}{'count':>7}{'errors':>7}{'304':>6}{'p50 ms':>8}{'p95 ms':>8}"
        f"{'CPU ms (median)':>16}{'CPU ms (mean)':>14}{'DB ms':>7}{'app ms':>8}{'KiB':>7}",
    ]
    for name, kind in summary["kinds"].items():
        share = (f"{kind['not_modified'] / kind['count']:.0%}"
                 if name.startswith(("poll", "fetch")) else "")
        cpu_mean = "-" if kind["cpu_mean"] is None else f"{kind['cpu_mean']:.1f}"
        cpu_median = "-" if kind["cpu_median"] is None else f"{kind['cpu_median']:.1f}"
        lines.append(f"{name:<22}{kind['count']:>7}{kind['errors']:>7}{share:>6}"
                     f"{ms(kind['p50']):>8}{ms(kind['p95']):>8}{cpu_median:>16}{cpu_mean:>14}"
                     f"{tenth(kind['db_median']):>7}{tenth(kind['app_median']):>8}"
                     f"{kind['bytes_mean'] / 1024:>7.1f}")
    # "poll": every periodic request (the polls, the clock, the fetches after an event)
    for group in ("save", "preview", "poll", "polls_alone", "clock"):
        lines.append(f"{group}: {summary[group]['count']} requests, p50 "
                     f"{ms(summary[group]['p50'])} ms, p95 {ms(summary[group]['p95'])} ms")
    lines.append(f"polls answered 304: {summary['poll_304_share']:.0%}; with the "
                 f"{summary['fetches']} fetches after a stream's event: "
                 f"{summary['phone_304_share']:.0%}; clock 304: "
                 f"{summary['clock_304_share']:.0%}; live parts brought by the streams: "
                 f"{summary['parts_told']}, clocks: {summary['clocks_told']}; the server's CPU, all "
                 f"requests counted: {summary['server_cpu_seconds']:.1f} s")
    for name, samples in summary["error_samples"].items():
        lines.append(f"errors of {name}: {samples}")
    return "\n".join(lines)


# --- the users -----------------------------------------------------------------------------

_numbers = {"tablet": itertools.count(), "phone": itertools.count()}
_numbers_lock = threading.Lock()


def next_number(kind: str) -> int:
    """The next tablet's or phone's number: tablet n takes table n, phones 4n to 4n + 3 too."""
    with _numbers_lock:
        return next(_numbers[kind])


def phone_address(number: int, host: str) -> tuple[str, int] | None:
    """The source address of phone ``number``'s stream: one of its own in ``127.1.0.0/16``
    when the server is on the loopback (Linux answers the whole of ``127.0.0.0/8``), else
    the system's choice."""
    if not (host or "").startswith("127."):
        return None
    return (f"127.1.{number // 250}.{number % 250 + 1}", 0)


CELL = re.compile(r"^([UD])\((-?\d+),(-?\d+)\)$")


def across(cell: str) -> str:
    """The cell across a side of ``cell`` (``U(x,y)`` and ``D(x,y)`` share one): taken, or
    open, where the tile going to ``cell`` seldom fits.

    >>> across("U(0,-1)"), across("D(2,3)")
    ('D(0,-1)', 'U(2,3)')
    """
    found = CELL.match(cell)
    if found is None:
        return cell
    orientation, x, y = found.groups()
    return f"{'D' if orientation == 'U' else 'U'}({x},{y})"


class Tablet(FastHttpUser):
    """A table's tablet, logged in as its referee, making its match's writes one by one."""

    fixed_count = len(TABLES)
    wait_time = constant(0)  # the task waits as the referee does

    def on_start(self):
        self.table = TABLES[next_number("tablet") % len(TABLES)]
        self.url = self.table["match"]
        name, key = self.table["session_cookie"]
        host = urlparse(self.host).hostname
        # the cookie jar names a host without a dot (localhost) as "localhost.local"
        self.client.cookiejar.set_cookie(
            create_cookie(name, key, domain=host if "." in host else f"{host}.local"))
        gevent.sleep(paced(0, 8))  # the tablets are not all started at the same second
        self.digest = ""  # the round the seats sign, as its page showed it
        self.load()
        self.clock = gevent.spawn(Clock(self, self.table).run)  # the entry page's clock

    def on_stop(self):
        self.clock.kill()

    def load(self):
        """The match page as the tablet opens it: the revision it writes at, the CSRF cookie."""
        with self.client.get(self.url, name="page: tablet", catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"the match page answered {answer.status_code}")
                raise RuntimeError(f"{self.url}: {answer.status_code}")
            if b"match-page--entry" not in answer.content or REVISION not in answer.headers:
                answer.failure("not logged in as the table's referee, nor its scorer phone")
                raise RuntimeError("the referee is not logged in (or the scorer phone not "
                                   "bound): run bench_room_setup with the server's settings "
                                   "(the same TRIOMINOS_SECRET_KEY)")
            self.revision = int(answer.headers[REVISION])
        self.token = next(
            (cookie.value for cookie in self.client.cookiejar if cookie.name == "csrftoken"), "")

    @property
    def next_write(self) -> dict | None:
        index = self.revision - self.table["revision"]
        writes = self.table["writes"]
        return writes[index] if 0 <= index < len(writes) else None

    def post(self, path: str, data: dict, *, name: str):
        headers = {"HX-Request": "true", "HX-Target": "match", "X-CSRFToken": self.token,
                   "Referer": self.host + self.url}
        if name != "preview":  # sent from the page, which shows the revision (queue.js)
            headers["X-Match-Shown"] = str(self.revision)
        form = {**data, "revision": str(self.revision), "csrfmiddlewaretoken": self.token}
        if name != "preview":
            form["submission_key"] = uuid.uuid4().hex
        return self.client.post(self.url + path, data=form, headers=headers, name=name,
                                catch_response=True)

    def save(self, path: str, data: dict, *, name: str):
        with self.post(path, data, name=name) as answer:
            revision = answer.headers.get(REVISION)
            if answer.status_code == 200 and revision == str(self.revision + 1):
                answer.success()
            elif answer.status_code == 200:
                answer.failure(f"revision {self.revision} -> {revision}")
            else:
                answer.failure(f"{name}: {answer.status_code} "
                               f"({answer.headers.get('X-Submission', '')})")
            if revision and revision.isdigit():
                self.revision = int(revision)  # the tablet carries on from where the match is

    def preview(self, form: dict, *, cell: str | None = None):
        asked = {key: value for key, value in form.items() if key not in ("corners", "claimed")}
        if cell is not None:
            asked["cell"] = cell
        with self.post("preview/", asked, name="preview") as answer:
            if answer.status_code == 200:
                answer.success()
            else:
                answer.failure(f"preview: {answer.status_code}")

    def sign_page(self) -> str:
        """The round to sign as the scorer phone shows it: its digest (what the seats read)."""
        with self.client.get(self.url + "sign/", name="page: sign",
                             catch_response=True) as answer:
            found = SIGNED_DIGEST.search(answer.text or "")
            if answer.status_code != 200 or found is None:
                answer.failure(f"the page to sign answered {answer.status_code}")
                return ""
            return found.group(1)

    def sign(self, write: dict) -> None:
        """A seat's signature on the scorer phone passed round: its seat, its code, agreed;
        the redirect's page followed; after the last seat, the match's page again."""
        if write["seat"] == 0 or not self.digest:
            self.digest = self.sign_page()
        form = {"round": str(write["round"]), "digest": self.digest,
                "seat": str(write["seat"]), "code": self.table["codes"][write["seat"]],
                "word": "agree", "csrfmiddlewaretoken": self.token}
        with self.client.post(self.url + "sign/", data=form, name="save: sign",
                              headers={"Referer": self.host + self.url + "sign/"},
                              allow_redirects=False, catch_response=True) as answer:
            if answer.status_code == 302:
                answer.success()
                self.revision += 1  # each seat's word is a write of the match
            else:
                answer.failure(f"sign: {answer.status_code}")
        if write["seat"] == len(self.table["codes"]) - 1:
            self.digest = ""
            self.load()  # the round confirmed: back to the match's page, at its revision
        else:
            self.digest = self.sign_page() or self.digest

    @task
    def write(self):
        write = self.next_write
        if write is None:  # the match is over: the tablet stays on its page
            gevent.sleep(60 * PACE)
            return
        gap = paced(8, 15)
        if write["kind"] == "turn" and "pass" not in write["form"]:
            gevent.sleep(gap * 0.6)  # the tile picked, the cell tapped
            if SERVER_PREVIEWS:
                if random.random() < 0.25:
                    self.preview(write["form"])
                    gevent.sleep(gap * 0.1)
                self.preview(write["form"])
            elif random.random() < NOFIT:  # a cell where the tile does not fit tapped first
                self.preview(write["form"], cell=across(write["form"]["cell"]))
                gevent.sleep(gap * 0.1)
            gevent.sleep(gap * 0.3)  # the points typed (the fitting tile previewed at once)
            self.save("turns/", write["form"], name="save: turn")
        elif write["kind"] == "turn":
            gevent.sleep(gap)
            self.save("turns/", write["form"], name="save: turn")
        elif write["kind"] == "end":
            gevent.sleep(gap * 2)  # the racks counted and typed
            self.save(f"rounds/{write['round']}/end/", write["form"], name="save: round end")
        elif write["kind"] == "sign":
            gevent.sleep(gap * 0.5)  # the phone passed to the seat, its code typed
            self.sign(write)
        else:
            gevent.sleep(gap)
            self.save(f"rounds/{write['round']}/confirm/", {}, name="save: confirm")


class Clock:
    """A match page's session clock as ``clock.js`` asks for it: its table's ``clock.json``
    at once, fresh (no-store: no ``If-None-Match``), then every 20 s with the browser's copy
    (``If-None-Match``: a 304 while the clock is as it was); nothing while the page's stream
    brings it (``page["clock_streamed"]``, a phone's match page)."""

    def __init__(self, user: FastHttpUser, table: dict, page: dict | None = None) -> None:
        self.user = user
        self.path = f"/t/{SLUG}/sessions/{ROOM['session']}/tables/{table['number']}/clock.json"
        self.etag = ""
        self.page = page if page is not None else {}

    def ask(self, *, fresh: bool = False) -> None:
        headers = {"Accept": "application/json"}
        if self.etag and not fresh:
            headers["If-None-Match"] = self.etag
        with self.user.client.get(self.path, headers=headers, name="clock",
                                  catch_response=True) as answer:
            if answer.status_code in (200, 304):
                self.etag = answer.headers.get("ETag", self.etag)
                answer.success()
            else:
                answer.failure(f"clock: {answer.status_code}")

    def run(self) -> None:
        self.ask(fresh=True)
        while True:
            gevent.sleep(CLOCK_SECONDS * PACE)
            if not self.page.get("clock_streamed"):
                self.ask()


def match_log(html: str, element: re.Pattern) -> str | None:
    """The digest of the settled rounds (``data-log``) on ``element``'s tag in ``html``."""
    found = element.search(html or "")
    if found is None:
        return None
    log = DATA_LOG.search(found.group(0))
    return log.group(1) if log else ""


class Phone(FastHttpUser):
    """A player's phone: on one page at a time, changed now and then (``PAGE_SHARES``),
    polled every 15 s with the browser's cache; the match's page follows its stream instead,
    where the server has one (``STREAMS``), and asks its session clock (``Clock``)."""

    fixed_count = 4 * len(TABLES)
    wait_time = constant(0)

    def on_start(self):
        number = next_number("phone")
        self.source = phone_address(number, urlparse(self.host).hostname)
        self.table = TABLES[number // 4 % len(TABLES)]
        seat = number % 4
        player = self.table["players"][seat % len(self.table["players"])]
        self.addresses = {
            "match": self.table["address"],  # the table card's QR code: it leads to the match
            "player": f"/t/{SLUG}/players/{player}/",
            "session": f"/t/{SLUG}/sessions/{ROOM['session']}/",
            "standings": f"/t/{SLUG}/standings/",
        }
        self.helpers: list[gevent.Greenlet] = []
        self.page: dict = {}
        gevent.sleep(paced(0, POLL_SECONDS))  # the phones' polls spread over the 15 s
        self.open(FIRST_PAGES[number % len(FIRST_PAGES)])

    def on_stop(self):
        gevent.killall(self.helpers)

    def open(self, kind: str) -> None:
        """The page opened (the stream and the clock of the page before let go), then
        followed as the page's scripts follow it."""
        gevent.killall(self.helpers)
        self.helpers = []
        answer = self.client.get(self.addresses[kind], name=f"page: {kind}")
        # the table's address redirects to the match, whose page polls its live part alone
        # (tournament:match_live, pages.js); the other pages poll their own address. The
        # page's ETag is not the live part's (the answer varies on HX-Request): the
        # browser's cache has none for the first poll
        match = self.table["match"]
        self.page = {"kind": kind, "etag": "",
                     "path": match + "live/" if kind == "match" else self.addresses[kind],
                     "current": match if kind == "match" else self.addresses[kind],
                     "until": time.monotonic() + paced(*PAGE_MINUTES) * 60}
        if kind != "match":
            return
        self.page["log"] = match_log(answer.text, MATCH_TAG)
        self.page["clock"] = Clock(self, self.table, self.page)
        self.helpers.append(gevent.spawn(self.page["clock"].run))
        found = STREAM_ADDRESS.search(answer.text or "")
        if STREAMS and found is not None:
            self.page["stream"] = found.group(1).replace("&amp;", "&")
            self.helpers.append(gevent.spawn(self.follow, self.page))

    def ask(self, page: dict, name: str) -> None:
        headers = {"HX-Request": "true", "HX-Current-URL": self.host + page["current"]}
        if page["etag"]:
            headers["If-None-Match"] = page["etag"]
        with self.client.get(page["path"], headers=headers, name=name,
                             catch_response=True) as answer:
            if answer.status_code in (200, 304):
                page["etag"] = answer.headers.get("ETag", page["etag"])
                answer.success()
            else:
                answer.failure(f"{name}: {answer.status_code}")
                return
        if page["kind"] == "match" and answer.status_code == 200:
            self.settled(page, match_log(answer.text, LIVE_TAG))

    def settled(self, page: dict, log: str | None) -> None:
        """A match's live part put in place: when its settled rounds are not the ones the
        page shows (a round ended, a confirmation), the whole match taken again (pages.js)."""
        if log is None or log == page.get("log"):
            return
        headers = {"HX-Request": "true", "HX-Target": "match",
                   "HX-Current-URL": self.host + page["current"]}
        with self.client.get(page["current"], headers=headers, name="fetch: match (rounds)",
                             catch_response=True) as answer:
            if answer.status_code == 200:
                page["log"] = match_log(answer.text, MATCH_TAG)
                answer.success()
            else:
                answer.failure(f"fetch: match (rounds): {answer.status_code}")

    @task
    def poll(self):
        gevent.sleep(POLL_SECONDS * PACE)
        if not self.page:
            return
        if time.monotonic() >= self.page["until"]:  # another page now and then
            others = [kind for kind in PAGES if kind != self.page["kind"]]
            self.open(random.choices(others, weights=[PAGE_SHARES[kind] for kind in others])[0])
            return
        if not self.page.get("streaming"):  # pages.js: no poll while the stream is open
            self.ask(self.page, f"poll: {self.page['kind']}")

    def follow(self, page: dict) -> None:
        """The match's stream as the browser's EventSource follows it: each event's live part
        put in place (the live part asked for when the event carries the revision alone), the
        stream opened again 5 s after it ended (``retry``); a 204 (a WSGI server) and the
        page polls as before."""
        address = urlparse(self.host)
        while True:
            try:
                connection = gevent.socket.create_connection(
                    (address.hostname, address.port or 80), timeout=None,
                    source_address=self.source)
            except OSError:
                gevent.sleep(5)
                continue
            try:
                # the last event's id, as the browser sends it when it opens the stream again
                told = f"Last-Event-ID: {page['told']}\r\n" if "told" in page else ""
                connection.sendall(
                    f"GET {page['stream']} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                    f"Accept: text/event-stream\r\n{told}\r\n".encode())
                data = b""
                while b"\r\n\r\n" not in data:
                    received = connection.recv(4096)
                    if not received:
                        break
                    data += received
                head, _, data = data.partition(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
                if status != 200:
                    return
                page["streaming"] = True
                while True:
                    *events, data = data.split(b"\n\n")
                    for message in events:
                        self.told(page, message)
                    received = connection.recv(65536)
                    if not received:
                        break
                    data += received
            except OSError:
                pass
            finally:
                page["streaming"] = False
                connection.close()
            if page.pop("clock_streamed", False):  # clock.js: asked at once, then polled
                page["clock"].ask()
            gevent.sleep(5)

    def told(self, page: dict, message: bytes) -> None:
        """One message of the stream: an event's live part put in place, or fetched."""
        fields: dict[str, list[str]] = defaultdict(list)
        for line in message.decode(errors="replace").split("\n"):
            name, _colon, value = line.partition(": ")
            fields[name].append(value)
        if fields.get("event") == ["clock"]:  # the clock's figures: clock.js asks for none
            page["clock_streamed"] = True
            FIGURES.clocked()
            return
        if fields.get("event") != ["moved"]:
            return
        page["told"] = int(fields["id"][0])
        part = "\n".join(fields["data"])
        if part.startswith("<"):
            FIGURES.told()
            self.settled(page, match_log(part, LIVE_TAG))
        else:
            self.ask(page, "fetch: match (moved)")
