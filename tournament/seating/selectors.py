"""Reads about seating: who sits where in a session, who plays in it, who met whom before.

The seating comes as plain data (lists of dicts), for the pages and for the printed seating:

- ``session_seating(*, session, totals_in_play)``: one dict per table, in table order (one
  query).
- ``seating_by_player(tables)``: the same seats as one alphabetical list (no query).
- ``session_repeat_pairs(*, session)``: the pairs seated together who met before (two
  queries; one given the session's seating).
- ``session_attention(*, session)``: what awaits a referee at each match, by match id (two
  queries), for the staff's view of the seating.
- ``session_log(*, session)``: the session's log in its parts, for its page (one query).
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.kit.seats import seat_letter
from tournament.models import (
    Match,
    Registration,
    Round,
    RoundEnd,
    Seat,
    Session,
    SessionAuditEntry,
    Turn,
    Verdict,
)
from tournament.names import name_sort_key
from tournament.seating.algorithm import meetings, pair


def registrations_to_seat(*, session: Session) -> QuerySet[Registration]:
    """The registrations seated in this session: not withdrawn, and arrived by its number
    (``Registration.plays_in``); with the tournament's check-in on, only the players checked
    in for the session (docs/guides/check-in.md).

    A late arrival (``first_session``) is seated from that session on; a withdrawn player
    from none.
    """
    registrations = Registration.objects.filter(
        Registration.plays_in(session.number), tournament_id=session.tournament_id)
    if session.tournament.uses_check_in:
        registrations = registrations.filter(
            player__check_ins__session=session)
    return registrations.select_related("player").order_by("player_id")


def to_seat_count(*, session: Session) -> int:
    """How many players the session seats: the final's size for the final (the standings
    name them, docs/guides/final.md), else the registrations to seat (:func:`registrations_to_seat`)."""
    if session.is_final:
        return session.tournament.final_size
    return registrations_to_seat(session=session).count()


def session_seating(*, session: Session, totals_in_play: bool = True) -> list[dict[str, Any]]:
    """The session's tables, in order, each with its players in clockwise seat order.

    Each table: ``number``, ``match_id``, ``match_status`` (a Match.Status value),
    ``match_status_label``, ``match_url`` (a path), ``players``: a list of ``order`` (from 0),
    ``seat`` (from 1), ``player_id``, ``name``, ``club``, ``total`` (the match total so far,
    or None; with ``totals_in_play`` False, None until the match is over), ``winner`` (bool),
    ``url`` (the player's page).
    """
    slug = session.tournament.slug
    status_labels = dict(Match.Status.choices)
    # the match's totals and winners as text, decoded once a table rather than once a seat
    # (the public's page of the session reads it at every change while the tables play)
    seats = (
        Seat.objects.filter(session=session)
        .order_by("table__number", "order")
        .annotate(totals_text=Cast("table__match__totals", TextField()),
                  winners_text=Cast("table__match__winners", TextField()))
        .values_list(
            "table__number", "order", "player_id", "player__name", "player__club",
            "table__match__id", "table__match__status", "totals_text", "winners_text",
        )
    )
    player_url = reverse("tournament:player", kwargs={"slug": slug, "player_id": 0})[:-2]
    match_url = reverse("tournament:match", kwargs={"slug": slug, "match_id": 0})[:-2]
    labels: dict[str | None, str] = {}  # each state's label, translated once a call
    tables: list[dict[str, Any]] = []
    number_now = None
    players: list[dict[str, Any]] = []
    totals: list[int] = []
    winners: list[int] = []
    for number, order, player_id, name, club, match_id, status, totals_text, winners_text in seats:
        if number != number_now:
            number_now = number
            label = labels.get(status)
            if label is None:
                label = labels[status] = str(status_labels.get(status, status or ""))
            players = []
            tables.append(
                {
                    "number": number,
                    "match_id": match_id,
                    "match_status": status,
                    "match_status_label": label,
                    "match_url": f"{match_url}{match_id}/" if match_id else "",
                    "players": players,
                }
            )
            shown = totals_in_play or status in Match.OVER
            totals = (json.loads(totals_text) if totals_text and shown else None) or []
            winners = (json.loads(winners_text) if winners_text else None) or []
        players.append(
            {
                "order": order,
                "seat": seat_letter(order),
                "player_id": player_id,
                "name": name,
                "club": club,
                "total": totals[order] if order < len(totals) else None,
                "winner": order in winners,
                "url": f"{player_url}{player_id}/",
            }
        )
    return tables


def seating_by_player(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every seated player, by name: ``name``, ``name_key`` (how it sorts), ``club``,
    ``player_id``, ``url``, ``table``, ``seat``. Takes ``session_seating()``'s tables; no query.
    """
    players = [
        {
            "name": player["name"],
            "name_key": name_sort_key(player["name"]),
            "club": player["club"],
            "player_id": player["player_id"],
            "url": player["url"],
            "table": table["number"],
            "seat": player["seat"],
        }
        for table in tables
        for player in table["players"]
    ]
    players.sort(key=lambda player: (player["name_key"], player["player_id"]))
    return players


def earlier_meetings(*, session: Session) -> dict[tuple[int, int], int]:
    """How many times each pair of players sat together in the sessions before this one."""
    tables: dict[int, list[int]] = {}
    for table_id, player_id in Seat.objects.filter(
        session__tournament_id=session.tournament_id, session__number__lt=session.number
    ).values_list("table_id", "player_id"):
        tables.setdefault(table_id, []).append(player_id)
    return meetings(tables.values())


def session_repeat_pairs(
    *, session: Session, tables: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Pairs seated together in this session who already met: ``table``, ``names`` (two),
    ``player_ids`` (two), ``times`` (earlier meetings). By table, then names.

    ``tables``: the session's ``session_seating()``, when the caller has already read it.
    """
    met = earlier_meetings(session=session)
    if tables is None:
        tables = session_seating(session=session)
    repeats = []
    for table in tables:
        players = sorted(table["players"], key=lambda player: name_sort_key(player["name"]))
        for index, first in enumerate(players):
            for second in players[index + 1 :]:
                times = met.get(pair(first["player_id"], second["player_id"]))
                if times:
                    repeats.append(
                        {
                            "table": table["number"],
                            "names": (first["name"], second["name"]),
                            "player_ids": (first["player_id"], second["player_id"]),
                            "times": times,
                        }
                    )
    return repeats


def seated_but_withdrawn(*, session: Session) -> list[dict[str, Any]]:
    """Players seated in this session whose registration no longer seats them (withdrawn
    since, or a later first session): ``name``, ``table``."""
    seats = [
        {"name": name, "table": number}
        for name, number in Seat.objects.filter(session=session)
        .filter(
            Q(player__registrations__tournament_id=session.tournament_id)
            & (
                Q(player__registrations__status=Registration.Status.WITHDRAWN)
                | Q(player__registrations__first_session__gt=session.number)
            )
        )
        .values_list("player__name", "table__number")
    ]
    return sorted(seats, key=lambda seat: (seat["table"], name_sort_key(seat["name"])))


def session_missing(*, session: Session) -> dict[str, list[str]]:
    """Who is missing at the session, with the tournament's check-in on (docs/guides/check-in.md),
    by name: ``absent``, the players who play in it and are not checked in; ``not_seated``,
    the players checked in but not seated, once it is seated (checked in after the draw:
    draw again to seat them). Empty lists without check-in, and for the final, which is not
    checked in: the standings name its players (two queries)."""
    if not session.tournament.uses_check_in or session.is_final:
        return {"absent": [], "not_seated": []}
    present = set(session.check_ins.values_list("player_id", flat=True))
    seated = set(Seat.objects.filter(session=session).values_list("player_id", flat=True))
    absent, not_seated = [], []
    for player_id, name in Registration.objects.filter(
        Registration.plays_in(session.number), tournament_id=session.tournament_id
    ).values_list("player_id", "player__name"):
        if player_id not in present:
            absent.append(name)
        elif seated and player_id not in seated:
            not_seated.append(name)
    return {"absent": sorted(absent, key=name_sort_key),
            "not_seated": sorted(not_seated, key=name_sort_key)}


#: A current turn whose claim differs from the engine, with no decision yet: the rows behind
#: ``TurnLine.decision_pending`` (its cached verdict is the replay's), which
#: ``match_round_confirm`` refuses a round for.
DECISION_PENDING = Q(verdict=Verdict.MISMATCH, decision=Turn.Decision.NONE)
#: A current end of round whose settlement claimed differs from the engine's, with no
#: decision yet: ``ReplayedRound.settlement_decision_pending`` from the cached figure.
SETTLEMENT_DECISION_PENDING = Q(settlement_differs=True, decision=RoundEnd.Decision.NONE)
#: A current turn the engine finds illegal: ``TurnLine.is_illegal``, the other refusal.
ILLEGAL_TURN = Q(verdict=Verdict.ILLEGAL)


def session_attention(*, session: Session) -> dict[int, dict[str, Any]]:
    """What awaits a referee at the session's matches (two queries, whatever the session's
    size), by match id; the matches with nothing waiting are left out.

    Each: ``pending_decisions`` (current turns whose claim differs from the engine, and
    current ends of rounds whose settlement claimed differs, no decision taken), ``illegal_turns`` (current turns the engine finds illegal), ``rounds_to_confirm``
    (the numbers, from 1, of the rounds whose racks were entered and that are not confirmed:
    ``RoundView.closed`` and not ``confirmed``). The same rules as the match page's badges and
    ``match_round_confirm``'s refusals, read from the figures cached on the rows.
    """
    attention: dict[int, dict[str, Any]] = {}

    def waiting(match_id: int) -> dict[str, Any]:
        return attention.setdefault(
            match_id, {"pending_decisions": 0, "illegal_turns": 0, "rounds_to_confirm": []}
        )

    turns = (
        Turn.objects.current()
        .filter(round__match__table__session=session)
        .filter(DECISION_PENDING | ILLEGAL_TURN)
        .values("round__match_id")
        .annotate(
            pending_decisions=Count("pk", filter=DECISION_PENDING),
            illegal_turns=Count("pk", filter=ILLEGAL_TURN),
        )
        .order_by()
    )
    for row in turns:
        counts = waiting(row["round__match_id"])
        counts["pending_decisions"] = row["pending_decisions"]
        counts["illegal_turns"] = row["illegal_turns"]
    # a settlement awaiting its decision keeps its round unconfirmed: read with the rounds
    ends = RoundEnd.objects.current().filter(round=OuterRef("pk"))
    rounds = (
        Round.objects.filter(match__table__session=session, confirmed_at__isnull=True)
        .filter(Exists(ends))
        .annotate(settlement_pending=Exists(ends.filter(SETTLEMENT_DECISION_PENDING)))
        .order_by("match_id", "index")
        .values_list("match_id", "index", "settlement_pending")
    )
    for match_id, index, settlement_pending in rounds:
        counts = waiting(match_id)
        counts["rounds_to_confirm"].append(index + 1)
        counts["pending_decisions"] += settlement_pending
    return attention


def session_log(*, session: Session) -> list[tuple[str, str, list[SessionAuditEntry]]]:
    """The session's log in its parts (``SessionAuditEntry.category``), each part's entries
    in order: (category, heading, entries), the empty parts left out."""
    headings = {"session": _("Closed and reopened"), "clock": _("Session clock"),
                "calls": _("Calls for a referee")}
    parts: dict[str, list[SessionAuditEntry]] = {category: [] for category in headings}
    for entry in session.audit_entries.select_related("user"):
        parts[entry.category].append(entry)
    return [(category, headings[category], entries)
            for category, entries in parts.items() if entries]
