"""Reads behind the organiser's pages, each in a fixed number of queries."""

from __future__ import annotations

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from tournament.models import (
    Match,
    Registration,
    Session,
    StaffInvitation,
    StaffRole,
    Tournament,
)


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
    registrations = tournament.registrations.select_related(
        "player", "tournament").prefetch_related("categories")
    return sorted(registrations, key=lambda registration: (registration.player.name_key,
                                                           registration.pk))


def registration_category_names(*, registration: Registration) -> list[str]:
    """The names of the categories a registration carries, by name (docs/guides/categories.md)."""
    return sorted(registration.categories.values_list("name", flat=True), key=str.casefold)


def registration_counts(*, tournament: Tournament) -> dict[str, int]:
    """How many registrations per status (every status present, zeros included)."""
    counts = dict.fromkeys(Registration.Status.values, 0)
    for status, count in (
        tournament.registrations.values_list("status").annotate(count=Count("pk")).order_by()
    ):
        counts[status] = count
    return counts


def tournament_staff(*, tournament: Tournament) -> QuerySet[StaffRole]:
    return tournament.staff_roles.select_related("user").order_by("role", "user__username")


def tournament_invitations(*, tournament: Tournament) -> QuerySet[StaffInvitation]:
    """The roles offered and not accepted yet (nor lapsed), by username."""
    return StaffInvitation.pending().filter(tournament=tournament).order_by("username")


def invitations_for(*, user) -> QuerySet[StaffInvitation]:
    """The roles offered to this account, not lapsed, with their tournament and who offered
    them, the latest first."""
    if not user.is_authenticated:
        return StaffInvitation.objects.none()
    return (StaffInvitation.pending().filter(username=user.get_username())
            .select_related("tournament", "invited_by").order_by("-created_at", "pk"))


def locked_out_staff(*, tournament: Tournament) -> list[dict]:
    """The tournament's staff accounts locked out of logging in now (django-axes: too many
    wrong passwords from one address), by username: [{"username", "addresses", "since"}]."""
    cutoff = timezone.now() - settings.AXES_COOLOFF_TIME
    attempts = (
        AccessAttempt.objects.filter(
            username__in=_unlockable_usernames(tournament),
            failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
            attempt_time__gte=cutoff,
        )
        .order_by("username", "attempt_time")
        .values_list("username", "ip_address", "attempt_time")
    )
    locked: dict[str, dict] = {}
    for username, address, at in attempts:
        entry = locked.setdefault(username, {"username": username, "addresses": [], "since": at})
        entry["addresses"].append(address)
    return list(locked.values())


def _unlockable_usernames(tournament: Tournament) -> QuerySet:
    """The accounts an organiser of the tournament may unlock: its staff, superusers aside."""
    return StaffRole.objects.filter(tournament=tournament, user__is_superuser=False).values(
        "user__username"
    )
