"""The organiser's writes: the tournament's settings, its players, its sessions' lifecycle.

Every service runs inside ``transaction.atomic()``, takes keyword arguments only and raises
``ValidationError`` with a translated message (keyed by the form field it concerns, where one
does) when the change is refused; a refused change writes nothing.

A session goes draft (``session_open``) -> seated (``tournament.seating.services.
session_seat``; drawn again or swapped while it has not started) -> in play
(``session_start``) -> finished (``session_close``, once every match is confirmed); a
finished session may be reopened with a reason (``session_reopen``: in play again, to correct
a match) and closed again.

Players added once session 1 is seated are late arrivals: seated from the next session that
is not seated yet. A withdrawn player is not seated from the next seating on; their matches
stay in the standings.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core import freshness
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.models import Player, Registration, Seat, Session, Tournament
from tournament.players.selectors import players_by_licence
from tournament.ratings import services as ratings
from tournament.ratings.services import ratings_tournament_rated_changed
from tournament.sessions.services import next_session_to_seat
from tournament.validators import MAX_SESSION_NUMBER

# The first cell of a header line (any case), in the languages of the tool.
CSV_HEADER_NAMES = {"name", "nom", "player", "joueur", "joueuse", "nom du joueur"}
CSV_COLUMNS = 3  # name, club, licence
CSV_MAX_LINES = 5000


# --- the tournament ---------------------------------------------------------------------------


@transaction.atomic
def tournament_set_up(
    *,
    organiser,
    name: str,
    slug: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
    rules: str,
    target: int | None = None,
    match_rounds: int | None = None,
    opening_bonus: bool = True,
    ranking_criteria: Sequence[str],
    keep_clubs_apart: bool = False,
    is_public: bool = True,
    is_rated: bool = True,
) -> Tournament:
    """Create a tournament with its settings; ``organiser`` becomes its organiser."""
    tournament = tournament_create(
        name=name, slug=slug, start_date=start_date, end_date=end_date, venue=venue,
        rules=rules, target=target, match_rounds=match_rounds, opening_bonus=opening_bonus,
        is_public=is_public, keep_clubs_apart=keep_clubs_apart,
    )
    tournament.ranking_criteria = list(ranking_criteria)
    tournament.is_rated = is_rated
    tournament.full_clean()
    tournament.save(update_fields=["ranking_criteria", "is_rated"])
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    return tournament


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None,
    venue: str,
    rules: str,
    target: int | None,
    ranking_criteria: Sequence[str],
    keep_clubs_apart: bool,
    is_public: bool,
    match_rounds: int | None = None,
    opening_bonus: bool = True,
    is_rated: bool | None = None,
) -> Tournament:
    """Change the settings. The rule set, the target and the match options (rounds per
    match, opening bonus) are fixed once a session has started; the ranking criteria may
    change at any time (the standings follow). ``is_rated`` (None: unchanged) may change at
    any time too: the ratings are refreshed from the tournament's first confirmed match."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    started = tournament.sessions.filter(
        status__in=[Session.Status.PLAYING, Session.Status.FINISHED]
    ).exists()
    if started:
        errors = {}
        if rules != tournament.rules:
            errors["rules"] = ValidationError(
                _("A session has started: the rule set can no longer change."), code="started")
        if target != tournament.target:
            errors["target"] = ValidationError(
                _("A session has started: the target can no longer change."), code="started")
        if match_rounds != tournament.match_rounds:
            errors["match_rounds"] = ValidationError(
                _("A session has started: the rounds per match can no longer change."),
                code="started")
        if opening_bonus != tournament.opening_bonus:
            errors["opening_bonus"] = ValidationError(
                _("A session has started: the opening bonus can no longer change."),
                code="started")
        if errors:
            raise ValidationError(errors)
    tournament.name = name
    tournament.start_date = start_date
    tournament.end_date = end_date
    tournament.venue = venue
    tournament.rules = rules
    tournament.target = target
    tournament.match_rounds = match_rounds
    tournament.opening_bonus = opening_bonus
    tournament.ranking_criteria = list(ranking_criteria)
    tournament.keep_clubs_apart = keep_clubs_apart
    tournament.is_public = is_public
    rated_changed = is_rated is not None and is_rated != tournament.is_rated
    if is_rated is not None:
        tournament.is_rated = is_rated
    tournament.full_clean()
    tournament.save()
    if rated_changed:
        ratings_tournament_rated_changed(tournament)
    freshness.touch(tournament_id=tournament.pk)
    return tournament


# --- players ----------------------------------------------------------------------------------


def _session_too_high() -> ValidationError:
    return ValidationError(
        _("Sessions are numbered up to %(max)s.") % {"max": MAX_SESSION_NUMBER},
        code="session-max",
    )


def _status_for(first_session: int | None) -> tuple[str, int | None]:
    if first_session is not None and first_session > 1:
        return Registration.Status.LATE, first_session
    return Registration.Status.ACTIVE, None


