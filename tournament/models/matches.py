"""A match at a table, its rounds, and every version of its turns and rounds' ends, with the
match's audit log and the submissions a tablet sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.base import AppendOnlyEntry, Versioned
from tournament.models.sessions import Table


class Match(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("not started")
        PLAYING = "playing", _("in play")
        FINISHED = "finished", _("finished")
        CONFIRMED = "confirmed", _("confirmed")

    table = models.OneToOneField(
        Table, models.CASCADE, related_name="match", verbose_name=_("table")
    )
    revision = models.PositiveIntegerField(
        _("revision"),
        default=0,
        help_text=_("Incremented by every write: a save based on an older revision is refused."),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PENDING
    )
    state_revision = models.PositiveIntegerField(
        _("state revision"),
        default=0,
        help_text=_("The revision at which the match's state or result last changed: the "
                    "pages that show its state (its session's, its players') key on it."),
    )
    #: The states of a match that is over: its totals are its result.
    OVER = (Status.FINISHED, Status.CONFIRMED)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(
        _("confirmed at"),
        null=True,
        blank=True,
        help_text=_("When the match was first confirmed: its place in the ratings' history, "
                    "kept through later corrections."),
    )
    time_up_round = models.PositiveSmallIntegerField(
        _("time up during round"),
        null=True,
        blank=True,
        help_text=_("The session's time ran out during this round (from 1): the match ends "
                    "once it has ended (the record's option time_up)."),
    )
    # The engine's results, cached so that standings never replay matches.
    totals = models.JSONField(
        _("totals"), default=list, blank=True, help_text=_("Match totals in seat order.")
    )
    winners = models.JSONField(
        _("winners"), default=list, blank=True, help_text=_("Seat orders of the winners.")
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["table__session", "table__number"]
        indexes = [
            # The rating history's order (tournament.ratings.services).
            models.Index(fields=["confirmed_at", "id"], name="match_rating_order"),
        ]

    def __str__(self) -> str:
        return gettext("Session %(session)s, table %(table)s") % {
            "session": self.table.session.number,
            "table": self.table.number,
        }

    def get_absolute_url(self) -> str:
        return reverse(
            "tournament:match",
            kwargs={"slug": self.table.session.tournament.slug, "match_id": self.pk},
        )


class Round(models.Model):
    """A round (manche): from the deal to going out or a blocked table, then the settlement."""

    class EndKind(models.TextChoices):
        UNFINISHED = "unfinished", _("unfinished")
        OUT = "out", _("went out")
        BLOCKED = "blocked", _("blocked")

    match = models.ForeignKey(Match, models.CASCADE, related_name="rounds", verbose_name=_("match"))
    index = models.PositiveSmallIntegerField(_("index"), help_text=_("From 0."))
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    # The engine's results, cached.
    end_kind = models.CharField(
        _("end"), max_length=12, choices=EndKind.choices, default=EndKind.UNFINISHED
    )
    scores = models.JSONField(
        _("scores"), default=list, blank=True, help_text=_("Round scores in seat order.")
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="round_unique_index"),
            models.CheckConstraint(
                condition=Q(confirmed_at__isnull=True) | ~Q(end_kind="unfinished"),
                name="round_confirmed_only_when_ended",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(match)s, round %(number)s") % {"match": self.match, "number": self.index + 1}


class Bonus(models.TextChoices):
    """The bonus names of the match record (docs/reference/record-format.md)."""

    OPENING = "opening", _("opening")
    BRIDGE = "bridge", _("bridge")
    TWO_SIDES = "two-sides", _("two sides")
    HEXAGON = "hexagon", _("hexagon")
    DOUBLE_HEXAGON = "double-hexagon", _("double hexagon")
    TRIPLE_HEXAGON = "triple-hexagon", _("triple hexagon")


class Verdict(models.TextChoices):
    """The engine's verdict on a turn (docs/reference/record-format.md)."""

    OK = "ok", _("correct")
    MISMATCH = "mismatch", _("claim differs")
    ILLEGAL = "illegal", _("illegal")
    UNVERIFIED = "unverified", _("not verifiable")


