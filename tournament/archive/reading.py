"""Reading a tournament's ``records.zip`` (:mod:`tournament.archive.export`) into plain data.

:func:`archive_read` opens the archive within limits (:mod:`tournament.archive.unzip`: entries,
bytes actually unpacked, the manifest's size and shape), reads its manifest
(``tournament.json``: the settings, the players, the seating, each match's confirmation time,
the archive's identity) or, in an archive made before the manifest existed, its ``index.csv``,
then the records they name, and the digest of those records (the archive's identity,
:func:`tournament.archive.export.matches_digest`). It writes nothing:
:mod:`tournament.archive.imports` rebuilds the tournament from what it returns.

Every value is checked before anything is written: its type, the range a number must be in,
and texts without a NUL character or an unpaired surrogate (``"\\udfff"``), which the database
cannot store.

Any error (a damaged ZIP, an archive past a limit, a manifest or a record that cannot be read)
raises ``ValidationError`` keyed ``archive``, its message naming the entry and the field.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Any, BinaryIO

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import engine
from tournament.archive.export import (
    INDEX_HEADER,
    INDEX_NAME,
    MANIFEST_FORMAT,
    MANIFEST_NAME,
    matches_content_digest,
    matches_digest,
)
from tournament.archive.past import (
    ArchiveIdentity,
    PastPlayer,
    PastSession,
    PastTable,
    PastTournament,
)
from tournament.archive.unzip import (
    MAX_MANIFEST_BYTES,
    MAX_RECORD_BYTES,
    BoundedZip,
    archive_error,
    json_shape_check,
)
from tournament.models import (
    Category,
    CheckInRule,
    FinalSize,
    Match,
    RankingCriterion,
    Registration,
    SeatingMethod,
    Session,
    Tournament,
)
from tournament.validators import MAX_SESSION_NUMBER, MAX_TABLE_NUMBER


def _field_max(name: str) -> int:
    """The largest value the tournament's field ``name`` takes (its ``MaxValueValidator``)."""
    return next(validator.limit_value for validator in Tournament._meta.get_field(name).validators
                if isinstance(validator, MaxValueValidator))


#: The club-team and prize-list settings' bounds, as the tournament's fields hold them.
TEAM_SIZE_MAX = _field_max("team_size")
PRIZE_COUNT_MAX = _field_max("prize_count")
CRITERIA_CODES = tuple(RankingCriterion.values)
#: The largest number a manifest's id, seed or total may be (the database's integers).
MAX_INTEGER = 2**31 - 1
#: The moments a confirmation may be at: wide enough for any real event, narrow enough that
#: no time zone takes it out of the calendar.
EARLIEST = datetime.datetime(1900, 1, 1, tzinfo=datetime.UTC)
LATEST = datetime.datetime(3000, 1, 1, tzinfo=datetime.UTC)


#: Without confirmation times: session 1's first match at 9:00 on the start date.
FALLBACK_START = datetime.time(9, 0)


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
        if isinstance(value, str):
            text_check(value, lambda: self.fail(where, _("text without NUL characters")))
        return value

    def integer(self, obj, key, path, *, minimum: int = 0, maximum: int = MAX_INTEGER,
                optional=False, default=None) -> int | None:
        """An integer from ``minimum`` to ``maximum``."""
        value = self.get(obj, key, path, int, optional=optional, default=default)
        if value is not None and not minimum <= value <= maximum:
            raise self.fail(f"{path}.{key}" if path else key,
                            _("a whole number from %(min)s to %(max)s")
                            % {"min": minimum, "max": maximum})
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
        """A date and time (ISO 8601; without an offset, UTC) from 1900 to 2999: any time
        zone can show it."""
        value = self.get(obj, key, path, str, optional=True)
        if value is None:
            return None
        where = f"{path}.{key}"
        try:
            moment = datetime.datetime.fromisoformat(value)
            if timezone.is_naive(moment):
                moment = timezone.make_aware(moment, datetime.UTC)
            in_range = EARLIEST <= moment.astimezone(datetime.UTC) < LATEST
        except (ValueError, OverflowError):
            raise self.fail(where, _("a date and time (ISO 8601)")) from None
        if not in_range:
            raise self.fail(where, _("a date and time from 1900 to 2999"))
        return moment

