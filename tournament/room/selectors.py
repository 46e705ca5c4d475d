"""What the room's screens read: the session of the moment, the head referee's board, the
projector's views (a fixed number of queries each, whatever the session's size)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.kit.prepared import PreparedRead
from tournament.matches.signatures import signing_states
from tournament.models import (
    Announcement,
    AuditEntry,
    Match,
    RefereeCall,
    Round,
    RoundEnd,
    Session,
    StaffRole,
    Table,
    TableScorer,
    Tournament,
)
from tournament.names import split_name, surname_sort_key
from tournament.room.clock import late, match_progress, session_clock
from tournament.seating.selectors import seating_by_player, session_attention, session_seating
from tournament.sessions.selectors import session_now
from tournament.standings.selectors import standings


@dataclass(frozen=True)
class ClockRead:
    """What a ``clock.json`` answers from (``ClockView``), read by its address in one query:
    the session's clock fields, its tournament's id and whether it is public, and for a
    table its open call (None: no call open)."""

    tournament_id: int
    is_public: bool
    session_id: int
    clock_seconds: int | None
    clock_started_at: datetime.datetime | None
    clock_elapsed: int
    time_up_at: datetime.datetime | None
    call: tuple[int, int, str] | None = None


_SESSION_CLOCK = ("clock_seconds", "clock_started_at", "clock_elapsed", "time_up_at")


def _table_clock(*, slug: str, number: int, table: int):
    calls = (RefereeCall.objects.filter(table=OuterRef("pk"), answered_at__isnull=True)
             .order_by("called_at", "pk"))
    return (
        Table.objects.filter(session__tournament__slug=slug, session__number=number,
                             number=table).order_by()
        .annotate(call_id=Subquery(calls.values("pk")[:1]),
                  call_times=Subquery(calls.values("times")[:1]),
                  call_reason=Subquery(calls.values("reason")[:1]))
        .values_list("session__tournament_id", "session__tournament__is_public", "session_id",
                     *(f"session__{name}" for name in _SESSION_CLOCK),
                     "call_id", "call_times", "call_reason"))


def _session_clock(*, slug: str, number: int):
    return (Session.objects.filter(tournament__slug=slug, number=number).order_by()
            .values_list("tournament_id", "tournament__is_public", "pk", *_SESSION_CLOCK))


_table_clock_read = PreparedRead(_table_clock, slug=str, number=int, table=int)
_session_clock_read = PreparedRead(_session_clock, slug=str, number=int)


def clock_read(*, slug: str, number: int, table: int | None = None) -> ClockRead | None:
    """The clock of session ``number`` (and the open call of its table ``table``) by the
    address's arguments, in one query compiled once per process; None when there is no
    such session or table."""
    if table is None:
        row = _session_clock_read(slug=slug, number=number)
        return None if row is None else ClockRead(*row[:7])
    row = _table_clock_read(slug=slug, number=number, table=table)
    if row is None:
        return None
    call_id, times, reason = row[7:]
    return ClockRead(*row[:7], call=None if call_id is None else (call_id, times, reason))


#: The board's statuses, in the order a table needs a person (most first).
NOT_STARTED, IN_ROUND, SETTLING, TO_CONFIRM, CONFIRMED = (
    "not-started", "round", "settling", "to-confirm", "confirmed")


def _referees(tournament: Tournament) -> dict[int | None, list[str]]:
    """The referees' names by table number (None: every table)."""
    names: dict[int | None, list[str]] = {}
    roles = (StaffRole.objects.filter(tournament=tournament, role=StaffRole.Role.REFEREE)
             .select_related("user").order_by("user__username"))
    for role in roles:
        numbers = role.table_numbers()
        name = role.user.get_full_name() or role.user.get_username()
        for number in ([None] if numbers is None else sorted(numbers)):
            names.setdefault(number, []).append(name)
    return names


def open_calls(*, session: Session) -> dict[int, RefereeCall]:
    """The session's calls not answered yet, by table number."""
    calls = RefereeCall.objects.filter(session=session, answered_at__isnull=True) \
        .select_related("table")
    return {call.table.number: call for call in calls}