class Turn(Versioned):
    """One player's move in a round, as entered, with the engine's figures and the decision."""

    class Orientation(models.TextChoices):
        UP = "U", _("pointing up")
        DOWN = "D", _("pointing down")

    class Decision(models.TextChoices):
        NONE = "", _("none")
        ENGINE = "engine", _("the engine's figure")
        CLAIM = "claim", _("the claim")

    round = models.ForeignKey(Round, models.CASCADE, related_name="turns", verbose_name=_("round"))
    index = models.PositiveSmallIntegerField(_("index"), help_text=_("From 0, within the round."))
    player = models.PositiveSmallIntegerField(_("player"), help_text=_("Seat order, from 0."))
    draws = models.PositiveSmallIntegerField(_("draws"), default=0)
    tile = models.CharField(
        _("tile"), max_length=5, blank=True, help_text=_("e.g. 0-1-2; blank: no placement.")
    )
    cell_x = models.IntegerField(_("cell x"), null=True, blank=True)
    cell_y = models.IntegerField(_("cell y"), null=True, blank=True)
    cell_orientation = models.CharField(
        _("cell orientation"), max_length=1, choices=Orientation.choices, blank=True
    )
    # Any integer a match record may hold (±1,000,000,000, docs/reference/record-format.md): a corner
    # that shows no tile is kept as given, and the engine says so (unknown-tile).
    corners = models.CharField(
        _("corners"),
        max_length=35,
        blank=True,
        help_text=_("Values clockwise from the apex, e.g. 2-0-1."),
    )
    bonus_claimed = models.CharField(
        _("bonus claimed"), max_length=16, choices=Bonus.choices, blank=True
    )
    points_claimed = models.IntegerField(_("points claimed"), null=True, blank=True)
    # The engine's figures, cached.
    points = models.IntegerField(_("points"), null=True, blank=True)
    tile_value = models.PositiveSmallIntegerField(_("tile value"), null=True, blank=True)
    bonus = models.CharField(_("bonus"), max_length=16, choices=Bonus.choices, blank=True)
    bonus_points = models.PositiveSmallIntegerField(_("bonus points"), default=0)
    penalty = models.PositiveSmallIntegerField(_("penalty"), default=0)
    verdict = models.CharField(
        _("verdict"),
        max_length=12,
        choices=Verdict.choices,
        blank=True,
        help_text=_("Blank: not checked yet."),
    )
    problems = models.JSONField(_("problems"), default=list, blank=True)
    # The referee's decision when the claim and the engine differ.
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, blank=True, default=Decision.NONE
    )
    decision_reason = models.TextField(_("reason for the decision"), blank=True)

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["round", "index", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "index"],
                condition=Q(superseded_at__isnull=True),
                name="turn_one_current_version",
            ),
            models.CheckConstraint(
                condition=Q(cell_x__isnull=True, cell_y__isnull=True, cell_orientation="")
                | Q(cell_x__isnull=False, cell_y__isnull=False, cell_orientation__in=["U", "D"]),
                name="turn_cell_complete_or_absent",
            ),
            models.CheckConstraint(
                condition=~Q(decision="claim") | ~Q(decision_reason=""),
                name="turn_claim_decision_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(superseded_by__isnull=True) | Q(superseded_at__isnull=False),
                name="turn_superseded_by_has_date",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(round)s, turn %(number)s") % {"round": self.round, "number": self.index + 1}

    @property
    def cell(self) -> str:
        """The cell in the engine's notation, e.g. U(0,0); blank when not recorded."""
        if self.cell_x is None:
            return ""
        return f"{self.cell_orientation}({self.cell_x},{self.cell_y})"


class RoundEnd(Versioned):
    """The racks shown at the end of a round and the settlement claimed, with the referee's
    decision when the claim differs from the engine's settlement; versioned like turns."""

    Decision = Turn.Decision

    round = models.ForeignKey(Round, models.CASCADE, related_name="ends", verbose_name=_("round"))
    racks = models.JSONField(
        _("racks"),
        default=list,
        help_text=_("Per seat: the tile names left, or the rack's total when not noted."),
    )
    settlement_claimed = models.JSONField(_("settlement claimed"), null=True, blank=True)
    # The referee's decision when the settlement claimed and the engine's differ.
    decision = models.CharField(
        _("decision"), max_length=8, choices=Decision.choices, blank=True, default=Decision.NONE
    )
    decision_reason = models.TextField(_("reason for the decision"), blank=True)
    # The engine's word, cached: the settlement claimed is not the engine's.
    settlement_differs = models.BooleanField(_("settlement claimed differs"), default=False)

    class Meta:
        verbose_name = _("end of round")
        verbose_name_plural = _("ends of rounds")
        ordering = ["round", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(superseded_at__isnull=True),
                name="round_end_one_current_version",
            ),
            models.CheckConstraint(
                condition=Q(superseded_by__isnull=True) | Q(superseded_at__isnull=False),
                name="round_end_superseded_by_has_date",
            ),
            models.CheckConstraint(
                condition=~Q(decision="claim") | ~Q(decision_reason=""),
                name="round_end_claim_decision_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return gettext("End of %(round)s") % {"round": self.round}


class AuditEntry(AppendOnlyEntry):
    """Append-only log of every write to a match: who, when, what (before/after) and why."""

    class Action(models.TextChoices):
        TURN_ADDED = "turn-added", _("turn added")
        TURN_CORRECTED = "turn-corrected", _("turn corrected")
        TURN_UNDONE = "turn-undone", _("turn undone")
        TURN_INSERTED = "turn-inserted", _("turn inserted")
        DECISION = "decision", _("referee's decision")
        ROUND_ENDED = "round-ended", _("round ended")
        ROUND_END_CORRECTED = "round-end-corrected", _("end of round corrected")
        ROUND_CONFIRMED = "round-confirmed", _("round confirmed")
        RECORD_IMPORTED = "record-imported", _("record imported")
        MATCH_CLOSED = "match-closed", _("match closed")
        TIME_UP = "time-up", _("time up: the match ends after the round in play")
        SCORER_BOUND = "scorer-bound", _("a phone became the table's scorer")
        SCORER_HANDED_OVER = "scorer-handed-over", _("the score sheet handed to another phone")
        SCORER_LOCKED = "scorer-locked", _("a referee took over the table (link locked)")
        ROUND_SIGNED = "round-signed", _("a seat agreed with a round")
        ROUND_DISPUTED = "round-disputed", _("a seat disputed a round")

    match = models.ForeignKey(
        Match, models.CASCADE, related_name="audit_entries", verbose_name=_("match")
    )
    action = models.CharField(_("action"), max_length=24, choices=Action.choices)
    summary = models.TextField(_("summary"))
    details = models.JSONField(
        _("details"), default=dict, blank=True, help_text=_("Before and after.")
    )
    reason = models.TextField(_("reason"), blank=True)
    device = models.CharField(
        _("scorer device"), max_length=32, blank=True,
        help_text=_("The table's scorer phone that made the write (its id); blank: a user."),
    )

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["match", "at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_action_display()}: {self.summary}"


class MatchSubmission(models.Model):
    """The key a tablet made for one submission to a match, kept once the write was saved:
    the same submission sent again (after a network error, from the tablet's queue) is
    answered "already saved" instead of being saved twice."""

    match = models.ForeignKey(
        Match, models.CASCADE, related_name="submissions", verbose_name=_("match")
    )
    key = models.CharField(_("key"), max_length=64)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="match_submission_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.key}"
