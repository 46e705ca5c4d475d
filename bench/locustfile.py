"""The room's load: referees entering turns, phones following the event, an organiser printing.

Run against a server of the room built by ``python manage.py bench_room_setup`` (see
docs/benchmarks.md, "How many tables can one laptop serve"):

    locust -f bench/locustfile.py --headless --host http://127.0.0.1:8000 \
        --users 251 --spawn-rate 5 --run-time 4m --reset-stats --csv bench/results/room

- ``Referee`` (one per table of the room, ``fixed_count``): logged in already (as the
  tablets are before a session starts: ``bench_room_setup``), every 20 s asks
  the engine's preview of the next turn of its table's simulated round and saves it, as the
  tablet does (htmx, the match's revision carried from one answer to the next).
- ``Phone`` (200): opens a page once, then polls its live part every 15 s as htmx does,
  with the browser's cache (If-None-Match): the standings, a table's address (the match it
  leads to), a player page, the session page.
- ``Organiser`` (1): every 30 s, the standings PDF, then the seating PDF.

Request names say the kind (``save: turn``, ``poll: standings``...), so that Locust reports
p50/p95/p99 and errors per kind. ``BENCH_ROOM`` names the room file (bench/room.json).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
from pathlib import Path

from locust import HttpUser, constant_pacing, task

ROOM = json.loads(Path(os.environ.get("BENCH_ROOM", "bench/room.json")).read_text())
SLUG = ROOM["slug"]
REVISION = re.compile(r'data-revision="(\d+)"')
HTMX = {"HX-Request": "true"}

_tables = itertools.cycle(ROOM["tables"])
_tables_lock = threading.Lock()


def next_table() -> dict:
    with _tables_lock:
        return next(_tables)


class Referee(HttpUser):
    fixed_count = len(ROOM["tables"])
    wait_time = constant_pacing(20)

    def on_start(self):
        self.table = next_table()
        self.turns = list(self.table["turns"])
        name, key = self.table["session_cookie"]  # logged in before the session starts
        self.client.cookies.set(name, key)
        self.load()

    def load(self):
        page = self.client.get(self.table["match"], name="referee: match page")
        if "match-page--entry" not in page.text:
            raise RuntimeError("the referee is not logged in: run bench_room_setup with the "
                               "server's settings (the same TRIOMINOS_SECRET_KEY)")
        self.token = self.client.cookies.get("csrftoken", "")
        self.revision = int(REVISION.search(page.text).group(1))

    @task
    def enter_a_turn(self):
        if not self.turns:
            self.load()
            return
        turn = self.turns[0]
        headers = {**HTMX, "X-CSRFToken": self.token,
                   "Referer": self.host + self.table["match"]}
        data = {**turn, "revision": str(self.revision)}
        if "pass" not in turn:
            self.client.post(self.table["match"] + "preview/", data=data, headers=headers,
                             name="save: preview")
        with self.client.post(self.table["match"] + "turns/", data=data, headers=headers,
                              name="save: turn", catch_response=True) as answer:
            found = REVISION.search(answer.text or "")
            if answer.status_code == 200 and found:
                self.revision = int(found.group(1))
                self.turns.pop(0)
                answer.success()
            elif answer.status_code == 409 and found:  # someone else saved: carry on
                self.revision = int(found.group(1))
                answer.success()
            else:
                answer.failure(f"turn refused: {answer.status_code}")


class Phone(HttpUser):
    fixed_count = 200
    wait_time = constant_pacing(15)

    def on_start(self):
        kind = random.choices(("standings", "match", "player", "session"),
                              weights=(8, 8, 2, 2))[0]
        self.kind = kind
        if kind == "standings":
            self.url = f"/t/{SLUG}/standings/"
        elif kind == "session":
            self.url = f"/t/{SLUG}/sessions/{ROOM['session']}/"
        elif kind == "player":
            self.url = f"/t/{SLUG}/players/{random.choice(ROOM['players'])}/"
        else:  # the table card's QR code: the table's address leads to its match
            number = random.choice(ROOM["tables"])["number"]
            answer = self.client.get(f"/t/{SLUG}/tables/{number}/", name="page: table address")
            self.url = answer.url.removeprefix(self.host)
        self.client.get(self.url, name=f"page: {kind}")
        self.etag = ""

    @task
    def poll(self):
        headers = dict(HTMX)
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(self.url, headers=headers, name=f"poll: {self.kind}",
                             catch_response=True) as answer:
            if answer.status_code in (200, 304):
                self.etag = answer.headers.get("ETag", self.etag)
                answer.success()
            else:
                answer.failure(f"poll answered {answer.status_code}")


class Organiser(HttpUser):
    fixed_count = 1
    wait_time = constant_pacing(30)

    @task
    def print_documents(self):
        self.client.get(f"/t/{SLUG}/standings.pdf", name="pdf: standings")
        self.client.get(f"/t/{SLUG}/sessions/{ROOM['session']}/seating.pdf", name="pdf: seating")