@dataclass(frozen=True)
class PlayerLine:
    """A player to enter: from a CSV line (``line`` its number) or from the form (line 0)."""

    line: int
    name: str
    club: str = ""
    licence: str = ""


class _PlayerChecks:
    """The checks shared by one player and a whole file, against the tournament's players."""

    def __init__(self, tournament: Tournament, lines: Sequence[PlayerLine]) -> None:
        self.registered = list(tournament.registrations.values_list(
            "player__name", "player__club", "player__licence", "player_id"
        ))
        self.registered_licences = {licence for _n, _c, licence, _i in self.registered if licence}
        self.registered_names = {
            (name.casefold(), club.casefold()) for name, club, _l, _i in self.registered
        }
        self.registered_ids = {player_id for _n, _c, _l, player_id in self.registered}
        # A licence of a merged record leads to the record kept (tournament/players/).
        self.players_by_licence = players_by_licence(line.licence for line in lines)
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

    def player_for(self, line: PlayerLine) -> Player | None:
        """The existing player of this licence, reused rather than created twice."""
        return self.players_by_licence.get(line.licence) if line.licence else None


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
    freshness.touch(tournament_id=tournament.pk)
    return registrations


@transaction.atomic
def player_add(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    licence: str = "",
    first_session: int | None = None,
) -> Registration:
    """Register one player. Once session 1 is seated, a late arrival: seated from
    ``first_session`` (by default the next session not seated yet)."""
    line = PlayerLine(0, name.strip(), club.strip(), licence.strip())
    checks = _PlayerChecks(tournament, [line])
    problems = checks.problems(line)
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


#: The separators a spreadsheet saves a CSV with, preferred in this order on a tie.
CSV_SEPARATORS = (";", "\t", ",")
#: How many non-blank lines the separator is guessed from.
CSV_SAMPLE_LINES = 50
#: How many bad lines a refusal lists (then a count of the others): a broken file of 100,000
#: lines must not make a page of megabytes.
CSV_MAX_ERRORS = 100


def _cell_count(line: str, separator: str) -> int:
    """How many cells ``line`` has with this separator (quotes respected), 0 if unreadable."""
    try:
        rows = list(csv.reader([line], delimiter=separator, strict=True))
    except csv.Error:
        return 0
    return len(rows[0]) if rows else 0


def csv_separator(lines: Sequence[str]) -> str:
    """The separator of a CSV: among ``;``, tab and ``,``, the one that splits the most of its
    first non-blank lines (a sample), not the first line alone, so that a one-column header
    (``nom``) does not hide the ``;`` of the lines below it. ``,`` when none splits a line.

    >>> csv_separator(["nom", "Bob;Club B;L-77", "Ana;Club A"])
    ';'
    >>> csv_separator(["Ana", "Bo"])
    ','
    """
    sample = [line for line in lines if line.strip()][:CSV_SAMPLE_LINES]
    splits = {
        separator: sum(1 for line in sample if _cell_count(line, separator) > 1)
        for separator in CSV_SEPARATORS
    }
    best = max(CSV_SEPARATORS, key=lambda separator: splits[separator])  # first on a tie
    return best if splits[best] else ","


def _csv_read(text: str) -> tuple[list[PlayerLine], list[tuple[int, str, str]]]:
    """The lines of a CSV of players, and the (line number, message, code) of those that
    cannot be read."""
    text = text.lstrip("\ufeff")
    physical_lines = text.splitlines(keepends=True)
    delimiter = csv_separator(physical_lines)
    others = [separator for separator in CSV_SEPARATORS if separator != delimiter]
    reader = csv.reader(physical_lines, delimiter=delimiter, strict=True)
    lines: list[PlayerLine] = []
    errors: list[tuple[int, str, str]] = []
    first_row = True
    try:
        for row in reader:
            cells = [cell.strip() for cell in row]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            if first_row and cells[0].casefold() in CSV_HEADER_NAMES:
                first_row = False
                continue
            first_row = False
            if any("\n" in cell or "\r" in cell for cell in cells):
                errors.append((reader.line_num, _("a cell runs over several lines."),
                               "csv-multiline"))
                continue
            raw = physical_lines[reader.line_num - 1]  # the record is this one line
            if len(row) == 1 and (
                other := next((sep for sep in others if _cell_count(raw, sep) > 1), None)
            ):
                errors.append((
                    reader.line_num,
                    _("separated by “%(other)s” while the file’s other lines use “%(used)s”: "
                      "use one separator throughout.")
                    % {"other": _separator_name(other), "used": _separator_name(delimiter)},
                    "csv-separator",
                ))
                continue
            if len(cells) > CSV_COLUMNS:
                errors.append((
                    reader.line_num,
                    _("%(count)s columns, expected at most 3: name, club, licence.")
                    % {"count": len(cells)},
                    "csv-columns",
                ))
                continue
            cells += [""] * (CSV_COLUMNS - len(cells))
            lines.append(PlayerLine(reader.line_num, *cells))
            if len(lines) > CSV_MAX_LINES:
                raise ValidationError(
                    _("The file has more than %(max)s players.") % {"max": CSV_MAX_LINES},
                    code="csv-too-many",
                )
    except csv.Error as error:
        if "end of data" in str(error):
            reason = _("a quotation mark is never closed.")
        elif "expected after" in str(error):
            reason = _("text follows a closing quotation mark: put the whole cell in quotes.")
        else:
            reason = _("it cannot be read as CSV (%(error)s).") % {"error": error}
        errors.append((reader.line_num, reason, "csv-quote"))
    return lines, errors


