"""A tournament's staff: an organiser names referees (an existing account, or a new one with a
password), limits them to some tables, revokes a role, and lifts a staff member's login lock.

Every service runs inside ``transaction.atomic()``, takes keyword arguments only and raises
``ValidationError`` (keyed by the form field it concerns) when the change is refused."""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core import freshness
from tournament.core.tournaments import refuse_removing_last_organiser, staff_role_grant
from tournament.models import StaffRole, Tournament


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
        refuse_removing_last_organiser(staff_role)
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
