"""A tournament's past results brought into this installation from its ``records.zip``.

The archive another installation exported (:mod:`tournament.archive.export`) is read
(:func:`tournament.archive.reading.archive_read`), then :func:`past_results_import` rebuilds the tournament in one
transaction, through the services a live tournament goes through:

0. the archive's identity (:class:`tournament.archive.past.ArchiveIdentity`): an archive
   whose tournament is already here (the one it was exported from, or an earlier import of
   it, known by its installation and tournament, or by the digest of its matches; or any
   tournament here whose matches say what the archive's do, whatever the bytes, the names or
   the identity block: ``matches_content_digest``) is refused
   (``archive-already-here``, naming that tournament), unless a copy is asked for
   (``as_copy``): a copy is never rated (``Tournament.archive_copy``), or its matches would
   count twice;
1. the tournament, with the settings the manifest carries (a new slug when its own is taken,
   even by an import running at the same moment);
2. its players, linked to the records of the importer's own players only (those registered
   in a tournament the importer organises: ``tournament.players.selectors.
   players_by_licence`` and ``linkable_players``; every record for a superuser, or for the
   command without ``--organiser``): a licence given finds the player of that licence (a
   record merged into another resolves to the kept record); otherwise the player of exactly
   that name and club (a kept record, without another licence); otherwise a new player, as
   for every player of anyone else's (joining them is a merge, with its own rule). Each is
   registered;
3. each closed session: created with its seed and seating method, seated table by table as it
   was (``session_seat_players``), started, each match filled from its record and its rounds
   confirmed (``match_record_import_and_confirm``: the write path's record
   import, as the demo fills its matches), then closed. A match that does not come out
   confirmed with the archive's totals is refused;
4. each match's confirmation time (``Match.confirmed_at``, its place in the rating history)
   set to the original one, then the registrations' statuses (withdrawn, late arrivals);
5. the ratings refreshed from the earliest imported match (``ratings_refresh``), so that they
   come out as if the matches had been confirmed here (the tournament counts for ratings
   only from then on: the confirmations of step 3 rate nothing on the way). The import
   holds the ratings' turn from its first statement (``ratings_write``).

An archive without ``tournament.json`` (made before the manifest existed) is read from its
``index.csv`` and its records: the rule set and options from the records, the players by
their names alone (among the importer's own, a kept record of that exact name when there is
exactly one, otherwise a new player, without club or licence), the name and the start date
from the caller, and the
matches confirmed in session and table order from 9:00 on the start date (one hour per
session, one minute per table). docs/reference/record-format.md, "The tournament archive", has the
format.

Any error (a damaged ZIP, a manifest or a record that cannot be read, a match that does not
replay as archived) raises ``ValidationError`` keyed ``archive``, its message naming the entry
and the field; nothing is written.
"""

from __future__ import annotations

import datetime
from typing import BinaryIO

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.archive.export import matches_content_digest, tournament_records
from tournament.archive.past import (
    ArchiveIdentity,
    PastPlayer,
    PastResultsImported,
    PastSession,
    PastTable,
    PastTournament,
)
from tournament.archive.reading import FALLBACK_START, archive_read
from tournament.archive.unzip import archive_error
from tournament.core.permissions import can_view
from tournament.core.tournaments import tournament_create
from tournament.matches.services.records import match_record_import_and_confirm
from tournament.models import (
    ArchiveImport,
    Category,
    Installation,
    Match,
    Player,
    Registration,
    Session,
    Tournament,
    Turn,
)
from tournament.players.selectors import linkable_players, players_by_licence
from tournament.ratings.services import HistoryPoint, ratings_refresh, ratings_write
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_close, session_create, session_start

#: How many free addresses an import tries when others take them at the same moment.
SLUG_ATTEMPTS = 5


class ArchiveAlreadyHere(ValidationError):
    """The archive's tournament is here already: ``tournament`` is it, ``visible`` whether the
    importer may see it (otherwise it is not named)."""

    def __init__(self, tournament: Tournament, *, visible: bool) -> None:
        if visible:
            message = _("This archive's tournament is already here: “%(name)s”, "
                        "/t/%(slug)s/. Tick “import as a copy” to import it again (a copy "
                        "counts for no rating).") % {"name": tournament.name,
                                                     "slug": tournament.slug}
        else:
            message = _("This archive's tournament is already on this installation. Tick "
                        "“import as a copy” to import it again (a copy counts for no rating).")
        super().__init__({"archive": ValidationError(message, code="archive-already-here")})
        self.tournament = tournament if visible else None