def _separator_name(separator: str) -> str:
    return _("tab") if separator == "\t" else separator


def _line_errors(errors: list[tuple[int, str, str]]) -> list[ValidationError]:
    """The bad lines in order, each with its number: the first ``CSV_MAX_ERRORS``, then how
    many more there are."""
    errors = sorted(errors, key=lambda error: error[0])
    listed = [
        ValidationError(_("Line %(line)s: %(reason)s"), code=code,
                        params={"line": line, "reason": message})
        for line, message, code in errors[:CSV_MAX_ERRORS]
    ]
    if len(errors) > CSV_MAX_ERRORS:
        more = len(errors) - CSV_MAX_ERRORS
        listed.append(ValidationError(
            _("Bad lines not listed: %(count)s."), code="csv-more-errors", params={"count": more},
        ))
    return listed


def players_csv_lines(text: str) -> list[PlayerLine]:
    """Read a CSV of players: name, club, licence (club and licence may be left out).

    The separator is sniffed on a sample of lines (``csv_separator``: ``;``, tab or ``,``);
    a line separated by another one is refused; a first line whose
    first cell is a column name (name, nom, ...) is a header; blank lines are skipped. Raises
    ``ValidationError`` listing every line that cannot be read, with its number.

    >>> [line.name for line in players_csv_lines("nom;club\\nAnaïs Morel;Perpignan\\n\\nBo;")]
    ['Anaïs Morel', 'Bo']
    """
    lines, errors = _csv_read(text)
    if errors:
        raise ValidationError(_line_errors(errors))
    return lines


@transaction.atomic
def players_import_csv(*, tournament: Tournament, text: str) -> list[Registration]:
    """Register every player of a CSV file (see ``players_csv_lines``), or none.

    A file with a bad line imports nothing: the ``ValidationError`` lists every bad line with
    its number and the reason. Once session 1 is seated, the players are late arrivals.
    """
    lines, errors = _csv_read(text)
    if not lines and not errors:
        raise ValidationError(_("The file has no player in it."), code="csv-empty")
    checks = _PlayerChecks(tournament, lines)
    for line in lines:
        errors.extend(
            (line.line, error.message, error.code) for error in checks.problems(line).values()
        )
    if errors:
        raise ValidationError(_line_errors(errors))
    return _registrations_create(
        tournament=tournament, lines=lines, checks=checks,
        first_session=next_session_to_seat(tournament=tournament),
    )


@transaction.atomic
def registration_update(
    *,
    registration: Registration,
    name: str,
    club: str = "",
    licence: str = "",
    first_session: int | None = None,
) -> Registration:
    """Correct a player's name, club or licence, or the session a late arrival starts from."""
    registration = Registration.objects.select_for_update().select_related("player").get(
        pk=registration.pk
    )
    player = registration.player
    player.name, player.club, player.licence = name.strip(), club.strip(), licence.strip()
    try:
        player.full_clean()
    except ValidationError as error:
        raise ValidationError(error.message_dict) from error
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
    player.save()
    status, registration.first_session = _status_for(first_session)
    if registration.status != Registration.Status.WITHDRAWN:
        registration.status = status
    registration.full_clean()
    registration.save()
    # The player's name shows in every tournament they are registered in.
    for tournament_id in Registration.objects.filter(player=player).values_list(
        "tournament_id", flat=True
    ):
        freshness.touch(tournament_id=tournament_id)
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration) -> Registration:
    """Withdraw a player: not seated from the next seating on; their matches still count."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("This player has already withdrawn."), code="withdrawn")
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    freshness.touch(tournament_id=registration.tournament_id)
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration) -> Registration:
    """Bring a withdrawn player back: seated again from the next seating on."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status != Registration.Status.WITHDRAWN:
        raise ValidationError(_("This player has not withdrawn."), code="not-withdrawn")
    registration.status, _first = _status_for(registration.first_session)
    registration.save(update_fields=["status"])
    freshness.touch(tournament_id=registration.tournament_id)
    return registration


# --- sessions ---------------------------------------------------------------------------------


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
