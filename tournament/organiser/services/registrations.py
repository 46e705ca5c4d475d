"""A tournament's players: added one by one or from a CSV file, changed, withdrawn, brought back.

Players added once session 1 is seated are late arrivals: seated from the next session that
is not seated yet. A withdrawn player is not seated from the next seating on; their matches
stay in the standings. Every service runs inside ``transaction.atomic()`` and raises
``ValidationError`` (keyed by the form field it concerns) when the change is refused; a refused
change writes nothing."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.core.permissions import may_edit_person
from tournament.kit.transactions import whole_write
from tournament.models import Player, Registration, Seat, Tournament
from tournament.names import person_key
from tournament.organiser.players_csv import PlayerLine, csv_line_errors, players_csv_read
from tournament.organiser.services.categories import registrations_categorise
from tournament.players.selectors import players_by_licence, players_by_name_and_club
from tournament.players.services import player_split
from tournament.sessions.services import next_session_to_seat
from tournament.validators import MAX_SESSION_NUMBER


def _session_too_high() -> ValidationError:
    return ValidationError(
        _("Sessions are numbered up to %(max)s.") % {"max": MAX_SESSION_NUMBER},
        code="session-max",
    )


def _status_for(first_session: int | None) -> tuple[str, int | None]:
    if first_session is not None and first_session > 1:
        return Registration.Status.LATE, first_session
    return Registration.Status.ACTIVE, None


#: What an import does with a line that likely names a record of the user's tournaments.
SAME_PEOPLE_EXISTING = "existing"
SAME_PEOPLE_NEW = "new"


class _PlayerChecks:
    """The checks shared by one player and a whole file, against the tournament's players."""

    def __init__(self, tournament: Tournament, lines: Sequence[PlayerLine], *, user=None) -> None:
        self.registered = list(tournament.registrations.values_list(
            "player__name", "player__club", "player__licence", "player_id"
        ))
        self.registered_licences = {licence for _n, _c, licence, _i in self.registered if licence}
        self.registered_names = {
            (name.casefold(), club.casefold()) for name, club, _l, _i in self.registered
        }
        self.registered_ids = {player_id for _n, _c, _l, player_id in self.registered}
        # The records of the user's own tournaments only; a licence of a merged record leads
        # to the record kept (tournament/players/).
        self.players_by_licence = players_by_licence((line.licence for line in lines), user=user)
        # Lines without a licence whose name and club are those of a record of the user's
        # tournaments: likely the same person (the import asks before making a second one).
        self.likely_same = players_by_name_and_club(
            ((line.name, line.club) for line in lines if not line.licence), user=user)
        self.same_people = ""
        self.lines_by_licence: dict[str, int] = {}
        self.lines_by_name: dict[tuple[str, str], int] = {}
        self.max_length = {
            field: Player._meta.get_field(field).max_length for field in ("name", "club", "licence")
        }
        self.labels = {
            "name": _("name"), "club": _("club"), "licence": _("licence number")
        }

    def problems(self, line: PlayerLine) -> dict[str, ValidationError]:
        """The reasons this line cannot be entered, by field, each with its code (empty: it
        can)."""
        problems: dict[str, ValidationError] = {}
        for field in ("name", "club", "licence"):
            value = getattr(line, field)
            if len(value) > self.max_length[field]:
                problems[field] = ValidationError(
                    _("the %(field)s is longer than %(max)s characters.")
                    % {"field": self.labels[field], "max": self.max_length[field]},
                    code="too-long",
                )
        if not line.name:
            problems["name"] = ValidationError(_("the name is missing."), code="name-missing")
        if problems:
            return problems
        key = (line.name.casefold(), line.club.casefold())
        if line.licence:
            other_player = self.players_by_licence.get(line.licence)
            if line.licence in self.registered_licences or (
                other_player is not None and other_player.pk in self.registered_ids
            ):
                problems["licence"] = ValidationError(_(
                    "licence %(licence)s: %(name)s is already registered in this tournament."
                ) % {"licence": line.licence, "name": other_player.name if other_player else ""},
                    code="licence-registered")
            elif line.licence in self.lines_by_licence:
                problems["licence"] = ValidationError(
                    _("licence %(licence)s is already on line %(other)s.")
                    % {"licence": line.licence, "other": self.lines_by_licence[line.licence]},
                    code="licence-twice",
                )
            elif other_player is not None and other_player.name.casefold() != line.name.casefold():
                problems["licence"] = ValidationError(_(
                    "licence %(licence)s is that of %(other)s, not %(name)s."
                ) % {"licence": line.licence, "other": other_player.name, "name": line.name},
                    code="licence-other-player")
        if "licence" not in problems:
            if key in self.registered_names:
                problems["name"] = ValidationError(
                    _("%(name)s is already registered in this tournament.")
                    % {"name": f"{line.name} ({line.club})" if line.club else line.name},
                    code="already-registered",
                )
            elif key in self.lines_by_name:
                problems["name"] = ValidationError(
                    _("%(name)s is already on line %(other)s.")
                    % {"name": line.name, "other": self.lines_by_name[key]},
                    code="name-twice",
                )
        if line.licence:
            self.lines_by_licence.setdefault(line.licence, line.line)
        self.lines_by_name.setdefault(key, line.line)
        return problems

    def likely_same_person(self, line: PlayerLine) -> Player | None:
        """The record of the user's tournaments this line likely names (same name and club,
        no licence number given), None if none."""
        if line.licence:
            return None
        return self.likely_same.get(person_key(line.name, line.club))

    def player_for(self, line: PlayerLine) -> Player | None:
        """The existing player of this licence in the user's tournaments, reused rather than
        created twice; or, when the organiser said so (``same_people == "existing"``), the
        record of the same name and club."""
        if line.licence:
            return self.players_by_licence.get(line.licence)
        if self.same_people == SAME_PEOPLE_EXISTING:
            return self.likely_same_person(line)
        return None