#: A session that is not closed, as the refusal of its archive says it (never its code).
SESSION_STATES = {
    "draft": gettext_lazy("not seated yet"),
    "seated": gettext_lazy("seated but not started"),
    "playing": gettext_lazy("still in play"),
}


def text_check(value: str, refusal) -> str:
    """``value``, unless it holds a NUL character or an unpaired surrogate (``"\\udfff"``,
    valid JSON but not Unicode), which no database column stores: then ``refusal()`` is
    raised."""
    if "\x00" in value:
        raise refusal()
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise refusal() from None
    return value


def archive_read(source: bytes | BinaryIO, *, name: str = "", fallback_name: str = "",
                 start_date: datetime.date | None = None) -> PastTournament:
    """The tournament an archive holds (see the module), checked; nothing is written.
    ``source``: the archive's bytes, or a file open on them. ``name``: the tournament's name
    instead of the archive's. ``fallback_name`` and ``start_date``: for an archive without a
    manifest, which has neither."""
    archive = BoundedZip(source)
    declared_digest = ""
    if MANIFEST_NAME in archive:
        past, declared_digest = _manifest_read(archive)
        if name:
            past.name = name
    elif INDEX_NAME in archive:
        past = _index_read(archive, name=name or fallback_name, start_date=start_date)
    else:
        raise archive_error(
            _("This ZIP archive is not a tournament's records.zip: it has neither %(manifest)s "
              "nor %(index)s.") % {"manifest": MANIFEST_NAME, "index": INDEX_NAME},
            "archive-not-records")
    if not past.sessions:
        raise archive_error(_("This archive holds no closed session: there is nothing to "
                              "import."), "nothing-to-import")
    for session in past.sessions:
        for table in session.tables:
            if table.entry not in past.records:
                past.records[table.entry] = archive.read(table.entry, limit=MAX_RECORD_BYTES)
    digest = matches_digest(past.records)
    if declared_digest and declared_digest != digest:
        raise archive_error(
            _("%(source)s: archive.matches_digest is not the digest of the archive's match "
              "records: a record was changed after the archive was made.")
            % {"source": MANIFEST_NAME}, "archive-digest")
    identity = past.identity
    past.identity = ArchiveIdentity(
        installation=identity.installation if identity else "",
        tournament_id=identity.tournament_id if identity else None,
        matches_digest=digest,
        content_digest=matches_content_digest(past.records.values()),
    )
    return past


