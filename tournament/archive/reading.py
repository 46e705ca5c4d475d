"""Reading a tournament's ``records.zip`` (:mod:`tournament.archive.export`) into plain data.

:func:`archive_read` opens the archive, reads its manifest (``tournament.json``: the settings,
the players, the seating, each match's confirmation time) or, in an archive made before the
manifest existed, its ``index.csv``, and checks every match's record with the engine. It
writes nothing: :mod:`tournament.archive.imports` rebuilds the tournament from what it returns.

Any error (a damaged ZIP, a manifest or a record that cannot be read) raises
``ValidationError`` keyed ``archive``, its message naming the entry and the field.
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
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import engine
from tournament.archive.export import INDEX_HEADER, INDEX_NAME, MANIFEST_FORMAT, MANIFEST_NAME
from tournament.models import Match, Registration, SeatingMethod, Session, Tournament

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
