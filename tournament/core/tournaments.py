"""A tournament's creation and its staff's roles: what the organiser's pages, the past results'
import, the admin and the demo all create tournaments with.

Every service runs inside ``transaction.atomic()`` and takes keyword arguments only; a refused
change raises ``ValidationError`` and writes nothing."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.core.permissions import staff_roles_forget
from tournament.kit.addresses import slug_claim
from tournament.kit.formats import long_date
from tournament.models import CheckInRule, StaffRole, Tournament


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
    check_in: str = CheckInRule.OFF,
    organiser=None,
    final_size: int = 0,
) -> Tournament:
    """Create a tournament; ``organiser`` (a user), if given, becomes its organiser. An address
    already held, by any tournament, is refused as "not available" (``slug-unavailable``:
    :func:`tournament.kit.addresses.slug_claim`)."""
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
        final_size=final_size,
        check_in=check_in,
    )
    if rules is not None:
        tournament.rules = rules
    tournament.full_clean(validate_unique=False)
    slug_claim(tournament)
    if organiser is not None:
        staff_role_grant(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    return tournament


def staff_role_grant(
    *, tournament: Tournament, user, role: str, tables: str = ""
) -> StaffRole:
    """Give a user a role in a tournament (or change it). The last organiser stays organiser."""
    with tournament_write(tournament_id=tournament.pk):  # the staff see more than the public
        existing = StaffRole.objects.select_for_update().filter(
            tournament=tournament, user=user).first()
        if (
            existing is not None
            and existing.role == StaffRole.Role.ORGANISER
            and role != StaffRole.Role.ORGANISER
        ):
            refuse_removing_last_organiser(existing)
        staff_role = existing or StaffRole(tournament=tournament, user=user)
        staff_role.role = role
        staff_role.tables = tables.strip() if role == StaffRole.Role.REFEREE else ""
        staff_role.full_clean()
        staff_role.save()
        staff_roles_forget(user)
        return staff_role


def refuse_removing_last_organiser(staff_role: StaffRole) -> None:
    organisers = StaffRole.objects.select_for_update().filter(
        tournament=staff_role.tournament_id, role=StaffRole.Role.ORGANISER
    )
    if not organisers.exclude(pk=staff_role.pk).exists():
        raise ValidationError(
            _("%(username)s is the tournament's only organiser: name another organiser first.")
            % {"username": staff_role.user.get_username()},
            code="last-organiser",
        )


def tournament_label(tournament: Tournament) -> str:
    """A tournament as a list to choose from names it, so that two alike (an archive imported
    as a copy: the same name and dates) are told apart: its name, dates, venue and address.

    "Open de Lyon · May 17, 2025 · Salle Pierre-Sémard · /t/open-de-lyon-2/"
    """
    dates = long_date(tournament.start_date)
    if tournament.end_date and tournament.end_date != tournament.start_date:
        dates = f"{dates} – {long_date(tournament.end_date)}"
    parts = [tournament.name, dates, tournament.venue, tournament.get_absolute_url()]
    return " · ".join(part for part in parts if part)
