"""What an archive holds, as plain data: read and checked by
:mod:`tournament.archive.reading`, written by :mod:`tournament.archive.imports`."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from tournament import engine
from tournament.models import CheckInRule, RankingCriterion, Registration, Tournament


@dataclass(frozen=True)
class PastPlayer:
    """A player of the archive: ``key`` is their id in the archive (their name in an old one)."""

    key: int | str
    name: str
    club: str = ""
    licence: str = ""
    status: str | None = Registration.Status.ACTIVE
    first_session: int | None = None
    categories: tuple[str, ...] = ()


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
    is_final: bool = False


@dataclass(frozen=True)
class ArchiveIdentity:
    """Where an archive comes from: the exporting installation and the tournament's id there
    (blank and None in an archive made before it carried them), the digest of its
    matches (computed from the records' bytes), and the digest of what they say
    (``content_digest``, :func:`tournament.archive.export.matches_content_digest`: the same
    for records indented, renamed or exported by another installation)."""

    installation: str
    tournament_id: int | None
    matches_digest: str
    content_digest: str = ""


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
    final_size: int = 0
    check_in: str = CheckInRule.OFF
    team_size: int = 0
    team_criterion: str = RankingCriterion.MATCH_POINTS
    prize_count: int = 3
    prize_one_per_player: bool = False
    categories: list[str] = field(default_factory=list)
    players: list[PastPlayer] = field(default_factory=list)
    sessions: list[PastSession] = field(default_factory=list)
    records: dict[str, bytes] = field(default_factory=dict)
    has_manifest: bool = True
    identity: ArchiveIdentity | None = None


@dataclass(frozen=True)
class PastResultsImported:
    """What an import did: ``players_linked``, the names of the players found among the
    importer's own (registered in the tournaments they organise)."""

    tournament: Tournament
    players_created: int
    players_linked: tuple[str, ...]
    sessions: int
    matches: int
    copy: bool = False

    @property
    def players_found(self) -> int:
        return len(self.players_linked)
