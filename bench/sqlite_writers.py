"""``python -m bench.sqlite_writers``: several referees saving at once on the SQLite default.

A file SQLite database (not in memory: the one a laptop's event runs on) is made in a
temporary folder and migrated; ``--writers`` matches of four players are made, each with its
own referee. Then one thread per match, all started together, goes through the real views
(Django's test client, htmx requests as the tablet sends them): half of them enter the first
``--turns`` turns of a simulated round turn by turn, the other half confirm, round by round,
a whole match entered before. Every answer is counted by its status; a 500 is a save lost.

``--plain`` drops the settings' SQLite options (WAL, the busy timeout, IMMEDIATE
transactions: ``tournament/settings.py``), as the settings were before them, to compare.
Prints one line: the database options used, the answers by status, the CPU time of the
process (``time.process_time``) and the wall-clock time. ``tests/tournament/test_sqlite_writers.py``
runs it and asks for no 500.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import logging
import os
import sys
import tempfile
import threading
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8, help="matches written at once (8)")
    parser.add_argument("--turns", type=int, default=12, help="turns entered per match (12)")
    parser.add_argument("--seed", type=int, default=3, help="simulated matches (3)")
    parser.add_argument("--plain", action="store_true", help="without the SQLite options")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sqlite-writers-") as folder:
        database = Path(folder) / "db.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
        os.environ.setdefault("TRIOMINOS_PRODUCTION", "0")
        import django
        from django.conf import settings

        settings.DEBUG = False
        if args.plain:
            settings.DATABASES["default"]["OPTIONS"] = {}
        django.setup()
        logging.getLogger("django.request").setLevel(logging.CRITICAL)  # counted, not printed
        statuses = run(writers=args.writers, turns=args.turns, seed=args.seed)
    return 0 if not statuses.get(500) else 1


def run(*, writers: int, turns: int, seed: int) -> dict[int | str, int]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from tournament import engine
    from tournament.core.tournaments import staff_role_grant, tournament_create
    from tournament.matches import services
    from tournament.matches.reading.rows import match_rows
    from tournament.models import Match, StaffRole
    from tournament.organiser.services import player_add
    from tournament.seating.services import session_seat_players
    from tournament.sessions.services import session_create, session_start

    call_command("migrate", verbosity=0)
    tournament = tournament_create(name="Writers", slug="writers",
                                   start_date=datetime.date(2025, 5, 17))
    host = settings.ALLOWED_HOSTS[0]
    jobs = []
    for number in range(writers):
        user = get_user_model().objects.create_user(f"referee-{number}")
        staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        players = [player_add(tournament=tournament, name=f"Player {number}-{seat}").player
                   for seat in range(4)]
        session = session_create(tournament=tournament)
        session_seat_players(session=session, tables=[players])
        session_start(session=session)
        match = Match.objects.get(table__session=session)
        record = engine.simulated_match_record(names=match_rows(match=match).names,
                                               seed=seed + number)
        client = Client(HTTP_HOST=host, HTTP_HX_REQUEST="true", raise_request_exception=False)
        client.force_login(user)
        address = {"slug": tournament.slug, "match_id": match.pk}
        if number % 2:
            services.match_record_import(match=match, user=user, seen_revision=0, record=record)
            posts = [(reverse("tournament:match_round_confirm", kwargs={**address, "number": n}),
                      {}) for n in range(1, len(record["rounds"]) + 1)]
        else:
            url = reverse("tournament:match_turn_add", kwargs=address)
            posts = [(url, turn_fields(turn)) for turn in record["rounds"][0]["turns"][:turns]]
        jobs.append((client, match.pk, posts))
    connections.close_all()

    statuses: collections.Counter[int | str] = collections.Counter()
    lock = threading.Lock()
    start = threading.Barrier(len(jobs))

    def write(client: Client, match_id: int, posts) -> None:
        try:
            start.wait()
            for key, (url, fields) in enumerate(posts):
                revision = Match.objects.values_list("revision", flat=True).get(pk=match_id)
                response = client.post(url, {**fields, "revision": revision,
                                             "submission_key": f"key-{match_id}-{key:04d}"})
                with lock:
                    statuses[response.status_code] += 1
        except Exception as error:  # noqa: BLE001 - counted: the figure this script gives
            with lock:
                statuses[type(error).__name__] += 1
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=job) for job in jobs]
    wall, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    options = settings.DATABASES["default"].get("OPTIONS") or "none"
    print(f"SQLite file, options {options}; {writers} writers at once: "
          f"answers {dict(sorted(statuses.items(), key=str))}; 500s: {statuses.get(500, 0)}; "
          f"CPU {time.process_time() - cpu:.2f} s, wall {time.perf_counter() - wall:.2f} s")
    return dict(statuses)


def turn_fields(turn: dict) -> dict[str, object]:
    """A record turn as the entry screen posts it (a placement, or draws and a pass)."""
    fields: dict[str, object] = {"player": turn["player"], "draws": turn.get("draws", 0),
                                 "claimed": turn["claimed"]}
    place = turn.get("place")
    if place:
        x, y, o = place["cell"]
        fields.update(tile="".join(map(str, place["corners"])), cell=f"{o}({x},{y})",
                      corners="-".join(map(str, place["corners"])))
    else:
        fields["pass"] = "1"
    return fields


if __name__ == "__main__":
    sys.exit(main())
