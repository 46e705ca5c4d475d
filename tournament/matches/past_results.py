"""A tournament's past results brought into this installation from its ``records.zip``.

The archive another installation exported (:mod:`tournament.matches.archive`) is read
(:func:`archive_read`), then :func:`past_results_import` rebuilds the tournament in one
transaction, through the services a live tournament goes through:

1. the tournament, with the settings the manifest carries (a new slug when its own is taken);
2. its players: a licence given finds the player of that licence (a record merged into
   another resolves to the kept record); otherwise the player of exactly that name and club
   (a kept record, without another licence); otherwise a new player. Each is registered;
3. each closed session: created with its seed and seating method, seated table by table as it
   was (``session_seat_players``), started, each match filled from its record and its rounds
   confirmed (``match_record_import_and_confirm``: the write path's record
   import, as the demo fills its matches), then closed. A match that does not come out
   confirmed with the archive's totals is refused;
4. each match's confirmation time (``Match.confirmed_at``, its place in the rating history)
   set to the original one, then the registrations' statuses (withdrawn, late arrivals);
5. the ratings refreshed from the earliest imported match (``ratings_refresh``), so that they
   come out as if the matches had been confirmed here (the tournament counts for ratings
   only from then on: the confirmations of step 3 rate nothing on the way).

An archive without ``tournament.json`` (made before the manifest existed) is read from its
``index.csv`` and its records: the rule set and options from the records, the players by
their names alone (a kept record of that exact name when there is exactly one, otherwise a
new player, without club or licence), the name and the start date from the caller, and the
matches confirmed in session and table order from 9:00 on the start date (one hour per
session, one minute per table). docs/record-format.md, "The tournament archive", has the
format.

Any error (a damaged ZIP, a manifest or a record that cannot be read, a match that does not
replay as archived) raises ``ValidationError`` keyed ``archive``, its message naming the entry
and the field; nothing is written.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament import engine
from tournament.core.tournaments import tournament_create
from tournament.matches.archive import INDEX_HEADER, INDEX_NAME, MANIFEST_FORMAT, MANIFEST_NAME
from tournament.matches.services.records import match_record_import_and_confirm
from tournament.models import Match, Player, Registration, SeatingMethod, Session, Tournament
from tournament.ratings.services import HistoryPoint, ratings_refresh
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_close, session_create, session_start

#: An archive is refused past this many bytes once unpacked, or this many entries.
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
MAX_ENTRIES = 20_000
#: Without confirmation times: session 1's first match at 9:00 on the start date.
FALLBACK_START = datetime.time(9, 0)


def archive_error(message: str, code: str = "archive") -> ValidationError:
    return ValidationError({"archive": ValidationError(message, code=code)})


@dataclass(frozen=True)
class PastPlayer:
    """A player of the archive: ``key`` is their id in the archive (their name in an old one)."""

    key: int | str
    name: str
    club: str = ""
    licence: str = ""
    status: str | None = Registration.Status.ACTIVE
    first_session: int | None = None


@dataclass(frozen=True)
class PastTable:
    number: int
    players: tuple[int | str, ...]
    entry: str
    confirmed_at: datetime.datetime | None
    totals: tuple[int, ...] | None


@dataclass(frozen=True)
class PastSession:
    number: int
    seed: int
    seating: str
    tables: tuple[PastTable, ...]


@dataclass
class PastTournament:
    """What an archive holds, read and checked, before anything is written."""

    name: str
    slug: str
    start_date: datetime.date
    end_date: datetime.date | None = None
    venue: str = ""
    rules: str = engine.DEFAULT_RULE_SET
    target: int | None = None
    opening_bonus: bool = True
    match_rounds: int | None = None
    ranking_criteria: list[str] | None = None
    keep_clubs_apart: bool = False
    is_rated: bool = True
    players: list[PastPlayer] = field(default_factory=list)
    sessions: list[PastSession] = field(default_factory=list)
    records: dict[str, bytes] = field(default_factory=dict)
    has_manifest: bool = True


@dataclass(frozen=True)
class PastResultsImported:
    tournament: Tournament
    players_created: int
    players_found: int
    sessions: int
    matches: int


# --- reading ----------------------------------------------------------------------------------


class _Fields:
    """Typed reads from the manifest, each error naming the field by its path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, expected: str) -> ValidationError:
        return archive_error(
            _("%(source)s: %(path)s: expected %(expected)s.")
            % {"source": self.source, "path": path, "expected": expected},
            "manifest-field",
        )

    def get(self, obj: Any, key: str, path: str, kind: type | tuple, *, optional=False,
            default=None):
        if not isinstance(obj, dict):
            raise self.fail(path, _("an object"))
        where = f"{path}.{key}" if path else key
        if key not in obj or obj[key] is None:
            if optional:
                return default
            raise self.fail(where, _("a value"))
        value = obj[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(where, _("a value of another type"))
        if not isinstance(value, kinds):
            raise self.fail(where, _("a value of another type"))
        return value

    def date(self, obj, key, path, *, optional=False) -> datetime.date | None:
        value = self.get(obj, key, path, str, optional=optional)
        if value is None:
            return None
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise self.fail(f"{path}.{key}" if path else key, _("a date (YYYY-MM-DD)")) from None

    def moment(self, obj, key, path) -> datetime.datetime | None:
        value = self.get(obj, key, path, str, optional=True)
        if value is None:
            return None
        try:
            moment = datetime.datetime.fromisoformat(value)
        except ValueError:
            raise self.fail(f"{path}.{key}", _("a date and time (ISO 8601)")) from None
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, datetime.UTC)
        return moment