def _categories_import(tournament: Tournament, past: PastTournament, *,
                       registrations: dict[int | str, Registration]) -> None:
    """The archive's categories and who carries each (names checked by the reading)."""
    if not past.categories:
        return
    made = {category.name.casefold(): category for category in Category.objects.bulk_create(
        Category(tournament=tournament, name=name) for name in past.categories)}
    Category.registrations.through.objects.bulk_create(
        Category.registrations.through(category_id=made[name.casefold()].pk,
                                       registration_id=registrations[player.key].pk)
        for player in past.players for name in player.categories
    )


def _free_slug(slug: str, name: str) -> str:
    base = (slugify(slug) or slugify(name) or "imported")[:50].strip("-") or "imported"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def _tournament_made(past: PastTournament, *, organiser) -> Tournament:
    """The tournament, under a free address: one taken meanwhile by another import (the
    insert refused) sends it to the next free one."""
    for _attempt in range(SLUG_ATTEMPTS):
        try:
            with transaction.atomic():
                return tournament_create(
                    name=past.name, slug=_free_slug(past.slug, past.name),
                    start_date=past.start_date, end_date=past.end_date, venue=past.venue,
                    rules=past.rules, target=past.target, match_rounds=past.match_rounds,
                    opening_bonus=past.opening_bonus, keep_clubs_apart=past.keep_clubs_apart,
                    organiser=organiser, final_size=past.final_size,
                )
        except ValidationError as error:
            if not (hasattr(error, "error_dict") and "slug" in error.error_dict):
                raise
    raise archive_error(_("No free address was found for the tournament: try again."),
                        "slug-unavailable")


def already_here(identity: ArchiveIdentity, *, match_count: int | None = None) -> Tournament | None:
    """The tournament of this installation that an archive of this identity is: the one it
    was exported from, an import of it that is not a copy (by its identity, or by the digest
    of its records' bytes or of what they say), or, given the archive's ``match_count``, a
    tournament whose matches say what the archive's do (:func:`_same_matches_here`); None
    when there is none. The identity block and the bytes are the archive's word; what its
    matches say is not: an archive whose identity was changed or left out, or whose records
    were indented again, is the same tournament."""
    if identity.installation and identity.tournament_id is not None \
            and identity.installation == Installation.identity():
        origin = Tournament.objects.filter(pk=identity.tournament_id).first()
        if origin is not None:
            return origin
    same = Q(matches_digest=identity.matches_digest)
    if identity.content_digest:
        same |= Q(matches_digest=identity.content_digest)
    if identity.installation and identity.tournament_id is not None:
        same |= Q(installation=identity.installation, source_tournament=identity.tournament_id)
    earlier = ArchiveImport.objects.filter(same, copy=False).select_related("tournament").first()
    if earlier is not None:
        return earlier.tournament
    if match_count and identity.content_digest:
        return _same_matches_here(identity.content_digest, match_count=match_count)
    return None


def _same_matches_here(content_digest: str, *, match_count: int) -> Tournament | None:
    """A tournament here, not a copy, whose matches say what an archive's do: those with as
    many matches played, their records read as the export writes them and compared by
    content (``matches_content_digest``). Finds a tournament made here (never imported), and
    one imported before the import kept the digest of its content."""
    has_turn = Turn.objects.current().filter(round__match=OuterRef("pk"))
    candidates = (
        Match.objects.filter(Exists(has_turn), table__session__tournament__archive_copy=False)
        .values_list("table__session__tournament").annotate(played=Count("pk"))
        .filter(played=match_count).order_by("table__session__tournament")
    )
    for tournament_id, _played in candidates:
        tournament = Tournament.objects.get(pk=tournament_id)
        if matches_content_digest(tournament_records(tournament=tournament)) == content_digest:
            return tournament
    return None


def _player_found(past: PastPlayer, *, by_name_only: bool, organiser) -> Player | None:
    """The player of this installation the archive's player is (see the module), or None."""
    if past.licence:
        player = players_by_licence([past.licence], user=organiser).get(past.licence)
        if player is not None:
            return player
    candidates = Player.objects.filter(name=past.name, merged_into__isnull=True).order_by("pk")
    linkable = linkable_players(user=organiser)
    if linkable is not None:
        candidates = candidates.filter(pk__in=linkable)
    if by_name_only:
        found = list(candidates[:2])
        return found[0] if len(found) == 1 else None
    candidates = candidates.filter(club=past.club)
    if past.licence:
        candidates = candidates.filter(licence="")
    return candidates.first()


