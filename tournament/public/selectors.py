"""Reads behind the public pages of a session and of a player, in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.db.models import Subquery
from django.http import Http404
from django.urls import reverse

from tournament.core.seats import seat_letter
from tournament.models import Match, Registration, Seat, Session, Tournament
from tournament.sessions.selectors import sessions_by_moment
from tournament.standings.ranking import match_points
from tournament.standings.selectors import Standings, cached_standings_of


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
    """Everything a player's page shows (six queries at most): 404 unless registered here.

    ``registration``, ``standing`` (their standings row), ``standings`` (a ``Standings``),
    ``now`` (the seat in the session seated or in play: ``session``, ``table``, ``seat``,
    ``others``, ``match_url``, ``match_status_label``; or None), ``matches`` (one dict per
    session they sat in: ``session``, ``table``, ``seat``, ``opponents``, ``total``,
    ``match_points`` (None until the match has totals), ``status``, ``status_label``,
    ``confirmed``, ``url``).
    """
    registration = (
        Registration.objects.filter(tournament=tournament, player_id=player_id)
        .select_related("player")
        .first()
    )
    if registration is None:
        raise Http404
    # Kept under the results version: computed once per confirmation, not once per turn.
    result: Standings = cached_standings_of(tournaments=[tournament])[tournament.pk]
    standing = next(row for row in result.rows if row["player_id"] == player_id)

    seats = list(
        Seat.objects.filter(player_id=player_id, session__tournament=tournament)
        .select_related("session", "table__match")
        .order_by("session__number")
    )
    companions: dict[int, list[tuple[int, str, int]]] = {}
    for table_id, order, name, other_id in Seat.objects.filter(
        table_id__in=[seat.table_id for seat in seats]
    ).order_by("order").values_list("table_id", "order", "player__name", "player_id"):
        companions.setdefault(table_id, []).append((order, name, other_id))

    player_url = reverse("tournament:player", kwargs={"slug": tournament.slug, "player_id": 0})
    player_url = player_url[: -len("0/")]
    matches = []
    now = None
    for seat in seats:
        match = getattr(seat.table, "match", None)
        at_table = companions.get(seat.table_id, [])
        totals = (match.totals if match else None) or []
        points = match_points(totals) if len(totals) == len(at_table) and totals else None
        url = (
            reverse("tournament:match", kwargs={"slug": tournament.slug, "match_id": match.pk})
            if match
            else ""
        )
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
            "session": seat.session.number,
            "table": seat.table.number,
            "seat": seat_letter(seat.order),
            "opponents": others,
            "total": totals[seat.order] if seat.order < len(totals) else None,
            "match_points": float(points[seat.order]) if points else None,
            "status": match.status if match else "",
            "status_label": match.get_status_display() if match else "",
            "confirmed": bool(match and match.status == Match.Status.CONFIRMED),
            "url": url,
            "session_url": reverse(
                "tournament:session",
                kwargs={"slug": tournament.slug, "number": seat.session.number},
            ),
        }
        matches.append(entry)
        if seat.session.status in (Session.Status.SEATED, Session.Status.PLAYING):
            now = {**entry, "session_status": seat.session.status,
                   "session_status_label": seat.session.get_status_display()}
    return {
        "registration": registration,
        "player": registration.player,
        "standing": standing,
        "standings": result,
        "now": now,
        "matches": matches,
    }
