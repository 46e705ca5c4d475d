"""Services: every write to the tournament's data goes through one of these functions.

Each runs inside ``transaction.atomic()`` and takes keyword arguments only. A service checks
the business rules the database cannot hold and raises ``ValidationError`` with a translated
message (keyed by form field where one applies), so views can show it next to the field.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import (
    Match,
    Player,
    Registration,
    Session,
    Seat,
    StaffRole,
    Table,
    Tournament,
)


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
def session_create(*, tournament: Tournament, seed: int = 0) -> Session:
    """Add the next session (numbered from 1), as a draft."""
    last = tournament.sessions.order_by("-number").values_list("number", flat=True).first()
    session = Session(tournament=tournament, number=(last or 0) + 1, seed=seed)
    session.full_clean()
    session.save()
    return session


@transaction.atomic
def session_seat_players(*, session: Session, tables: Sequence[Sequence[Player]]) -> list[Table]:
    """Seat a draft session from an explicit plan: one list of players per table, clockwise.

    Creates the tables (numbered from 1), the seats and one empty match per table, and marks
    the session seated. The plan itself (who sits where) comes from the seating algorithm or
    from the caller; this service only checks and stores it.
    """
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status != Session.Status.DRAFT:
        raise ValidationError(_("Only a draft session can be seated; this one is %(status)s.")
                              % {"status": session.get_status_display()})
    if session.tables.exists():
        raise ValidationError(_("This session already has tables."))
    registered = set(
        session.tournament.registrations.exclude(status=Registration.Status.WITHDRAWN)
        .values_list("player_id", flat=True)
    )
    seen: set[int] = set()
    for players in tables:
        if len(players) < 2:
            raise ValidationError(_("A table needs at least two players."))
        for player in players:
            if player.pk not in registered:
                raise ValidationError(
                    _("%(player)s is not registered in this tournament.") % {"player": player.name}
                )
            if player.pk in seen:
                raise ValidationError(
                    _("%(player)s is seated twice.") % {"player": player.name}
                )
            seen.add(player.pk)
    created = []
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=number)
        Seat.objects.bulk_create(
            Seat(table=table, session=session, player=player, order=order)
            for order, player in enumerate(players)
        )
        Match.objects.create(table=table)
        created.append(table)
    session.status = Session.Status.SEATED
    session.save(update_fields=["status"])
    return created


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
                {"password": _("No account is called “%(username)s” yet: give it a password "
                               "to create it.") % {"username": username}}
            )
        user = User(username=username)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise ValidationError({"password": error.messages}) from error
        user.set_password(password)
        try:
            user.full_clean()
        except ValidationError as error:
            raise ValidationError({"username": error.message_dict.get("username", error.messages)})
        user.save()
    elif password:
        raise ValidationError(
            {"password": _("The account “%(username)s” already exists; its password is not "
                           "changed here. Leave this blank.") % {"username": username}}
        )
    if role == StaffRole.Role.ORGANISER and tables.strip():
        raise ValidationError({"tables": _("An organiser has every table: leave this blank.")})
    return staff_role_grant(tournament=tournament, user=user, role=role, tables=tables)


@transaction.atomic
def staff_role_revoke(*, staff_role: StaffRole) -> None:
    """Take a role away. A tournament always keeps one organiser."""
    staff_role = StaffRole.objects.select_for_update().get(pk=staff_role.pk)
    if staff_role.role == StaffRole.Role.ORGANISER:
        _refuse_removing_last_organiser(staff_role)
    staff_role.delete()


def _refuse_removing_last_organiser(staff_role: StaffRole) -> None:
    organisers = StaffRole.objects.select_for_update().filter(
        tournament=staff_role.tournament_id, role=StaffRole.Role.ORGANISER
    )
    if not organisers.exclude(pk=staff_role.pk).exists():
        raise ValidationError(
            _("%(username)s is the tournament's only organiser: name another organiser first.")
            % {"username": staff_role.user.get_username()}
        )
