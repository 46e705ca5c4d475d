"""The tournament's data: who plays, where they sit, and every turn of every match.

Results are never overwritten. A correction of a turn (or of a round's end) adds a new version
and marks the old one superseded, and every write leaves an ``AuditEntry``; the current version
of each turn is the one with ``superseded_at`` null, and the database refuses a second one.
The engine's figures (points, bonus, verdict, totals) are cached next to what was entered, so
that the pages and the standings never replay matches to show them.

One module a concept, every model importable from here (``from tournament.models import
Match``): the migrations and the rest of the app name them through this package.
"""

from tournament.models.archives import ArchiveImport, Installation
from tournament.models.base import AppendOnlyEntry, AuditEntryRefused, Versioned, VersionedQuerySet
from tournament.models.categories import Category
from tournament.models.leagues import League
from tournament.models.matches import (
    AuditEntry,
    Bonus,
    Match,
    MatchSubmission,
    Round,
    RoundEnd,
    Turn,
    Verdict,
)
from tournament.models.players import Player, Registration
from tournament.models.ratings import PlayerMerge, PlayerRating, RatingChange
from tournament.models.room import Announcement, RefereeCall
from tournament.models.scorers import RoundSignature, TableScorer
from tournament.models.sessions import (
    CheckIn,
    Seat,
    SeatingMethod,
    Session,
    SessionAuditEntry,
    Table,
)
from tournament.models.tournaments import (
    CheckInRule,
    FinalSize,
    MatchEntry,
    RankingCriterion,
    StaffInvitation,
    StaffRole,
    TimeUpAction,
    Tournament,
    default_ranking_criteria,
)

__all__ = [
    "Announcement",
    "AppendOnlyEntry",
    "ArchiveImport",
    "AuditEntry",
    "AuditEntryRefused",
    "Bonus",
    "FinalSize",
    "Category",
    "CheckIn",
    "CheckInRule",
    "Installation",
    "MatchEntry",
    "RoundSignature",
    "TableScorer",
    "League",
    "Match",
    "MatchSubmission",
    "Player",
    "PlayerMerge",
    "PlayerRating",
    "RankingCriterion",
    "RatingChange",
    "RefereeCall",
    "Registration",
    "Round",
    "RoundEnd",
    "Seat",
    "SeatingMethod",
    "Session",
    "SessionAuditEntry",
    "StaffInvitation",
    "StaffRole",
    "Table",
    "TimeUpAction",
    "Tournament",
    "Turn",
    "Verdict",
    "Versioned",
    "VersionedQuerySet",
    "default_ranking_criteria",
]