def _registrations_create(
    *, tournament: Tournament, lines: Sequence[PlayerLine], checks: _PlayerChecks,
    first_session: int | None,
) -> list[Registration]:
    status, first_session = _status_for(first_session)
    players = []
    new_players = []
    for line in lines:
        player = checks.player_for(line)
        if player is None:
            player = Player(name=line.name, club=line.club, licence=line.licence)
            new_players.append(player)
        players.append(player)
    Player.objects.bulk_create(new_players)
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, status=status,
                     first_session=first_session)
        for player in players
    )
    registrations_categorise(tournament=tournament, categories={
        registration.pk: line.categories
        for registration, line in zip(registrations, lines, strict=True) if line.categories
    })
    return registrations


def player_add(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    licence: str = "",
    first_session: int | None = None,
    categories: Sequence[str] = (),
    user=None,
    same_people: str = "",
) -> Registration:
    """Register one player, carrying ``categories`` (their names: docs/guides/categories.md). Once
    session 1 is seated, a late arrival: seated from ``first_session`` (by default the next
    session not seated yet).

    A licence links the registration to the record of that licence among the players of the
    tournaments ``user`` organises (``players_by_licence``: every record for a superuser, or
    without a user, a command or the demo); otherwise a new record is made. Without a licence,
    a record of the same name and club in those tournaments is likely that person: as in
    :func:`players_import_csv`, ``same_people`` says what to do, and without it the player is
    refused (code ``likely-same-person``, next to the name), a person being there to answer;
    without a user (a command, the demo), a new record is made as before."""
    with tournament_write(tournament_id=tournament.pk):
        line = PlayerLine(0, name.strip(), club.strip(), licence.strip(), tuple(categories))
        checks = _PlayerChecks(tournament, [line], user=user)
        problems = checks.problems(line)
        likely = None if user is None else checks.likely_same_person(line)
        if "name" not in problems and likely is not None and same_people not in (
            SAME_PEOPLE_EXISTING, SAME_PEOPLE_NEW
        ):
            problems["name"] = ValidationError(
                _likely_same_message(line, likely, user), code="likely-same-person",
                params={"id": likely.pk})
        checks.same_people = same_people
        next_number = next_session_to_seat(tournament=tournament)
        if first_session is None:
            first_session = next_number
        elif first_session > MAX_SESSION_NUMBER:
            problems["first_session"] = _session_too_high()
        elif first_session < next_number:
            problems["first_session"] = ValidationError(_(
                "Session %(number)s is already seated: choose session %(next)s or a later one."
            ) % {"number": first_session, "next": next_number}, code="session-seated")
        if problems:
            raise ValidationError({
                field: ValidationError(error.message[:1].upper() + error.message[1:],
                                       code=error.code)
                for field, error in problems.items()
            })
        return _registrations_create(
            tournament=tournament, lines=[line], checks=checks, first_session=first_session
        )[0]