def board(*, session: Session, now: datetime.datetime | None = None) -> dict[str, Any]:
    """The head referee's board of ``session``: ``clock`` and ``rows``, one per table, what
    needs a person first.

    Each row: ``number``, ``match_id``, ``match_url``, ``players`` (names), ``totals``,
    ``status`` (one of the statuses above), ``round`` (the round in play or last, from 1),
    ``needs`` (codes: ``call``, ``decision``, ``illegal``, ``round-end``, ``confirm``,
    ``no-scorer``: a table that keeps its own score and has no scorer phone yet, ``disputed``:
    a seat disputes the round to sign, ``signing``: its seats sign it, ``late``), ``signed``
    (the seats that signed the round to sign and the seats, or None), ``call`` (the open call
    or None), ``last_entry`` (a datetime or None: the last entry a person made, the time's
    end left out), ``referees`` (names).
    """
    now = now or timezone.now()
    tournament = session.tournament
    clock = session_clock(session, now=now)
    tables = session_seating(session=session)
    attention = session_attention(session=session) if tables else {}
    rounds = (
        Round.objects.filter(match__table__session=session)
        .annotate(ended=Exists(RoundEnd.objects.current().filter(round=OuterRef("pk"))))
        .order_by("match_id", "index")
        .values_list("match_id", "index", "end_kind", "ended")
    )
    last_round: dict[int, tuple[int, str, bool]] = {}
    rounds_ended: dict[int, int] = {}
    for match_id, index, end_kind, ended in rounds:
        last_round[match_id] = (index, end_kind, ended)
        if ended:
            rounds_ended[match_id] = rounds_ended.get(match_id, 0) + 1
    # what a person entered: the time's end, noted on every match by the server, is not
    last_entries = dict(
        AuditEntry.objects.filter(match__table__session=session)
        .exclude(action=AuditEntry.Action.TIME_UP)
        .values("match_id").annotate(last=Max("at")).order_by()
        .values_list("match_id", "last")
    )
    calls = open_calls(session=session)
    # the tables that keep their own score: those whose scorer phone is bound (or locked:
    # a referee enters there)
    scored = set(TableScorer.objects.filter(match__table__session=session).filter(
        Q(locked=True) | ~Q(device="")).values_list("match_id", flat=True)
    ) if session.entry_by_tables else set()
    # the tables that keep their own score: the seats' signatures of the round to sign
    signing = signing_states(session=session) if session.entry_by_tables else {}
    referees = _referees(tournament)
    target = tournament.effective_target
    rows = []
    for table in tables:
        match_id = table["match_id"]
        waiting = attention.get(match_id, {})
        status_value = table["match_status"]
        index, end_kind, ended = last_round.get(match_id, (None, "", False))
        needs = []
        call = calls.get(table["number"])
        if call is not None:
            needs.append("call")
        if waiting.get("pending_decisions"):
            needs.append("decision")
        if waiting.get("illegal_turns"):
            needs.append("illegal")
        if status_value == Match.Status.CONFIRMED:
            status = CONFIRMED
        elif status_value == Match.Status.FINISHED:
            status = TO_CONFIRM
        elif index is not None and end_kind != Round.EndKind.UNFINISHED and not ended:
            status = SETTLING
            needs.append("round-end")
        elif status_value == Match.Status.PLAYING:
            status = IN_ROUND
        else:
            status = NOT_STARTED
        signed = None
        if match_id in signing:
            # the seats confirm: disputed (a referee decides), or signed k/n
            _index, state = signing[match_id]
            signed = (state.signed, state.seats)
            needs.append("disputed" if state.disputed else "signing")
        elif waiting.get("rounds_to_confirm"):
            needs.append("confirm")
        if (session.entry_by_tables and match_id not in scored
                and status_value != Match.Status.CONFIRMED):
            needs.append("no-scorer")
        totals = [player["total"] or 0 for player in table["players"]]
        if status in (NOT_STARTED, IN_ROUND, SETTLING) and session.status == Session.Status.PLAYING:
            progress = match_progress(totals=totals, target=target,
                                      rounds_ended=rounds_ended.get(match_id, 0),
                                      round_limit=tournament.match_rounds)
            if late(clock=clock, progress=progress) or (clock.is_up and status != CONFIRMED):
                needs.append("late")
        rows.append({
            "number": table["number"],
            "match_id": match_id,
            "match_url": table["match_url"],
            "players": [player["name"] for player in table["players"]],
            "totals": totals,
            "status": status,
            "round": (index + 1) if index is not None else None,
            "needs": needs,
            "call": call,
            "signed": signed,
            "last_entry": last_entries.get(match_id),
            "referees": referees.get(table["number"], []) + referees.get(None, []),
        })
    # the engine's problems first, then a dispute, then what the seats or a referee confirm
    weight = {"call": 0, "illegal": 1, "decision": 2, "disputed": 3, "round-end": 4,
              "confirm": 5, "signing": 6, "no-scorer": 7, "late": 8}
    rows.sort(key=lambda row: (min((weight[need] for need in row["needs"]), default=9),
                               row["status"] == CONFIRMED, row["number"]))
    return {"clock": clock, "rows": rows, "calls": len(calls)}