def _zip_open(data: bytes) -> tuple[zipfile.ZipFile, dict[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES or sum(info.file_size for info in infos) > MAX_UNPACKED_BYTES:
            raise archive_error(_("This archive is too large to import."), "archive-too-large")
        entries = {info.filename: archive.read(info) for info in infos if not info.is_dir()}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
            NotImplementedError, ValueError):
        raise archive_error(
            _("This file is not a readable ZIP archive of match records (records.zip)."),
            "archive-unreadable") from None
    return archive, entries


def archive_read(data: bytes, *, name: str = "", fallback_name: str = "",
                 start_date: datetime.date | None = None) -> PastTournament:
    """The tournament an archive holds (see the module), checked; nothing is written.
    ``name``: the tournament's name instead of the archive's. ``fallback_name`` and
    ``start_date``: for an archive without a manifest, which has neither."""
    _archive, entries = _zip_open(data)
    if MANIFEST_NAME in entries:
        past = _manifest_read(entries)
        if name:
            past.name = name
    elif INDEX_NAME in entries:
        past = _index_read(entries, name=name or fallback_name, start_date=start_date)
    else:
        raise archive_error(
            _("This ZIP archive is not a tournament's records.zip: it has neither %(manifest)s "
              "nor %(index)s.") % {"manifest": MANIFEST_NAME, "index": INDEX_NAME},
            "archive-not-records")
    past.records = {table.entry: entries[table.entry]
                    for session in past.sessions for table in session.tables}
    if not past.sessions:
        raise archive_error(_("This archive holds no closed session: there is nothing to "
                              "import."), "nothing-to-import")
    return past


def _manifest_read(entries: dict[str, bytes]) -> PastTournament:
    read = _Fields(MANIFEST_NAME)
    try:
        manifest = json.loads(entries[MANIFEST_NAME].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise archive_error(_("%(source)s is not readable JSON.") % {"source": MANIFEST_NAME},
                            "manifest-unreadable") from None
    version = read.get(manifest, "format", "", str)
    if version != MANIFEST_FORMAT:
        raise archive_error(
            _("%(source)s is in the format “%(format)s”; this installation reads “%(known)s”.")
            % {"source": MANIFEST_NAME, "format": version, "known": MANIFEST_FORMAT},
            "manifest-format")
    meta = read.get(manifest, "tournament", "", dict)
    path = "tournament"
    criteria = read.get(meta, "ranking_criteria", path, list, optional=True)
    past = PastTournament(
        name=read.get(meta, "name", path, str),
        slug=read.get(meta, "slug", path, str, optional=True, default=""),
        start_date=read.date(meta, "start_date", path),
        end_date=read.date(meta, "end_date", path, optional=True),
        venue=read.get(meta, "venue", path, str, optional=True, default=""),
        rules=read.get(meta, "rules", path, str, optional=True, default=engine.DEFAULT_RULE_SET),
        target=read.get(meta, "target", path, int, optional=True),
        opening_bonus=read.get(meta, "opening_bonus", path, bool, optional=True, default=True),
        match_rounds=read.get(meta, "match_rounds", path, int, optional=True),
        ranking_criteria=criteria,
        keep_clubs_apart=read.get(meta, "keep_clubs_apart", path, bool, optional=True,
                                  default=False),
        is_rated=read.get(meta, "is_rated", path, bool, optional=True, default=True),
    )
    statuses = set(Registration.Status.values)
    for index, item in enumerate(read.get(manifest, "players", "", list)):
        path = f"players[{index}]"
        status = read.get(item, "status", path, str, optional=True)
        if status is not None and status not in statuses:
            raise read.fail(f"{path}.status", " | ".join(sorted(statuses)))
        past.players.append(PastPlayer(
            key=read.get(item, "id", path, int),
            name=read.get(item, "name", path, str).strip(),
            club=read.get(item, "club", path, str, optional=True, default="").strip(),
            licence=read.get(item, "licence", path, str, optional=True, default="").strip(),
            status=status,
            first_session=read.get(item, "first_session", path, int, optional=True),
        ))
    keys = {player.key for player in past.players}
    licences = [player.licence for player in past.players if player.licence]
    if len(keys) != len(past.players) or len(set(licences)) != len(licences):
        raise read.fail("players", _("each player once (one id, one licence each)"))
    for index, item in enumerate(read.get(manifest, "sessions", "", list)):
        path = f"sessions[{index}]"
        number = read.get(item, "number", path, int)
        status = read.get(item, "status", path, str)
        seating = read.get(item, "seating", path, str, optional=True,
                           default=SeatingMethod.RANDOM)
        if seating not in SeatingMethod.values:
            raise read.fail(f"{path}.seating", " | ".join(SeatingMethod.values))
        raw_tables = read.get(item, "tables", path, list)
        if not raw_tables:
            continue  # opened, never seated
        if status != Session.Status.FINISHED:
            raise archive_error(
                _("Session %(number)s is not closed in this archive (%(status)s): only a "
                  "tournament's closed sessions can be imported.")
                % {"number": number, "status": status}, "session-not-closed")
        tables = []
        for table_index, table in enumerate(raw_tables):
            where = f"{path}.tables[{table_index}]"
            players = tuple(read.get(table, "players", where, list))
            if any(not isinstance(key, int) or key not in keys for key in players):
                raise read.fail(f"{where}.players", _("ids of the players listed"))
            match = read.get(table, "match", where, dict)
            entry = read.get(match, "entry", f"{where}.match", str, optional=True)
            table_number = read.get(table, "number", where, int)
            if read.get(match, "status", f"{where}.match", str) != Match.Status.CONFIRMED \
                    or entry is None or entry not in entries:
                raise archive_error(
                    _("Session %(number)s, table %(table)s: the archive holds no confirmed "
                      "match record for it.") % {"number": number, "table": table_number},
                    "match-not-confirmed")
            totals = read.get(match, "totals", f"{where}.match", list, optional=True)
            tables.append(PastTable(
                number=table_number,
                players=players,
                entry=entry,
                confirmed_at=read.moment(match, "confirmed_at", f"{where}.match"),
                totals=tuple(totals) if totals else None,
            ))
        past.sessions.append(PastSession(
            number=number, seed=read.get(item, "seed", path, int, optional=True, default=0),
            seating=seating, tables=tuple(tables)))
    return past


def _index_read(entries: dict[str, bytes], *, name: str, start_date: datetime.date | None
                ) -> PastTournament:
    """An archive made before the manifest: its index and its records (see the module)."""
    try:
        rows = list(csv.reader(io.StringIO(entries[INDEX_NAME].decode("utf-8"))))
    except (UnicodeDecodeError, csv.Error):
        raise archive_error(_("%(source)s is not readable.") % {"source": INDEX_NAME},
                            "index-unreadable") from None
    if not rows or tuple(rows[0]) != INDEX_HEADER:
        raise archive_error(_("%(source)s does not start with the archive's header line.")
                            % {"source": INDEX_NAME}, "index-unreadable")
    past = PastTournament(name=name or _("Imported results"), slug="",
                          start_date=start_date or timezone.localdate(), has_manifest=False)
    sessions: dict[int, list[PastTable]] = {}
    first_record = None
    for line, row in enumerate(rows[1:], start=2):
        try:
            session, table, match, status = int(row[0]), int(row[1]), int(row[2]), row[3]
        except (IndexError, ValueError):
            raise archive_error(_("%(source)s, line %(line)s: not an archive's line.")
                                % {"source": INDEX_NAME, "line": line}, "index-unreadable") from None
        entry = f"session-{session:02d}/table-{table:02d}-match-{match}.json"
        if status != Match.Status.CONFIRMED or entry not in entries:
            raise archive_error(
                _("Session %(number)s, table %(table)s: the archive holds no confirmed match "
                  "record for it.") % {"number": session, "table": table},
                "match-not-confirmed")
        record = _record_read(entries[entry], entry)
        first_record = first_record or record
        sessions.setdefault(session, []).append(PastTable(
            number=table, players=tuple(record.players), entry=entry, confirmed_at=None,
            totals=None))
    if first_record is not None:
        past.rules = first_record.rules_name
        default_target = engine.rule_set(first_record.rules_name).target
        past.target = None if first_record.rules.target == default_target \
            else first_record.rules.target
        past.opening_bonus = first_record.opening_bonus
        past.match_rounds = first_record.round_limit
    names = sorted({name for tables in sessions.values() for table in tables
                    for name in table.players})
    past.players = [PastPlayer(key=name, name=name) for name in names]
    past.sessions = [PastSession(number=number, seed=0, seating=SeatingMethod.RANDOM,
                                 tables=tuple(sorted(tables, key=lambda table: table.number)))
                     for number, tables in sorted(sessions.items())]
    return past


def _record_read(data: bytes, entry: str) -> engine.MatchRecord:
    try:
        return engine.load_record(data)
    except engine.RecordError as error:
        raise archive_error(
            _("%(entry)s is not a readable match record: %(detail)s")
            % {"entry": entry, "detail": engine.record_error_message(error)},
            "record-unreadable") from None
    except (TypeError, ValueError, OverflowError, RecursionError):
        raise archive_error(
            _("%(entry)s is not a readable match record: a value has the wrong type or is too "
              "large.") % {"entry": entry}, "record-unreadable") from None


# --- writing ----------------------------------------------------------------------------------


def _free_slug(slug: str, name: str) -> str:
    base = (slugify(slug) or slugify(name) or "imported")[:50].strip("-") or "imported"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def _player_found(past: PastPlayer, *, by_name_only: bool) -> Player | None:
    """The player of this installation the archive's player is (see the module), or None."""
    if past.licence:
        player = Player.objects.filter(licence=past.licence).select_related("merged_into").first()
        if player is not None:
            seen = {player.pk}
            while player.merged_into_id is not None and player.merged_into_id not in seen:
                player = Player.objects.get(pk=player.merged_into_id)
                seen.add(player.pk)
            return player
    candidates = Player.objects.filter(name=past.name, merged_into__isnull=True).order_by("pk")
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
        raise archive_error(
            _("%(entry)s: %(detail)s") % {"entry": entry, "detail": " ".join(error.messages)},
            "record-refused") from None
    return replay


def _fallback_time(start_date: datetime.date, session: int, table: int) -> datetime.datetime:
    moment = datetime.datetime.combine(start_date, FALLBACK_START) + datetime.timedelta(
        hours=session - 1, minutes=table - 1)
    return timezone.make_aware(moment)


@transaction.atomic
def past_results_import(*, data: bytes, organiser=None, name: str = "",
                        fallback_name: str = "", start_date: datetime.date | None = None
                        ) -> PastResultsImported:
    """Rebuild the tournament of a ``records.zip`` here (see the module); ``organiser`` (a
    user) becomes its organiser. ``name``: the tournament's name instead of the archive's;
    ``fallback_name`` and ``start_date`` name and date the tournament of an archive without
    a manifest. Errors keyed ``archive``; nothing is written then."""
    past = archive_read(data, name=name, fallback_name=fallback_name, start_date=start_date)
    tournament = tournament_create(
        name=past.name, slug=_free_slug(past.slug, past.name), start_date=past.start_date,
        end_date=past.end_date, venue=past.venue, rules=past.rules, target=past.target,
        match_rounds=past.match_rounds, opening_bonus=past.opening_bonus,
        keep_clubs_apart=past.keep_clubs_apart, organiser=organiser,
    )
    if past.ranking_criteria is not None:
        tournament.ranking_criteria = list(past.ranking_criteria)
    tournament.is_rated = False  # until the confirmation times are the archive's (step 5)
    tournament.full_clean()
    tournament.save(update_fields=["ranking_criteria", "is_rated"])

    players: dict[int | str, Player] = {}
    found = 0
    to_create: list[tuple[PastPlayer, Player]] = []
    for past_player in past.players:
        player = _player_found(past_player, by_name_only=not past.has_manifest)
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
            found += 1
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
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player) for player in players.values())

    imported: list[tuple[Match, PastSession, PastTable]] = []
    for past_session in past.sessions:
        session = session_create(tournament=tournament, seed=past_session.seed)
        Session.objects.filter(pk=session.pk).update(seating=past_session.seating)
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
                raise archive_error(
                    _("%(entry)s: the record does not replay as the archive says (totals "
                      "%(totals)s, status %(status)s).")
                    % {"entry": table.entry, "status": match.status,
                       "totals": ", ".join(map(str, replay.totals))}, "record-differs")
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
    if past.is_rated:
        tournament.is_rated = True
        tournament.save(update_fields=["is_rated"])
        earliest = min(match.confirmed_at for match, _s, _t in imported)
        ratings_refresh(since=HistoryPoint(earliest, 0))
    return PastResultsImported(
        tournament=tournament, players_created=len(to_create), players_found=found,
        sessions=len(past.sessions), matches=len(imported))