def _manifest_read(archive: BoundedZip) -> tuple[PastTournament, str]:
    """The tournament the manifest describes, and the digest of its matches it declares
    ("" when it declares none)."""
    read = _Fields(MANIFEST_NAME)
    data = archive.read(MANIFEST_NAME, limit=MAX_MANIFEST_BYTES)
    json_shape_check(data, source=MANIFEST_NAME)
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise archive_error(_("%(source)s is not readable JSON.") % {"source": MANIFEST_NAME},
                            "manifest-unreadable") from None
    version = read.get(manifest, "format", "", str)
    if version != MANIFEST_FORMAT:
        raise archive_error(
            _("%(source)s is in the format “%(format)s”; this installation reads “%(known)s”.")
            % {"source": MANIFEST_NAME, "format": version, "known": MANIFEST_FORMAT},
            "manifest-format")
    declared_digest = ""
    if "archive" in manifest:
        origin = read.get(manifest, "archive", "", dict)
        declared_digest = read.get(origin, "matches_digest", "archive", str, optional=True,
                                   default="")
        identity = ArchiveIdentity(
            installation=read.get(origin, "installation", "archive", str, optional=True,
                                  default="")[:64],
            tournament_id=read.integer(origin, "tournament_id", "archive", minimum=1,
                                       maximum=2**63 - 1, optional=True),
            matches_digest=declared_digest,
        )
    else:
        identity = None
    meta = read.get(manifest, "tournament", "", dict)
    path = "tournament"
    criteria = read.get(meta, "ranking_criteria", path, list, optional=True)
    if criteria is not None:
        for index in range(len(criteria)):
            if not isinstance(criteria[index], str):
                raise read.fail(f"{path}.ranking_criteria[{index}]", _("a value of another type"))
            text_check(criteria[index], lambda index=index: read.fail(
                f"{path}.ranking_criteria[{index}]", _("text without NUL characters")))
    past = PastTournament(
        name=read.get(meta, "name", path, str),
        slug=read.get(meta, "slug", path, str, optional=True, default=""),
        start_date=read.date(meta, "start_date", path),
        end_date=read.date(meta, "end_date", path, optional=True),
        venue=read.get(meta, "venue", path, str, optional=True, default=""),
        rules=read.get(meta, "rules", path, str, optional=True, default=engine.DEFAULT_RULE_SET),
        target=read.integer(meta, "target", path, minimum=1, optional=True),
        opening_bonus=read.get(meta, "opening_bonus", path, bool, optional=True, default=True),
        match_rounds=read.integer(meta, "match_rounds", path, minimum=1, optional=True),
        ranking_criteria=criteria,
        keep_clubs_apart=read.get(meta, "keep_clubs_apart", path, bool, optional=True,
                                  default=False),
        is_rated=read.get(meta, "is_rated", path, bool, optional=True, default=True),
        final_size=read.integer(meta, "final_size", path, optional=True, default=0),
        check_in=read.get(meta, "check_in", path, str, optional=True, default=CheckInRule.OFF),
        team_size=read.integer(meta, "team_size", path, maximum=TEAM_SIZE_MAX, optional=True,
                               default=0),
        team_criterion=read.get(meta, "team_criterion", path, str, optional=True,
                                default=RankingCriterion.MATCH_POINTS),
        prize_count=read.integer(meta, "prize_count", path, minimum=1, maximum=PRIZE_COUNT_MAX,
                                 optional=True, default=3),
        prize_one_per_player=read.get(meta, "prize_one_per_player", path, bool, optional=True,
                                      default=False),
        categories=_categories_read(read, meta, path),
        identity=identity,
    )
    if past.final_size not in FinalSize.values:
        raise read.fail(f"{path}.final_size", " | ".join(map(str, FinalSize.values)))
    for key, values in (("check_in", CheckInRule.values), ("team_criterion", CRITERIA_CODES)):
        if getattr(past, key) not in values:
            raise read.fail(f"{path}.{key}", " | ".join(values))
    known = {name.casefold(): name for name in past.categories}
    statuses = set(Registration.Status.values)
    for index, item in enumerate(read.get(manifest, "players", "", list)):
        path = f"players[{index}]"
        status = read.get(item, "status", path, str, optional=True)
        if status is not None and status not in statuses:
            raise read.fail(f"{path}.status", " | ".join(sorted(statuses)))
        past.players.append(PastPlayer(
            key=read.integer(item, "id", path, minimum=-(2**63), maximum=2**63 - 1),
            name=read.get(item, "name", path, str).strip(),
            club=read.get(item, "club", path, str, optional=True, default="").strip(),
            licence=read.get(item, "licence", path, str, optional=True, default="").strip(),
            status=status,
            first_session=read.integer(item, "first_session", path, minimum=1,
                                       maximum=MAX_SESSION_NUMBER, optional=True),
            categories=_player_categories_read(read, item, path, known),
        ))
    keys = {player.key for player in past.players}
    licences = [player.licence for player in past.players if player.licence]
    if len(keys) != len(past.players) or len(set(licences)) != len(licences):
        raise read.fail("players", _("each player once (one id, one licence each)"))
    for index, item in enumerate(read.get(manifest, "sessions", "", list)):
        path = f"sessions[{index}]"
        number = read.integer(item, "number", path, minimum=1, maximum=MAX_SESSION_NUMBER)
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
                _("Session %(number)s is %(state)s in this archive: a tournament is imported "
                  "once every seated session is closed. Nothing was imported; close the "
                  "session where the tournament is run, then export its archive again.")
                % {"number": number, "state": SESSION_STATES.get(status, SESSION_STATES["draft"])},
                "session-not-closed")
        tables = []
        for table_index, table in enumerate(raw_tables):
            where = f"{path}.tables[{table_index}]"
            players = tuple(read.get(table, "players", where, list))
            if any(not isinstance(key, int) or key not in keys for key in players):
                raise read.fail(f"{where}.players", _("ids of the players listed"))
            match = read.get(table, "match", where, dict)
            entry = read.get(match, "entry", f"{where}.match", str, optional=True)
            table_number = read.integer(table, "number", where, minimum=1,
                                        maximum=MAX_TABLE_NUMBER)
            if read.get(match, "status", f"{where}.match", str) != Match.Status.CONFIRMED \
                    or entry is None or entry not in archive:
                raise archive_error(
                    _("Session %(number)s, table %(table)s: the archive holds no confirmed "
                      "match record for it.") % {"number": number, "table": table_number},
                    "match-not-confirmed")
            totals = read.get(match, "totals", f"{where}.match", list, optional=True)
            if totals and any(type(total) is not int or abs(total) > MAX_INTEGER
                              for total in totals):
                raise read.fail(f"{where}.match.totals", _("whole numbers"))
            tables.append(PastTable(
                number=table_number,
                players=players,
                entry=entry,
                confirmed_at=read.moment(match, "confirmed_at", f"{where}.match"),
                totals=tuple(totals) if totals else None,
            ))
        is_final = read.get(item, "is_final", path, bool, optional=True, default=False)
        if is_final and (not past.final_size or any(s.is_final for s in past.sessions)):
            raise read.fail(f"{path}.is_final", _("one final at most, in a tournament with one"))
        past.sessions.append(PastSession(
            number=number, seed=read.integer(item, "seed", path, optional=True, default=0),
            seating=seating, tables=tuple(tables), is_final=is_final))
    return past, declared_digest