def needs_label(code: str) -> str:
    """What a need of the board says (the board's legend and its rows)."""
    return {
        "call": _("a referee is called"),
        "decision": _("a claim to decide"),
        "illegal": _("an illegal turn"),
        "round-end": _("the round's end to enter"),
        "confirm": _("a round to confirm"),
        "disputed": _("disputed"),
        "signing": pgettext("the seats' signatures of a round, then k/n", "signed"),
        "no-scorer": _("waiting for the scorer"),
        "late": _("will not finish in time"),
    }[code]


def status_label(row: dict[str, Any]) -> str:
    return {
        NOT_STARTED: _("not started"),
        IN_ROUND: _("round %(number)s") % {"number": row["round"]},
        SETTLING: _("settling"),
        TO_CONFIRM: _("waiting for confirmation"),
        CONFIRMED: _("confirmed"),
    }[row["status"]]


def screen(*, tournament: Tournament) -> dict[str, Any]:
    """The projector's views, in the order it shows them: ``standings`` (pages of
    ``tournament.screen_top`` rows; none before a match is confirmed), ``tables`` (the matches in play, with their totals and
    round), ``seating`` (every player by name with their table, while a session is seated
    and not started), ``announcements`` (shown ones, newest first); ``session`` (that of the
    moment, or None); ``final_decided``: the final's places come first, under a "Final" mark
    of their own as on the standings page (docs/guides/final.md)."""
    session = session_now(tournament=tournament)
    table = standings(tournament=tournament)
    size = tournament.screen_top
    rows = table.rows
    # before a match is confirmed, a page of zeros without ranks says nothing: left out
    if not any(row["ranked"] for row in rows):
        rows = []
    pages = [rows[start:start + size] for start in range(0, len(rows), size)]
    tables: list[dict[str, Any]] = []
    seating: list[dict[str, Any]] = []
    if session is not None:
        seated = session_seating(session=session)
        if session.status == Session.Status.SEATED:
            seating = _by_surname(seating_by_player(seated))
        elif session.status == Session.Status.PLAYING:
            rounds = dict(
                Round.objects.filter(match__table__session=session)
                .values("match_id").annotate(count=Count("pk")).order_by()
                .values_list("match_id", "count")
            )
            tables = [
                {**row, "round": rounds.get(row["match_id"])}
                for row in seated
                if row["match_status"] in (Match.Status.PENDING, Match.Status.PLAYING)
            ]
    announcements = list(
        Announcement.objects.filter(tournament=tournament, is_shown=True)
        .values_list("text", flat=True)[:5]
    )
    return {
        "session": session, "standings_pages": pages, "criteria": table.criteria,
        "final_decided": table.final_decided,
        "tables_pages": _pages(tables, TABLES_PER_VIEW),
        # the rows of two tables a view holds: fewer tables, larger type (screen.css)
        "tables_rows": (min(len(tables), TABLES_PER_VIEW) + 1) // 2,
        "seating_pages": _pages(seating, NAMES_PER_VIEW),
        "announcements": announcements,
    }


#: How many tables in play, and how many names of the seating, one view of the projector holds.
TABLES_PER_VIEW = 8
NAMES_PER_VIEW = 30


def _by_surname(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seated players as the seating on the wall lists them: by surname, as French lists
    sort (docs/reference/glossary.md, "Sorting by surname"), the surname shown first."""
    for player in players:
        player["given"], player["surname"] = split_name(player["name"])
    return sorted(players, key=lambda player: (surname_sort_key(player["name"]), player["player_id"]))


def _pages(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start:start + size] for start in range(0, len(items), size)]