def _likely_same_message(line: PlayerLine, player: Player, user) -> str:
    """The question asked before a second record of a likely same person. A superuser is
    matched against every tournament of the site (``players_by_name_and_club``), not theirs."""
    name = f"{line.name} ({line.club})" if line.club else line.name
    if user is not None and user.is_superuser:
        return _("%(name)s may be the player of record %(id)s, already in a tournament of this "
                 "site (same name and club, no licence number).") % {"name": name, "id": player.pk}
    return _("%(name)s may be the player of record %(id)s, already in your tournaments (same "
             "name and club, no licence number).") % {"name": name, "id": player.pk}


def players_import_csv(*, tournament: Tournament, text: str, user=None,
                       same_people: str = "") -> list[Registration]:
    """Register every player of a CSV file (see ``players_csv_lines``), or none; licences
    link as in :func:`player_add`.

    A line without a licence whose name and club are those of a record of the user's
    tournaments is likely that person: unless ``same_people`` says what to do
    (``SAME_PEOPLE_EXISTING``: register that record; ``SAME_PEOPLE_NEW``: a new record),
    nothing is imported and the error (code ``likely-same-person``) lists those lines.

    A file with a bad line imports nothing: the ``ValidationError`` lists every bad line with
    its number and the reason. Once session 1 is seated, the players are late arrivals.
    """
    with tournament_write(tournament_id=tournament.pk):
        lines, errors = players_csv_read(text)
        if not lines and not errors:
            raise ValidationError(_("The file has no player in it."), code="csv-empty")
        checks = _PlayerChecks(tournament, lines, user=user)
        for line in lines:
            errors.extend(
                (line.line, error.message, error.code) for error in checks.problems(line).values()
            )
        if errors:
            raise ValidationError(csv_line_errors(errors))
        if same_people not in (SAME_PEOPLE_EXISTING, SAME_PEOPLE_NEW):
            likely = [(line, checks.likely_same_person(line)) for line in lines]
            likely = [(line, player) for line, player in likely if player is not None]
            if likely:
                raise ValidationError(csv_line_errors([
                    (line.line, _likely_same_message(line, player, user), "likely-same-person")
                    for line, player in likely]))
        checks.same_people = same_people
        try:
            return _registrations_create(
                tournament=tournament, lines=lines, checks=checks,
                first_session=next_session_to_seat(tournament=tournament),
            )
        except ValidationError as error:  # the file's categories: an error of the file's own
            if hasattr(error, "error_dict") and "categories" in error.error_dict:
                raise ValidationError(error.error_dict["categories"]) from error
            raise