def _categories_read(read: _Fields, meta: dict, path: str) -> list[str]:
    """The tournament's categories (docs/guides/categories.md): at most
    ``Category.MAX_PER_TOURNAMENT`` names, each of 1 to ``Category.NAME_MAX_LENGTH``
    characters, none twice whatever its case."""
    names = read.get(meta, "categories", path, list, optional=True, default=[])
    where = f"{path}.categories"
    if len(names) > Category.MAX_PER_TOURNAMENT:
        raise read.fail(where, _("at most %(max)s categories") % {"max": Category.MAX_PER_TOURNAMENT})
    seen: set[str] = set()
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise read.fail(f"{where}[{index}]", _("a value of another type"))
        text_check(name, lambda index=index: read.fail(f"{where}[{index}]",
                                                        _("text without NUL characters")))
        if not 0 < len(name.strip()) <= Category.NAME_MAX_LENGTH or name != name.strip():
            raise read.fail(f"{where}[{index}]", _("a name of 1 to %(max)s characters")
                            % {"max": Category.NAME_MAX_LENGTH})
        if name.casefold() in seen:
            raise read.fail(f"{where}[{index}]", _("each category once"))
        seen.add(name.casefold())
    return list(names)


def _player_categories_read(read: _Fields, item: dict, path: str,
                            known: dict[str, str]) -> tuple[str, ...]:
    """A player's categories: names of the tournament's list (``known``, by casefold)."""
    names = read.get(item, "categories", path, list, optional=True, default=[])
    chosen: dict[str, str] = {}
    for index, name in enumerate(names):
        if not isinstance(name, str) or name.casefold() not in known:
            raise read.fail(f"{path}.categories[{index}]", _("a category of tournament.categories"))
        chosen[name.casefold()] = known[name.casefold()]
    return tuple(chosen.values())


def _index_read(archive: BoundedZip, *, name: str, start_date: datetime.date | None
                ) -> PastTournament:
    """An archive made before the manifest: its index and its records (see the module)."""
    try:
        rows = list(csv.reader(io.StringIO(
            archive.read(INDEX_NAME, limit=MAX_MANIFEST_BYTES).decode("utf-8"))))
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
        if not (1 <= session <= MAX_SESSION_NUMBER and 1 <= table <= MAX_TABLE_NUMBER):
            raise archive_error(_("%(source)s, line %(line)s: not an archive's line.")
                                % {"source": INDEX_NAME, "line": line}, "index-unreadable")
        if status != Match.Status.CONFIRMED or entry not in archive:
            raise archive_error(
                _("Session %(number)s, table %(table)s: the archive holds no confirmed match "
                  "record for it.") % {"number": session, "table": table},
                "match-not-confirmed")
        past.records[entry] = archive.read(entry, limit=MAX_RECORD_BYTES)
        record = _record_read(past.records[entry], entry)
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
    for name in names:
        text_check(name, lambda: archive_error(
            _("%(source)s: a player's name holds a NUL character.") % {"source": INDEX_NAME},
            "record-unreadable"))
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
