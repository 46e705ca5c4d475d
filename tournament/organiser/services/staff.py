"""A tournament's staff: an organiser offers roles (to an existing account, or to a new one made
with a password), which the accounts accept after logging in; limits referees to some tables;
revokes a role; and lifts a staff member's login lock, for one address at a time.

Nobody is given a role without their consent: an organiser's grant is an invitation
(:class:`~tournament.models.StaffInvitation`), which the account accepts or declines on "my
tables" once logged in; only a superuser (and the operator's commands) grants at once. The
Staff page answers an invitation in the same words whether an account of that name exists,
is made there, or does not exist, and by the same path (a password given is checked and
hashed either way): it tells nobody which accounts exist. A role already held in this
tournament changes at once (its holder accepted it).

Every service runs inside ``transaction.atomic()``, takes keyword arguments only and raises
``ValidationError`` (keyed by the form field it concerns) when the change is refused."""

from __future__ import annotations

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.core.tournaments import refuse_removing_last_organiser, staff_role_grant
from tournament.models import StaffInvitation, StaffRole, Tournament


def _new_account_checked(username: str, password: str):
    """An unsaved account of this name with this password hashed, or a ValidationError keyed
    by its field: the same checks whether an account of that name exists or not."""
    user = get_user_model()(username=username)
    try:
        user.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as error:
        raise ValidationError(
            {"username": error.message_dict.get("username", error.messages)}) from error
    if password:
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise ValidationError({"password": error.error_list}) from error
        user.password = make_password(password)
    return user


@transaction.atomic
def staff_account_grant(
    *, tournament: Tournament, username: str, password: str = "", role: str, tables: str = "",
    by=None,
) -> StaffRole | StaffInvitation:
    """Give ``username`` a role in the tournament: at once when ``by`` is a superuser (or
    None: a command) or when the account already holds a role here; otherwise as an
    invitation the account accepts after logging in. A ``password`` makes the account when
    none has that name (then invited like any other); for an existing account it is checked
    and dropped, never set. Returns the role, or the invitation."""
    if role == StaffRole.Role.ORGANISER and tables.strip():
        raise ValidationError({"tables": ValidationError(
            _("An organiser has every table: leave this blank."), code="organiser-tables")})
    candidate = _new_account_checked(username, password)
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    at_once = by is None or (by.is_authenticated and by.is_superuser)
    if at_once:
        if user is None:
            if not password:
                raise ValidationError({"password": ValidationError(
                    _("No account is called “%(username)s” yet: give it a password to create "
                      "it.") % {"username": username}, code="password-needed")})
            candidate.save()
            user = candidate
        return staff_role_grant(tournament=tournament, user=user, role=role, tables=tables)
    if user is not None and StaffRole.objects.filter(tournament=tournament, user=user).exists():
        return staff_role_grant(tournament=tournament, user=user, role=role, tables=tables)
    if user is None and password:
        candidate.save()
    invitation, _created = StaffInvitation.objects.update_or_create(
        tournament=tournament, username=username,
        defaults={"role": role, "tables": tables.strip() if role == StaffRole.Role.REFEREE
                  else "", "invited_by": by, "created_at": timezone.now()},
    )
    invitation.full_clean()
    return invitation


@transaction.atomic
def staff_invitation_accept(*, invitation: StaffInvitation, user) -> StaffRole:
    """The invited account takes the role (its own invitation only, not lapsed)."""
    invitation = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.username != user.get_username():
        raise ValidationError(_("This invitation is for another account."),
                              code="invitation-other")
    if not StaffInvitation.pending().filter(pk=invitation.pk).exists():
        invitation.delete()
        raise ValidationError(_("This invitation has lapsed: ask the organiser again."),
                              code="invitation-lapsed")
    staff_role = staff_role_grant(tournament=invitation.tournament, user=user,
                                  role=invitation.role, tables=invitation.tables)
    invitation.delete()
    return staff_role


@transaction.atomic
def staff_invitation_decline(*, invitation: StaffInvitation, user) -> None:
    """The invited account says no: the invitation is gone."""
    invitation = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.username != user.get_username():
        raise ValidationError(_("This invitation is for another account."),
                              code="invitation-other")
    invitation.delete()


@transaction.atomic
def staff_invitation_cancel(*, invitation: StaffInvitation) -> None:
    """The organiser takes an invitation back before it is accepted."""
    StaffInvitation.objects.filter(pk=invitation.pk).delete()


def staff_role_revoke(*, staff_role: StaffRole) -> None:
    """Take a role away. A tournament always keeps one organiser."""
    with tournament_write(tournament_id=staff_role.tournament_id):
        staff_role = StaffRole.objects.select_for_update().get(pk=staff_role.pk)
        if staff_role.role == StaffRole.Role.ORGANISER:
            refuse_removing_last_organiser(staff_role)
        staff_role.delete()


@transaction.atomic
def staff_lockout_lift(*, tournament: Tournament, username: str, address: str,
                       from_address: str | None) -> int:
    """Let a staff account of the tournament log in again from ``address`` after too many
    wrong passwords there (django-axes's lock-out): from that one address, never from every
    one, and never from ``from_address``, the organiser's own (whoever tried the passwords
    from there, it was not the staff member at their tablet). The account must hold a role
    in the tournament (an invitation not accepted is not one); superusers are unlocked in
    the admin. Returns how many locks were cleared."""
    if not StaffRole.objects.filter(
        tournament=tournament, user__username=username, user__is_superuser=False
    ).exists():
        raise ValidationError(
            {"username": ValidationError(
                _("“%(username)s” has no role in this tournament.") % {"username": username},
                code="not-staff",
            )}
        )
    if address == from_address:
        raise ValidationError({"address": ValidationError(
            _("This is the address you are using: a lock is lifted for the device of the "
              "staff member who asked, not for your own."), code="own-address")})
    locked = AccessAttempt.objects.filter(
        username=username, ip_address=address,
        failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
    ).exists()
    if not locked:
        raise ValidationError({"address": ValidationError(
            _("“%(username)s” is not locked out at %(address)s.")
            % {"username": username, "address": address}, code="not-locked")})
    return axes_reset(ip=address, username=username)
