"""Reads behind the public pages of a session and of a player, in a fixed number of queries."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Subquery, TextField
from django.db.models.functions import Cast
from django.http import Http404
from django.urls import reverse

from tournament.kit.seats import seat_letter
from tournament.models import Match, Registration, Seat, Session, Tournament
from tournament.sessions.selectors import sessions_by_moment
from tournament.standings.ranking import match_points
from tournament.standings.selectors import cached_player_standing


def table_match_now(*, tournament: Tournament, number: int) -> Match:
    """The match at table ``number`` in the session of the moment: the last one seated or in
    play, else (between sessions, after the last) the last one seated at all (one query).
    404 when that session has no such table.

    It gives the tablet left at a table one address for the whole event.
    """
    session = sessions_by_moment(tournament=tournament).values("pk")[:1]
    match = Match.objects.filter(table__session=Subquery(session), table__number=number).first()
    if match is None:
        raise Http404
    return match


def tournament_session(*, tournament: Tournament, number: int) -> Session:
    try:
        return tournament.sessions.get(number=number)
    except Session.DoesNotExist:
        raise Http404 from None


def player_page(*, tournament: Tournament, player_id: int) -> dict[str, Any]:
    """Everything a player's page shows (three queries and a read of the cache, most times):
    404 unless registered here.

    ``registration``, ``standing`` (their standings row), ``ranking`` (a ``PlayerStanding``:
    their row, the criteria, how many are ranked, whether a session is in play), ``now``
    (the seat in the session seated or in play: ``session``, ``table``, ``seat``,
    ``others``, ``match_url``, ``match_status_label``; or None), ``matches`` (one dict per
    session they sat in: ``session``, ``table``, ``seat``, ``opponents``, ``total``,
    ``match_points`` (None until the match is over: while it is in play, its own page
    follows it), ``status``, ``status_label``, ``confirmed``, ``url``).
    """
    registration = (
        Registration.objects.filter(tournament=tournament, player_id=player_id)
        .select_related("player")
        .first()
    )
    if registration is None:
        raise Http404
    # Ranked once per confirmation, not once per page: the player's row from the process's
    # index of rows at the results version.
    ranking = cached_player_standing(tournament=tournament, player_id=player_id)

    # Every seat at the tables they sat at (theirs and their companions'), with the table's
    # session and match, in one query: the match's totals as text, decoded once a table.
    tables: dict[int, dict[str, Any]] = {}
    for (table_id, order, other_id, name, session_number, session_status, table_number,
         match_id, status, totals_text) in (
        Seat.objects.filter(session__tournament=tournament, table__seats__player_id=player_id)
        .annotate(totals_text=Cast("table__match__totals", TextField()))
        .order_by("session__number", "order")
        .values_list("table_id", "order", "player_id", "player__name", "session__number",
                     "session__status", "table__number", "table__match__id",
                     "table__match__status", "totals_text")
    ):
        table = tables.setdefault(table_id, {
            "session": session_number, "session_status": session_status,
            "table": table_number, "match_id": match_id, "status": status,
            "totals": (json.loads(totals_text) if totals_text and status in Match.OVER
                       else None) or [],
            "seats": [],
        })
        table["seats"].append((order, name, other_id))
        if other_id == player_id:
            table["order"] = order

    player_url = reverse("tournament:player", kwargs={"slug": tournament.slug, "player_id": 0})
    player_url = player_url[: -len("0/")]
    match_url = reverse("tournament:match", kwargs={"slug": tournament.slug, "match_id": 0})
    match_url = match_url[: -len("0/")]
    session_url = reverse("tournament:session", kwargs={"slug": tournament.slug, "number": 0})
    session_url = session_url[: -len("0/")]
    match_labels = dict(Match.Status.choices)
    session_labels = dict(Session.Status.choices)
    matches = []
    now = None
    for table in tables.values():
        at_table, totals, own = table["seats"], table["totals"], table["order"]
        match_id, status = table["match_id"], table["status"] or ""
        points = match_points(totals) if len(totals) == len(at_table) and totals else None
        others = [
            {
                "name": name,
                "seat": seat_letter(order),
                "url": f"{player_url}{other_id}/",
                "total": totals[order] if order < len(totals) else None,
            }
            for order, name, other_id in at_table
            if other_id != player_id
        ]
        entry = {
            "session": table["session"],
            "table": table["table"],
            "seat": seat_letter(own),
            "opponents": others,
            "total": totals[own] if own < len(totals) else None,
            "match_points": float(points[own]) if points else None,
            "status": status,
            "status_label": str(match_labels.get(status, status)) if match_id else "",
            "confirmed": bool(match_id and status == Match.Status.CONFIRMED),
            "url": f"{match_url}{match_id}/" if match_id else "",
            "session_url": f"{session_url}{table['session']}/",
        }
        matches.append(entry)
        if table["session_status"] in (Session.Status.SEATED, Session.Status.PLAYING):
            now = {**entry, "session_status": table["session_status"],
                   "session_status_label": str(session_labels[table["session_status"]])}
    return {
        "registration": registration,
        "player": registration.player,
        "standing": ranking.row,
        "ranking": ranking,
        "now": now,
        "matches": matches,
    }