@whole_write
def registration_update(
    *,
    registration: Registration,
    name: str,
    club: str = "",
    licence: str = "",
    first_session: int | None = None,
    categories: Sequence[str] | None = None,
    user=None,
) -> Registration:
    """Correct a player's name, club or licence, or the session a late arrival starts from;
    ``categories``, when given, are the categories the player carries from now on.

    The name, club and licence are the person's, shown by every tournament they entered. A
    user who may answer for all of those tournaments (``may_edit_person``: a superuser, an
    organiser of every one, or no user: a command) changes them on the record. For anyone
    else the change stays in this tournament: its registration and its seats move to a record
    of their own with the new name, club and licence (``player_split``), and the record the
    other tournaments show stays as it was; the registration returned then holds the new
    record (a merge joins them again, with its own rule).

    A licence that names another record of the user's tournaments is refused
    (``licence-other-player``): that is one person with two records, whom a merge joins.

    A split moves the ratings: run whole (``whole_write``), again with the ratings' turn
    taken first when another write held it."""
    with tournament_write(tournament_id=registration.tournament_id) as write:
        registration = Registration.objects.select_for_update().select_related("player").get(
            pk=registration.pk
        )
        player = registration.player
        name, club, licence = name.strip(), club.strip(), licence.strip()
        changed = (name, club, licence) != (player.name, player.club, player.licence)
        candidate = Player(name=name, club=club, licence=licence)
        try:
            candidate.full_clean(validate_unique=False)
        except ValidationError as error:
            raise ValidationError(error.message_dict) from error
        if licence and licence != player.licence:
            other = players_by_licence([licence], user=user).get(licence)
            if other is not None and other.pk != player.pk:
                raise ValidationError({"licence": ValidationError(_(
                    "Licence %(licence)s is that of %(other)s (record %(id)s): if they are one "
                    "person, merge the two records rather than give one licence to both."
                ) % {"licence": licence, "other": other.name, "id": other.pk},
                    code="licence-other-player")})
        if first_session is not None and first_session > MAX_SESSION_NUMBER:
            raise ValidationError({"first_session": _session_too_high()})
        if first_session is not None:
            played_before = (
                Seat.objects.filter(
                    player=player,
                    session__tournament_id=registration.tournament_id,
                    session__number__lt=first_session,
                )
                .order_by("session__number")
                .values_list("session__number", flat=True)
                .first()
            )
            if played_before is not None:
                raise ValidationError({"first_session": ValidationError(
                    _("%(player)s is already seated in session %(number)s.")
                    % {"player": player.name, "number": played_before},
                    code="seated-before",
                )})
        status, registration.first_session = _status_for(first_session)
        if registration.status != Registration.Status.WITHDRAWN:
            registration.status = status
        registration.full_clean()
        registration.save()
        if categories is not None:
            registrations_categorise(tournament=registration.tournament,
                                     categories={registration.pk: categories})
        if changed and may_edit_person(user=user, player=player):
            player.name, player.club, player.licence = name, club, licence
            player.save()
            # The player's name shows in every tournament they are registered in.
            for tournament_id in Registration.objects.filter(player=player).values_list(
                "tournament_id", flat=True
            ):
                write.also(tournament_id)
        elif changed:
            player_split(registration=registration, name=name, club=club, licence=licence)
            registration.refresh_from_db()
        return registration


def registration_withdraw(*, registration: Registration) -> Registration:
    """Withdraw a player: not seated from the next seating on; their matches still count."""
    with tournament_write(tournament_id=registration.tournament_id):
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.status == Registration.Status.WITHDRAWN:
            raise ValidationError(_("This player has already withdrawn."), code="withdrawn")
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        return registration


def registration_reinstate(*, registration: Registration) -> Registration:
    """Bring a withdrawn player back: seated again from the next seating on."""
    with tournament_write(tournament_id=registration.tournament_id):
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.status != Registration.Status.WITHDRAWN:
            raise ValidationError(_("This player has not withdrawn."), code="not-withdrawn")
        registration.status, _first = _status_for(registration.first_session)
        registration.save(update_fields=["status"])
        return registration
