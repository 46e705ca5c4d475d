"""Writes about seating: draw a session's seating (``session_seat``), or store one given
table by table (``session_seat_players``, which the draw stores with too: the demo and the
tests seat from a plan of their own with it); swap two players before the session starts.

All run inside ``transaction.atomic()``, take keyword arguments only, and raise
``ValidationError`` with a translated message when the session's state forbids the change.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.models import (
    Match,
    Player,
    PlayerRating,
    Registration,
    Seat,
    SeatingMethod,
    Session,
    Table,
)
from tournament.ratings.model import INITIAL
from tournament.seating.algorithm import Seating, SeatingPlayer, seating_draw
from tournament.seating.final import final_plan
from tournament.seating.selectors import earlier_meetings, registrations_to_seat
from tournament.standings.selectors import standings_rows


def _session_locked(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)


def _refuse_unless_seatable(session: Session) -> None:
    if session.status in (Session.Status.PLAYING, Session.Status.FINISHED):
        raise ValidationError(
            _("Session %(number)s has started: its seating can no longer change.")
            % {"number": session.number},
            code="started",
        )
    if Match.objects.filter(table__session=session).exclude(status=Match.Status.PENDING).exists():
        raise ValidationError(
            _("A match of session %(number)s has begun: its seating can no longer change.")
            % {"number": session.number},
            code="match-begun",
        )


def _refuse_method(session: Session, method: str) -> None:
    if method not in SeatingMethod.values:
        raise ValidationError({"method": ValidationError(
            _("Choose how to seat the players from the list."), code="unknown-method")})
    if method != SeatingMethod.RANDOM and session.number > 1:
        raise ValidationError({"method": ValidationError(
            _("Only session 1 can be seated by rating; session %(number)s is seated from the "
              "standings.") % {"number": session.number},
            code="rating-after-first",
        )})


def player_ratings(player_ids) -> dict[int, float]:
    """Each player's conservative rating (``PlayerRating``), the initial one (0) for a player
    not rated yet (one query)."""
    rated = dict(
        PlayerRating.objects.filter(player_id__in=list(player_ids))
        .values_list("player_id", "conservative")
    )
    return {player_id: rated.get(player_id, INITIAL.conservative) for player_id in player_ids}


@transaction.atomic
def session_seat(*, session: Session, seed: int | None = None, method: str | None = None) -> Seating:
    """Draw the session's seating and store it: tables, seats and one empty match per table.

    Session 1 is drawn at random, or by rating (``method``, a ``SeatingMethod``: the
    strongest spread across the tables, or together), players of one club kept apart when
    the tournament asks; later sessions from the standings and the earlier meetings
    (``tournament.seating.algorithm``). ``seed``: the seed to draw with (kept on the
    session); None keeps the session's. ``method``: kept on the session (``Session.
    seating``); None keeps the session's; a method by rating is refused after session 1
    (keyed ``method``). A seated session that has not started is drawn again; the earlier
    sessions must be closed first, so that the standings are final. The final table is
    seated from the standings (``tournament.seating.final``), not drawn.
    """
    session = _session_locked(session)
    tournament = session.tournament
    _refuse_unless_seatable(session)
    if method is not None:
        _refuse_method(session, method)
        session.seating = method
    method = session.seating if session.number == 1 else SeatingMethod.RANDOM
    unfinished = list(
        tournament.sessions.filter(number__lt=session.number)
        .exclude(status=Session.Status.FINISHED)
        .values_list("number", flat=True)
    )
    if unfinished:
        raise ValidationError(
            _("Close session %(number)s before seating session %(next)s: the seating uses "
              "its results."),
            code="earlier-not-closed", params={"number": unfinished[0], "next": session.number},
        )
    if session.is_final:
        return _final_seat(session, seed=seed)
    registrations = list(registrations_to_seat(session=session))
    if len(registrations) < 2:
        raise ValidationError(
            _("At least two players are needed to seat a session; %(count)s can play in this "
              "one.") % {"count": len(registrations)},
            code="too-few-players",
        )
    ranks = None
    if session.number > 1:
        ranks = {row["player_id"]: row["rank"] for row in standings_rows(tournament=tournament)
                 if row["ranked"]}
    last_rank = max(ranks.values(), default=0) + 1 if ranks is not None else None
    ratings = {}
    if method != SeatingMethod.RANDOM:
        ratings = player_ratings([registration.player_id for registration in registrations])
    players = [
        SeatingPlayer(
            id=registration.player_id,
            club=registration.player.club,
            rank=None if ranks is None else ranks.get(registration.player_id, last_rank),
            rating=ratings.get(registration.player_id, INITIAL.conservative),
        )
        for registration in registrations
    ]
    if seed is not None:
        session.seed = seed
    seating = seating_draw(
        players=players,
        seed=session.seed,
        met=earlier_meetings(session=session),
        keep_clubs_apart=tournament.keep_clubs_apart and session.number == 1,
        max_players=tournament.rule_set.max_players,
        method=method,
    )

    session.tables.all().delete()
    session.status = Session.Status.DRAFT
    session.save(update_fields=["status", "seed", "seating"])
    player_by_id: dict[int, Player] = {
        registration.player_id: registration.player for registration in registrations
    }
    session_seat_players(
        session=session,
        tables=[[player_by_id[player_id] for player_id in table] for table in seating.tables],
    )
    return seating


def _final_seat(session: Session, *, seed: int | None) -> Seating:
    """Seat the final from the standings (``tournament.seating.final``); ``seed`` draws a tie
    at the cut line again."""
    if seed is not None:
        session.seed = seed
    seating, _cut = final_plan(session=session)
    session.tables.all().delete()
    session.status = Session.Status.DRAFT
    session.save(update_fields=["status", "seed", "seating"])
    players = Player.objects.in_bulk([player_id for table in seating.tables for player_id in table])
    session_seat_players(
        session=session,
        tables=[[players[player_id] for player_id in table] for table in seating.tables],
    )
    return seating


def session_seat_players(*, session: Session, tables: Sequence[Sequence[Player]]) -> list[Table]:
    """Seat a draft session from an explicit plan: one list of players per table, clockwise.

    Creates the tables (numbered from 1), the seats and one empty match per table (one insert
    each, whatever the number of tables), and marks the session seated. The plan itself (who
    sits where) comes from the seating algorithm or from the caller; this service only checks
    and stores it.
    """
    with tournament_write(tournament_id=session.tournament_id):
        session = Session.objects.select_for_update().select_related("tournament").get(
            pk=session.pk)
        if session.status != Session.Status.DRAFT:
            raise ValidationError(_("Only a draft session can be seated; this one is %(status)s.")
                                  % {"status": session.get_status_display()}, code="not-draft")
        if session.tables.exists():
            raise ValidationError(_("This session already has tables."), code="has-tables")
        registered = set(
            Registration.objects.filter(tournament_id=session.tournament_id)
            .exclude(status=Registration.Status.WITHDRAWN)
            .values_list("player_id", flat=True)
        )
        checked_in = None
        # The final's players are named by the standings, not checked in (docs/guides/check-in.md).
        if session.tournament.uses_check_in and not session.is_final:
            checked_in = set(session.check_ins.values_list("player_id", flat=True))
        seen: set[int] = set()
        for players in tables:
            if len(players) < 2:
                raise ValidationError(_("A table needs at least two players."),
                                      code="table-too-small")
            for player in players:
                if player.pk not in registered:
                    raise ValidationError(
                        _("%(player)s is not registered in this tournament.")
                        % {"player": player.name},
                        code="not-registered",
                    )
                if checked_in is not None and player.pk not in checked_in:
                    raise ValidationError(
                        _("%(player)s is not checked in for this session.")
                        % {"player": player.name},
                        code="not-checked-in",
                    )
                if player.pk in seen:
                    raise ValidationError(
                        _("%(player)s is seated twice.") % {"player": player.name},
                        code="seated-twice",
                    )
                seen.add(player.pk)
        created = Table.objects.bulk_create(
            Table(session=session, number=number) for number in range(1, len(tables) + 1)
        )
        Seat.objects.bulk_create(
            Seat(table=table, session=session, player=player, order=order)
            for table, players in zip(created, tables, strict=True)
            for order, player in enumerate(players)
        )
        Match.objects.bulk_create(Match(table=table) for table in created)
        session.status = Session.Status.SEATED
        session.save(update_fields=["status"])
        return created


def seating_swap(*, session: Session, player_a: Player, player_b: Player) -> None:
    """Swap two players' seats (at two tables, or at one) before the session starts."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _session_locked(session)
        if session.status == Session.Status.DRAFT:
            raise ValidationError(
                _("Session %(number)s is not seated yet.") % {"number": session.number},
                code="not-seated",
            )
        _refuse_unless_seatable(session)
        if player_a.pk == player_b.pk:
            raise ValidationError({"player_b": ValidationError(
                _("Choose two different players."), code="same-player")})
        seats = {
            seat.player_id: seat
            for seat in Seat.objects.select_for_update()
            .select_related("table")
            .filter(session=session, player_id__in=[player_a.pk, player_b.pk])
        }
        for field, player in (("player_a", player_a), ("player_b", player_b)):
            if player.pk not in seats:
                raise ValidationError(
                    {field: ValidationError(
                        _("%(player)s is not seated in session %(number)s.")
                        % {"player": player.name, "number": session.number},
                        code="not-seated-player",
                    )}
                )
        seat_a, seat_b = seats[player_a.pk], seats[player_b.pk]
        swapped = [
            Seat(table=seat_a.table, session=session, player=player_b, order=seat_a.order),
            Seat(table=seat_b.table, session=session, player=player_a, order=seat_b.order),
        ]
        Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
        Seat.objects.bulk_create(swapped)
