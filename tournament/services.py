"""Services: creating a tournament, and its staff (roles, accounts).

The other writes live with their part of the app: ``organiser.services`` (settings, players,
the sessions' lifecycle), ``seating.services`` (who sits where), ``matches.services`` (the
matches). Each runs inside ``transaction.atomic()`` and takes keyword arguments only. A service checks
the business rules the database cannot hold and raises ``ValidationError`` with a translated
message (keyed by form field where one applies), so views can show it next to the field.
"""

from __future__ import annotations

import datetime
import random

from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import freshness
from tournament.models import StaffRole, Tournament
from tournament.permissions import staff_roles_forget
from tournament.ratings import services as ratings


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
    rules: str | None = None,
    target: int | None = None,
    match_rounds: int | None = None,
    opening_bonus: bool = True,
    is_public: bool = True,
    keep_clubs_apart: bool = False,
    organiser=None,
) -> Tournament:
    """Create a tournament; ``organiser`` (a user), if given, becomes its organiser."""
    tournament = Tournament(
        name=name,
        slug=slug,
        start_date=start_date,
        end_date=end_date,
        venue=venue,
        target=target,
        match_rounds=match_rounds,
        opening_bonus=opening_bonus,
        is_public=is_public,
        keep_clubs_apart=keep_clubs_apart,
    )
    if rules is not None:
        tournament.rules = rules
    tournament.full_clean()
    tournament.save()
    if organiser is not None:
        staff_role_grant(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    return tournament


@transaction.atomic
def tournaments_delete(*, tournaments) -> int:
    """Delete the tournaments of a queryset with everything in them, then rate again every
    match confirmed after their first rated one (their matches no longer count). Returns the
    number of tournaments deleted."""
    first = ratings.HistoryPoint.first_of(
        ratings.rated_matches().filter(table__session__tournament__in=tournaments)
    )
    count = tournaments.count()
    tournaments.delete()
    if first is not None:
        ratings.ratings_refresh(since=first)
    return count


@transaction.atomic
def staff_role_grant(
    *, tournament: Tournament, user, role: str, tables: str = ""
) -> StaffRole:
    """Give a user a role in a tournament (or change it). The last organiser stays organiser."""
    existing = StaffRole.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if (
        existing is not None
        and existing.role == StaffRole.Role.ORGANISER
        and role != StaffRole.Role.ORGANISER
    ):
        _refuse_removing_last_organiser(existing)
    staff_role = existing or StaffRole(tournament=tournament, user=user)
    staff_role.role = role
    staff_role.tables = tables.strip() if role == StaffRole.Role.REFEREE else ""
    staff_role.full_clean()
    staff_role.save()
    staff_roles_forget(user)
    freshness.touch(tournament_id=tournament.pk)  # the staff see more than the public
    return staff_role


@transaction.atomic
def staff_account_grant(
    *, tournament: Tournament, username: str, password: str = "", role: str, tables: str = ""
) -> StaffRole:
    """Give a role to an existing account, or create the account first when a password is given.

    Errors are keyed by the field they concern (username, password, tables).
    """
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        if not password:
            raise ValidationError(
                {"password": ValidationError(
                    _("No account is called “%(username)s” yet: give it a password to create "
                      "it.") % {"username": username},
                    code="password-needed",
                )}
            )
        user = User(username=username)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise ValidationError({"password": error.error_list}) from error
        user.set_password(password)
        try:
            user.full_clean()
        except ValidationError as error:
            raise ValidationError(
                {"username": error.message_dict.get("username", error.messages)}
            ) from error
        user.save()
    elif password:
        raise ValidationError(
            {"password": ValidationError(
                _("The account “%(username)s” already exists; its password is not changed "
                  "here. Leave this blank.") % {"username": username},
                code="account-exists",
            )}
        )
    if role == StaffRole.Role.ORGANISER and tables.strip():
        raise ValidationError({"tables": ValidationError(
            _("An organiser has every table: leave this blank."), code="organiser-tables")})
    return staff_role_grant(tournament=tournament, user=user, role=role, tables=tables)


@transaction.atomic
def staff_role_revoke(*, staff_role: StaffRole) -> None:
    """Take a role away. A tournament always keeps one organiser."""
    staff_role = StaffRole.objects.select_for_update().get(pk=staff_role.pk)
    if staff_role.role == StaffRole.Role.ORGANISER:
        _refuse_removing_last_organiser(staff_role)
    staff_role.delete()
    freshness.touch(tournament_id=staff_role.tournament_id)


@transaction.atomic
def staff_lockout_lift(*, tournament: Tournament, username: str) -> int:
    """Let a staff account of the tournament log in again after too many wrong passwords
    (django-axes's lock-out, from every address). Superusers are unlocked in the admin.
    Returns how many locked addresses were cleared."""
    if not StaffRole.objects.filter(
        tournament=tournament, user__username=username, user__is_superuser=False
    ).exists():
        raise ValidationError(
            {"username": ValidationError(
                _("“%(username)s” has no role in this tournament.") % {"username": username},
                code="not-staff",
            )}
        )
    return axes_reset(username=username)


def _refuse_removing_last_organiser(staff_role: StaffRole) -> None:
    organisers = StaffRole.objects.select_for_update().filter(
        tournament=staff_role.tournament_id, role=StaffRole.Role.ORGANISER
    )
    if not organisers.exclude(pk=staff_role.pk).exists():
        raise ValidationError(
            _("%(username)s is the tournament's only organiser: name another organiser first.")
            % {"username": staff_role.user.get_username()},
            code="last-organiser",
        )


def new_seed() -> int:
    """A fresh random seed for a seating (kept on the session, so it can be drawn again)."""
    return random.SystemRandom().randrange(1, 2**31 - 1)
