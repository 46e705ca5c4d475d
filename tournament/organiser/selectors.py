"""Reads behind the organiser's pages, each in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournament.models import Match, Registration, Session, StaffRole, Tournament


def can_create_tournament(user) -> bool:
    """Superusers, and the organisers of another tournament, may create a tournament."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANISER
    ).exists()


def organiser_sessions(*, tournament: Tournament) -> QuerySet[Session]:
    """The sessions with their tables, seated players and confirmed matches counted."""
    return tournament.sessions.annotate(
        table_count=Count("tables", distinct=True),
        seat_count=Count("seats", distinct=True),
        confirmed_count=Count(
            "tables__match",
            filter=Q(tables__match__status=Match.Status.CONFIRMED),
            distinct=True,
        ),
    ).order_by("number")


def organiser_registrations(*, tournament: Tournament) -> list[Registration]:
    """The players registered, by name (:mod:`tournament.names`)."""
    registrations = tournament.registrations.select_related("player", "tournament")
    return sorted(registrations, key=lambda registration: (registration.player.name_key,
                                                           registration.pk))


def registration_counts(*, tournament: Tournament) -> dict[str, int]:
    """How many registrations per status (every status present, zeros included)."""
    counts = dict.fromkeys(Registration.Status.values, 0)
    for status, count in (
        tournament.registrations.values_list("status").annotate(count=Count("pk")).order_by()
    ):
        counts[status] = count
    return counts