def _match_import(match: Match, record: bytes, *, entry: str):
    """Fill the match from its record and confirm its rounds, as its referee would. The
    seated players are the archive's by construction: their names here may be spelled
    otherwise, so the record's names need not match."""
    try:
        replay = match_record_import_and_confirm(match=match, user=None, record=record,
                                                 names_must_match=False)
    except ValidationError as error:
        # the refusal's own codes (the engine's problem code for a rack that cannot have
        # happened) stay readable beside the archive's
        inner = (error.error_list if not hasattr(error, "error_dict")
                 else [e for errors in error.error_dict.values() for e in errors])
        reasons = ",".join(sorted({e.code or "" for e in inner}))
        raise ValidationError({"archive": ValidationError(
            _("%(entry)s: %(detail)s") % {"entry": entry, "detail": " ".join(error.messages)},
            code="record-refused", params={"entry": entry, "reasons": reasons})}) from None
    return replay


def _fallback_time(start_date: datetime.date, session: int, table: int) -> datetime.datetime:
    try:
        moment = datetime.datetime.combine(start_date, FALLBACK_START) + datetime.timedelta(
            hours=session - 1, minutes=table - 1)
        return timezone.make_aware(moment)
    except OverflowError:
        raise archive_error(_("The start date is too late for the matches' times: give "
                              "another one."), "start-date-range") from None


def past_results_import(*, data: bytes | BinaryIO, organiser=None, name: str = "",
                        fallback_name: str = "", start_date: datetime.date | None = None,
                        as_copy: bool = False) -> PastResultsImported:
    """Rebuild the tournament of a ``records.zip`` here (see the module); ``organiser`` (a
    user) becomes its organiser, and its players are linked to theirs only. ``data``: the
    archive's bytes or a file open on them. ``name``: the tournament's name instead of the
    archive's; ``fallback_name`` and ``start_date`` name and date the tournament of an archive
    without a manifest. ``as_copy``: import an archive whose tournament is already here,
    as a copy that counts for no rating. Errors keyed ``archive``; nothing is written
    then."""
    past = archive_read(data, name=name, fallback_name=fallback_name, start_date=start_date)
    try:
        # its confirmations and its end move the ratings: their turn first (ratings_write)
        return ratings_write(
            lambda: _past_tournament_import(past, organiser=organiser, as_copy=as_copy))
    except _SameArchiveMeanwhile:
        # Another import of the same archive was saved while this one ran.
        found = already_here(past.identity, match_count=len(past.records))
        if found is None:
            raise
        raise ArchiveAlreadyHere(found, visible=_visible(found, organiser)) from None


class _SameArchiveMeanwhile(Exception):
    """The database refused the import's identity: the same archive was imported meanwhile."""


def _visible(tournament: Tournament, user) -> bool:
    return user is None or can_view(user, tournament)


