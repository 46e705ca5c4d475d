"""Selectors: the reads behind the pages, each in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from tournament.models import Match, Registration, Seat, Session, StaffRole, Table, Tournament


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    """Public tournaments, plus the private ones the user is staff of (all for a superuser);
    never a practice table (``Tournament.practice_of``: ``tournament.practice``)."""
    tournaments = Tournament.objects.filter(practice_of__isnull=True)
    if not (user.is_authenticated and user.is_superuser):
        visible = Q(is_public=True)
        if user.is_authenticated:
            visible |= Q(staff_roles__user=user)
        tournaments = tournaments.filter(visible).distinct()
    return tournaments.annotate(
        player_count=Count(
            "registrations",
            filter=~Q(registrations__status=Registration.Status.WITHDRAWN),
            distinct=True,
        ),
        session_count=Count("sessions", distinct=True),
    )


def tournament_sessions(*, tournament: Tournament) -> QuerySet[Session]:
    """The sessions with their number of tables and of matches finished or confirmed."""
    return tournament.sessions.annotate(
        table_count=Count("tables", distinct=True),
        matches_done=Count(
            "tables__match",
            filter=Q(tables__match__status__in=Match.OVER),
            distinct=True,
        ),
    ).order_by("number")


def tournament_registrations(*, tournament: Tournament) -> list[Registration]:
    """The players registered, by name (:mod:`tournament.names`)."""
    registrations = tournament.registrations.select_related("player")
    return sorted(registrations, key=lambda registration: (registration.player.name_key,
                                                           registration.pk))


def staff_tables(*, user) -> list[dict]:
    """The tables the user may enter, in the sessions seated or in play of the tournaments
    where they are staff: the sessions in play first, then by tournament and session; each
    ``{"tournament", "session", "tables"}``, each table with its match and its players in
    seat order (three queries). The practice tables are apart (:func:`practice_tables`)."""
    roles = {role.tournament_id: role for role in StaffRole.objects.filter(
        user=user, tournament__practice_of__isnull=True)}
    if not roles:
        return []
    tables = (
        Table.objects.filter(
            session__tournament_id__in=roles,
            session__status__in=[Session.Status.PLAYING, Session.Status.SEATED],
            match__isnull=False,
        )
        .select_related("session__tournament", "match")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player").order_by("order")))
        .order_by("session__tournament__name", "session__number", "number")
    )
    groups: dict[int, dict] = {}
    for table in tables:
        allowed = roles[table.session.tournament_id].table_numbers()
        if allowed is not None and table.number not in allowed:
            continue
        group = groups.setdefault(table.session_id, {
            "tournament": table.session.tournament, "session": table.session, "tables": []})
        group["tables"].append(table)
    playing_first = sorted(
        groups.values(), key=lambda group: group["session"].status != Session.Status.PLAYING)
    return playing_first


def practice_tables(*, user) -> list[dict]:
    """The tournaments where ``user`` is staff, latest first, each ``{"tournament",
    "match"}``: their practice table's match, or None before it is opened (two queries)."""
    tournaments = list(
        Tournament.objects.filter(staff_roles__user=user, practice_of__isnull=True)
        .order_by("-start_date", "name")
    )
    matches = {
        match.table.session.tournament.practice_of_id: match
        for match in Match.objects.filter(
            table__session__tournament__practice_for=user,
            table__session__tournament__practice_of__in=tournaments,
        ).select_related("table__session__tournament")
    }
    return [{"tournament": tournament, "match": matches.get(tournament.pk)}
            for tournament in tournaments]
