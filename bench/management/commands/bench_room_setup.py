"""``python manage.py bench_room_setup``: a room in play for the load benchmark
(``bench/locustfile.py``, ``bench_room_knee``).

In the database of ``DATABASE_URL`` (use one of its own: ``createdb triominos_bench``), builds
the tournament ``bench-room``: ``--tables`` x 4 players, ``--sessions-before`` sessions closed
with made-up results (so that the standings rank real totals), then one more session seated
and started through the services; one referee account per table (``bench-ref-NN``, limited to
its table) with a session logged in (the tablets are logged in before the session starts).

Each table plays a whole match simulated by the engine, and the room is caught in the middle
of its first three rounds, as a session is once its tables have played a while: each table
has a share of the turns of its rounds 1 to 3 recorded already (imported through the
record's service, the rounds before its own ended and confirmed), the shares of the tables
spread over the whole span in the order of the tables, so that any first ``k`` tables (a
step of ``bench_room_knee``) are spread over it too: in every step some tables end a round
within the first minute, some matches end and are confirmed (a match confirmed raises the
results version, which every public page keys on), and every table is at a different point
of its match. The room file
(``--out``) gives, for each table, its match's address, its referee's session, its players in
seat order, the match's revision now and the writes left, in order, as the tablet posts them:
each turn (the board mode's form), each round's end (the racks shown) and its confirmation.
Every write raises the match's revision by one, so a tablet finds its place in the list from
the revision the server answers (``X-Match-Revision``).

With ``--entry tables`` the session's matches are entered by the tables (docs/guides/
organiser.md, "Tables that keep their own score"): each table's scorer phone is bound
beforehand through its link, as a phone that opened it and said so (a browser's session
holding the binding, in the room file instead of the referee's), the seats' codes are in the
room file, and each round's confirmation is the four seats' signatures on the scorer phone,
passed round (``{"kind": "sign", "round": n, "seat": s}``: each a write of its own, the last
one confirming the round). The rounds recorded beforehand are imported and confirmed by the
table's referee, as a referee takes a table over.

It refuses to run when the tournament exists, unless ``--force`` (which deletes it first, with
its players that no other tournament has).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from bench.harness import build_tournament
from tournament import engine
from tournament.core.tournaments import staff_role_grant
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.matches.scorers import SESSION_KEY as SCORER_SESSION_KEY
from tournament.matches.scorers import scorer_token, table_scorer
from tournament.matches.services import match_record_import, match_round_confirm
from tournament.matches.services.scorers import scorer_bind
from tournament.matches.signatures import seat_code
from tournament.models import Match, MatchEntry, Player, Tournament
from tournament.room.services import session_entry_set
from tournament.seating.services import session_seat
from tournament.sessions.services import session_create, session_start

SLUG = "bench-room"
PASSWORD = "bench-room-password"


def turn_form(turn: dict) -> dict:
    """A record's turn as the board mode's form posts it."""
    place = turn.get("place")
    if place is None:
        return {"pass": "1", "draws": str(turn.get("draws", 0))}
    x, y, orientation = place["cell"]
    corners = place["corners"]
    return {
        "player": str(turn["player"]),
        "tile": "".join(str(value) for value in sorted(corners)),
        "cell": f"{orientation}({x},{y})",
        "corners": "-".join(str(value) for value in corners),
        "draws": str(turn.get("draws", 0)),
        "claimed": str(turn.get("claimed", "")),
    }


def match_writes(record: dict, *, first_turns: int, first_round: int = 0,
                 signed_by: int = 0) -> list[dict]:
    """The writes of ``record`` from turn ``first_turns`` of its round ``first_round`` (0: the
    first) on, as the tablet posts them: ``{"kind": "turn", "form": ...}``, ``{"kind":
    "end", "round": n, "form": ...}`` (the racks shown), ``{"kind": "confirm", "round":
    n}``; with ``signed_by`` seats (the tables keep the score), each round's confirmation is
    their signatures instead, ``{"kind": "sign", "round": n, "seat": s}`` seat after seat.

    >>> record = {"rounds": [{"turns": [{"player": 0, "draws": 1}], "racks": [0, 3]}]}
    >>> [write["kind"] for write in match_writes(record, first_turns=0)]
    ['turn', 'end', 'confirm']
    >>> [(write["kind"], write.get("seat")) for write in match_writes(record, first_turns=1,
    ...                                                              signed_by=2)]
    [('end', None), ('sign', 0), ('sign', 1)]
    """
    writes: list[dict] = []
    for index, round_ in enumerate(record["rounds"]):
        number = index + 1
        if index < first_round:
            continue
        turns = round_["turns"][first_turns:] if index == first_round else round_["turns"]
        writes += [{"kind": "turn", "form": turn_form(turn)} for turn in turns]
        writes.append({"kind": "end", "round": number, "form": {
            f"rack_{seat}": " ".join(rack) if isinstance(rack, list) else ""
            for seat, rack in enumerate(round_.get("racks", []))
        } | {
            f"total_{seat}": str(rack)
            for seat, rack in enumerate(round_.get("racks", [])) if isinstance(rack, int)
        }})
        if signed_by:
            writes += [{"kind": "sign", "round": number, "seat": seat}
                       for seat in range(signed_by)]
        else:
            writes.append({"kind": "confirm", "round": number})
    return writes


#: The rounds the room's tables are spread over.
SPREAD_ROUNDS = 3
#: The golden ratio's fractional part: its multiples fill [0, 1) most evenly.
GOLDEN_RATIO = (5 ** 0.5 - 1) / 2


def spread(index: int) -> float:
    """Where table ``index`` is caught, as a share of the span of its first rounds: the
    fractional parts of the multiples of the golden ratio, spread evenly over [0, 1) for any
    first ``k`` tables (a step of the knee plays the room's first tables).

    >>> [round(spread(index), 3) for index in range(6)]
    [0.0, 0.618, 0.236, 0.854, 0.472, 0.09]
    """
    return (index * GOLDEN_RATIO) % 1


def caught_at(record: dict, index: int) -> tuple[int, int]:
    """Where table ``index`` is caught: (its round, the turns of that round played), at
    ``spread(index)`` of the turns of the first ``SPREAD_ROUNDS`` rounds (the rounds before
    played, ended and confirmed).

    >>> record = {"rounds": [{"turns": [1] * 10}, {"turns": [1] * 10}, {"turns": [1] * 10}]}
    >>> [caught_at(record, index) for index in range(6)]
    [(0, 0), (1, 8), (0, 7), (2, 5), (1, 4), (0, 2)]
    """
    places = [(number, turn) for number, round_ in enumerate(record["rounds"][:SPREAD_ROUNDS])
              for turn in range(len(round_["turns"]))]
    return places[int(len(places) * spread(index))]


def logged_in(user) -> str:
    """A session of ``user``, logged in as the login page does: the tablets are logged in
    before the session starts, so the load does not include the password hashings."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def bound_scorer(match: Match) -> tuple[str, list[str]]:
    """A browser's session bound as ``match``'s scorer phone through its link (as a phone
    that opened it and said so), and the seats' codes printed on its sheet."""
    scorer = table_scorer(match=match)
    device = f"bench-{match.pk}"
    scorer_bind(match=match, token=scorer_token(match.pk, scorer.salt), device=device,
                address=None)
    session = SessionStore()
    session[SCORER_SESSION_KEY] = {"device": device, "matches": [match.pk]}
    session.create()
    return session.session_key, [seat_code(scorer, seat)
                                 for seat in range(match.table.seats.count())]


class Command(BaseCommand):
    help = "Build a room in play (tables, referees, the writes to make) for the load benchmark."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=50, help="Tables of four (50).")
        parser.add_argument("--sessions-before", type=int, default=3,
                            help="Sessions closed before the one in play (3).")
        parser.add_argument("--out", default="bench/room.json",
                            help="Where the load generator reads the room (bench/room.json).")
        parser.add_argument("--force", action="store_true",
                            help="Delete the tournament bench-room first if it exists.")
        parser.add_argument("--entry", choices=MatchEntry.values, default=MatchEntry.REFEREES,
                            help="Who enters the session's matches: its tables' referees "
                                 "(referees), or the tables' scorer phones, every seat "
                                 "signing each round (tables).")

    def handle(self, *args, tables, sessions_before, out, force, entry=MatchEntry.REFEREES,
               **options):
        existing = Tournament.objects.filter(slug=SLUG).first()
        if existing is not None and not force:
            raise CommandError(f"the tournament {SLUG} exists: --force deletes it first")
        with transaction.atomic():
            if existing is not None:
                # its players too, unless another tournament has them: the new room registers
                # players of the same names, which would be taken for these
                players = list(existing.registrations.values_list("player_id", flat=True))
                existing.delete()
                Player.objects.filter(pk__in=players, registrations__isnull=True).delete()
            built = build_tournament(players=4 * tables, sessions=sessions_before, seed=1)
            Tournament.objects.filter(pk=built.pk).update(slug=SLUG, name="Bench room")
            tournament = Tournament.objects.get(pk=built.pk)
            session = session_create(tournament=tournament, seed=sessions_before + 1)
            session_seat(session=session)
            session_start(session=session)
            by_tables = entry == MatchEntry.TABLES
            if by_tables:
                session = session_entry_set(session=session, match_entry=entry)
            room = {"slug": SLUG, "session": session.number, "entry": entry, "tables": []}
            User = get_user_model()
            matches = list(Match.objects.filter(table__session=session)
                           .select_related("table__session__tournament")
                           .order_by("table__number"))
            for index, match in enumerate(matches):
                number = match.table.number
                username = f"bench-ref-{number:02d}"
                user = User.objects.filter(username=username).first() or User(username=username)
                user.set_password(PASSWORD)
                user.save()
                staff_role_grant(tournament=tournament, user=user, role="referee",
                                 tables=str(number))
                rows = match_rows(match=match)
                record = engine.simulated_match_record(
                    names=rows.names, seed=number, rules=tournament.rules)
                first_round, first = caught_at(record, index)
                revision = 0
                if first_round or first:
                    played = {**record, "rounds": [
                        *record["rounds"][:first_round],
                        *([{"turns": record["rounds"][first_round]["turns"][:first]}]
                          if first else [])]}
                    revision = match_record_import(
                        match=match_with_tournament(match.pk).get(), user=user,
                        seen_revision=0, record=played).replay.match.revision
                    for round_index in range(first_round):  # the rounds played, confirmed
                        revision = match_round_confirm(
                            match=match_with_tournament(match.pk).get(), user=user,
                            seen_revision=revision, round_index=round_index,
                        ).replay.match.revision
                seats = match.table.seats.count()
                cookie, codes = (bound_scorer(match_with_tournament(match.pk).get())
                                 if by_tables else (logged_in(user), []))
                room["tables"].append({
                    "number": number,
                    "match": f"/t/{SLUG}/matches/{match.pk}/",
                    "address": f"/t/{SLUG}/tables/{number}/",
                    "players": list(match.table.seats.order_by("order")
                                    .values_list("player_id", flat=True)),
                    "referee": username,
                    "password": PASSWORD,
                    "session_cookie": [settings.SESSION_COOKIE_NAME, cookie],
                    "codes": codes,
                    "revision": revision,
                    "writes": match_writes(record, first_turns=first, first_round=first_round,
                                           signed_by=seats if by_tables else 0),
                })
            room["players"] = list(tournament.registrations.values_list("player_id", flat=True))
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(room, indent=1))
        self.stdout.write(f"{SLUG}: {tables} tables in play ({entry}), session {session.number}; "
                          f"{len(room['players'])} players; the room written to {out}")