@transaction.atomic
def _past_tournament_import(past: PastTournament, *, organiser,
                            as_copy: bool) -> PastResultsImported:
    found_here = already_here(past.identity, match_count=len(past.records))
    copy = found_here is not None
    if copy and not as_copy:
        raise ArchiveAlreadyHere(found_here, visible=_visible(found_here, organiser))
    tournament = _tournament_made(past, organiser=organiser)
    if past.ranking_criteria is not None:
        tournament.ranking_criteria = list(past.ranking_criteria)
    tournament.is_rated = False  # until the confirmation times are the archive's (step 5)
    tournament.archive_copy = copy
    tournament.team_size, tournament.team_criterion, tournament.prize_count = (
        past.team_size, past.team_criterion, past.prize_count)
    tournament.prize_one_per_player = past.prize_one_per_player
    tournament.full_clean()
    tournament.save(update_fields=["ranking_criteria", "is_rated", "archive_copy", "team_size",
                                   "team_criterion", "prize_count", "prize_one_per_player"])
    try:
        with transaction.atomic():
            ArchiveImport.objects.create(
                tournament=tournament, installation=past.identity.installation,
                source_tournament=past.identity.tournament_id,
                # what its matches say, not their bytes: the database holds one import of
                # a tournament's matches that is not a copy, however its archive was written
                matches_digest=past.identity.content_digest or past.identity.matches_digest,
                copy=copy,
                imported_by=organiser,
            )
    except IntegrityError:
        raise _SameArchiveMeanwhile from None

    players: dict[int | str, Player] = {}
    linked: list[str] = []
    to_create: list[tuple[PastPlayer, Player]] = []
    for past_player in past.players:
        player = _player_found(past_player, by_name_only=not past.has_manifest,
                               organiser=organiser)
        if player is None:
            player = Player(name=past_player.name, club=past_player.club,
                            licence=past_player.licence)
            try:
                player.full_clean()
            except ValidationError as error:
                raise archive_error(
                    _("Player %(name)s: %(detail)s")
                    % {"name": past_player.name, "detail": " ".join(error.messages)},
                    "player-refused") from None
            to_create.append((past_player, player))
        else:
            linked.append(player.name)
        players[past_player.key] = player
    Player.objects.bulk_create([player for _past, player in to_create])
    by_player: dict[int, PastPlayer] = {}
    for past_player in past.players:
        player = players[past_player.key]
        if player.pk in by_player:
            raise archive_error(
                _("%(a)s and %(b)s of the archive are one player here (%(player)s).")
                % {"a": by_player[player.pk].name, "b": past_player.name, "player": player},
                "players-merged")
        by_player[player.pk] = past_player
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player) for player in players.values())
    _categories_import(tournament, past, registrations=dict(zip(players, registrations,
                                                                  strict=True)))

    imported: list[tuple[Match, PastSession, PastTable]] = []
    for past_session in past.sessions:
        session = session_create(tournament=tournament, seed=past_session.seed)
        Session.objects.filter(pk=session.pk).update(seating=past_session.seating,
                                                     is_final=past_session.is_final)
        try:
            session_seat_players(session=session, tables=[
                [players[key] for key in table.players] for table in past_session.tables])
        except ValidationError as error:
            raise archive_error(
                _("Session %(number)s: %(detail)s")
                % {"number": past_session.number, "detail": " ".join(error.messages)},
                "seating-refused") from None
        session = session_start(session=session)
        matches = list(Match.objects.filter(table__session=session).order_by("table__number"))
        for match, table in zip(matches, past_session.tables, strict=True):
            replay = _match_import(match, past.records[table.entry], entry=table.entry)
            match.refresh_from_db()
            if match.status != Match.Status.CONFIRMED or (
                    table.totals is not None and list(replay.totals) != list(table.totals)):
                # the engine's problems, as ``python -m scoring check`` lists them, say why
                problems = sorted({p.code for r in replay.rounds
                                   for p in [*r.problems, *(q for t in r.turns
                                                            for q in t.problems)]})
                raise ValidationError({"archive": ValidationError(
                    _("%(entry)s: the record does not replay as the archive says (totals "
                      "%(totals)s, status %(status)s).")
                    % {"entry": table.entry, "status": match.status,
                       "totals": ", ".join(map(str, replay.totals))},
                    code="record-differs",
                    params={"entry": table.entry, "problems": ",".join(problems)})})
            imported.append((match, past_session, table))
        session_close(session=session)

    for match, past_session, table in imported:
        match.confirmed_at = table.confirmed_at or _fallback_time(
            past.start_date, past_session.number, table.number)
        match.finished_at = match.confirmed_at
    Match.objects.bulk_update([match for match, _s, _t in imported],
                              ["confirmed_at", "finished_at"])
    for past_player in past.players:
        if past_player.status not in (None, Registration.Status.ACTIVE) \
                or past_player.first_session is not None:
            Registration.objects.filter(tournament=tournament,
                                        player=players[past_player.key]).update(
                status=past_player.status or Registration.Status.ACTIVE,
                first_session=past_player.first_session)
    if past.check_in != tournament.check_in:  # once seated: the seats say who was absent
        tournament.check_in = past.check_in
        tournament.save(update_fields=["check_in"])
    if past.is_rated and not copy:
        tournament.is_rated = True
        tournament.save(update_fields=["is_rated"])
        ratings_refresh(since=HistoryPoint.first_of(
            Match.objects.filter(pk__in=[match.pk for match, _s, _t in imported])))
    return PastResultsImported(
        tournament=tournament, players_created=len(to_create), players_linked=tuple(linked),
        sessions=len(past.sessions), matches=len(imported), copy=copy)
