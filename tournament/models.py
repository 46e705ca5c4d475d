"""The tournament's data: who plays, where they sit, and every turn of every match.

Results are never overwritten. A correction of a turn (or of a round's end) adds a new version
and marks the old one superseded, and every write leaves an ``AuditEntry``; the current version
of each turn is the one with ``superseded_at`` null, and the database refuses a second one.
The engine's figures (points, bonus, verdict, totals) are cached next to what was entered, so
that the pages and the standings never replay matches to show them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.names import name_sort_key
from tournament.validators import (
    RANKING_CRITERIA_CODES,
    parse_table_numbers,
    validate_ranking_criteria,
    validate_table_numbers,
)


class RankingCriterion(models.TextChoices):
    MATCH_POINTS = "match_points", _("match points")
    TABLE_WINS = "table_wins", _("table wins")
    TOTAL_POINTS = "total_points", _("total points")
    SHARE = "share", _("average share of the table's points")
    BEST_MATCH = "best_match", _("best match")
    OPPONENTS = "opponents", _("opponents' strength")


assert tuple(RankingCriterion.values) == RANKING_CRITERIA_CODES


def default_ranking_criteria() -> list[str]:
    return [RankingCriterion.MATCH_POINTS, RankingCriterion.TOTAL_POINTS, RankingCriterion.SHARE]


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("address"), max_length=60, unique=True, help_text=_("The tournament's address: /t/<slug>/")
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    rules = models.CharField(
        _("rule set"),
        max_length=40,
        choices=engine.rule_set_choices,
        default=engine.DEFAULT_RULE_SET,
    )
    target = models.PositiveIntegerField(
        _("target score"),
        null=True,
        blank=True,
        help_text=_("Leave blank for the rule set's target (400)."),
    )
    opening_bonus = models.BooleanField(
        _("opening bonus"),
        default=True,
        help_text=_("Untick for no opening bonus: the opener scores the tile's value alone."),
    )
    match_rounds = models.PositiveIntegerField(
        _("rounds per match"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Leave blank to play every match to the target; a number ends each match "
                    "after that many rounds (whichever comes first with the target)."),
    )
    ranking_criteria = models.JSONField(
        _("ranking criteria"),
        default=default_ranking_criteria,
        validators=[validate_ranking_criteria],
        help_text=_("Criteria codes in order of importance."),
    )
    keep_clubs_apart = models.BooleanField(
        _("keep players of the same club apart in session 1"), default=False
    )
    league = models.ForeignKey(
        "League",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("league"),
        help_text=_("The season this tournament counts for, if any."),
    )
    is_rated = models.BooleanField(
        _("counts for ratings"),
        default=True,
        help_text=_("Its confirmed matches update the players' ratings."),
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Visible to everyone, without logging in.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    data_version = models.PositiveBigIntegerField(
        _("data version"),
        default=0,
        editable=False,
        help_text=_("Raised by every write that changes what the tournament's pages show."),
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=models.F("start_date")),
                name="tournament_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(target__isnull=True) | Q(target__gte=1),
                name="tournament_target_positive",
            ),
            models.CheckConstraint(
                condition=Q(match_rounds__isnull=True) | Q(match_rounds__gte=1),
                name="tournament_match_rounds_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:detail", kwargs={"slug": self.slug})

    @property
    def rule_set(self):
        """The engine's RuleSet for this tournament, the target and the options applied."""
        return engine.rule_set(
            self.rules, target=self.target, opening_bonus=self.opening_bonus,
            round_limit=self.match_rounds,
        )

    @property
    def match_options_label(self) -> str:
        """The match options in words ("5 rounds · no opening bonus"), '' when none."""
        return engine.options_label(opening_bonus=self.opening_bonus, rounds=self.match_rounds)

    @property
    def effective_target(self) -> int:
        """The target score: the override, else the rule set's."""
        return self.rule_set.target

    def ranking_criteria_labels(self) -> list[str]:
        labels = dict(RankingCriterion.choices)
        return [labels.get(code, code) for code in self.ranking_criteria]


class Player(models.Model):
    """A person. Players are shared between tournaments; a Registration enters one."""

    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence number"), max_length=40, blank=True)
    merged_into = models.ForeignKey(
        "self",
        models.PROTECT,
        null=True,
        blank=True,
        related_name="merged_records",
        verbose_name=_("merged into"),
        help_text=_("A second record of the same person, merged into this one: kept, not "
                    "deleted, so that nothing is lost and old addresses still lead to them."),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["licence"], condition=~Q(licence=""), name="player_unique_licence"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    @property
    def name_key(self) -> tuple[str, str]:
        """The name as lists sort it: accents and case aside (:mod:`tournament.names`)."""
        return name_sort_key(self.name)


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        LATE = "late", _("late arrival")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="registrations", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, models.CASCADE, related_name="registrations", verbose_name=_("player")
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE
    )
    first_session = models.PositiveSmallIntegerField(
        _("first session"),
        null=True,
        blank=True,
        help_text=_("For a late arrival: the first session the player is seated in."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_once_per_tournament"
            ),
            models.CheckConstraint(
                condition=Q(first_session__isnull=True) | Q(first_session__gte=1),
                name="registration_first_session_from_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} — {self.tournament}"


class StaffRole(models.Model):
    """A user's role in one tournament. Superusers are organisers of every tournament."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        REFEREE = "referee", _("referee")

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="staff_roles", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        related_name="staff_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)
    tables = models.CharField(
        _("tables"),
        max_length=100,
        blank=True,
        validators=[validate_table_numbers],
        help_text=_("A referee limited to some tables: e.g. 1-4,7. Blank: every table."),
    )

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["tournament", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_role_once_per_user"),
            models.CheckConstraint(
                condition=~Q(role="organiser") | Q(tables=""),
                name="staff_role_organiser_has_every_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.tournament}"

    def table_numbers(self) -> frozenset[int] | None:
        """The table numbers this role is limited to, or None for every table."""
        return parse_table_numbers(self.tables)


class SeatingMethod(models.TextChoices):
    """How a session's players are placed: at random, or by rating (session 1 only)."""

    RANDOM = "random", _("at random")
    RATING_SPREAD = "rating-spread", _("by rating, the strongest spread across the tables")
    RATING_GROUPED = "rating-grouped", _("by rating, the strongest together")


class Session(models.Model):
    """One tournament round: every player sits at a table and plays one match."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("in play")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="sessions", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.PositiveIntegerField(
        _("seed"), default=0, help_text=_("The random seed the seating was drawn with.")
    )
    seating = models.CharField(
        _("seating"),
        max_length=16,
        choices=SeatingMethod.choices,
        default=SeatingMethod.RANDOM,
        help_text=_("How the first session's players were placed at the tables."),
    )

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="session_unique_number"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_from_1"),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, session %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }

    def get_absolute_url(self) -> str:
        return reverse(
            "tournament:session", kwargs={"slug": self.tournament.slug, "number": self.number}
        )


class AuditEntryRefused(Exception):
    """The audit log is append-only: an entry is never changed or deleted on its own."""


class AppendOnlyEntry(models.Model):
    """An entry of an append-only log: who wrote it and when; never changed nor deleted."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise AuditEntryRefused("an audit entry cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditEntryRefused("an audit entry cannot be deleted")


class SessionAuditEntry(AppendOnlyEntry):
    """Append-only log of a session's closing and reopening: who, when, why.

    A closed session's results are final; the organiser may reopen it with a reason (to
    correct a match), and closes it again as usual. Both are kept here and shown on the
    session's page."""

    class Action(models.TextChoices):
        CLOSED = "closed", _("session closed")
        REOPENED = "reopened", _("session reopened")

    session = models.ForeignKey(
        Session, models.CASCADE, related_name="audit_entries", verbose_name=_("session")
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        verbose_name = _("session audit entry")
        verbose_name_plural = _("sessions' audit log")
        ordering = ["session", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(action="reopened") | ~Q(reason=""),
                name="session_audit_reopened_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_action_display()}"


class Table(models.Model):
    session = models.ForeignKey(
        Session, models.CASCADE, related_name="tables", verbose_name=_("session")
    )
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = pgettext_lazy("game table", "table")
        verbose_name_plural = pgettext_lazy("game table", "tables")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return gettext("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """A player at a table. ``order`` is the clockwise seat order, the player index of records."""

    table = models.ForeignKey(Table, models.CASCADE, related_name="seats", verbose_name=_("table"))
    # Denormalised from table.session so the database can hold "one seat per player per
    # session". save() keeps it equal to table.session.
    session = models.ForeignKey(
        Session, models.CASCADE, related_name="seats", verbose_name=_("session"), editable=False
    )
    player = models.ForeignKey(
        Player, models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    order = models.PositiveSmallIntegerField(
        _("seat order"), help_text=_("Clockwise order at the table, from 0.")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "order"]
        constraints = [
            models.UniqueConstraint(fields=["table", "order"], name="seat_unique_order_at_table"),
            models.UniqueConstraint(
                fields=["session", "player"], name="seat_one_per_player_per_session"
            ),
            models.CheckConstraint(condition=Q(order__gte=0), name="seat_order_from_0"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.order} {self.player.name}"

    def save(self, *args, **kwargs) -> None:
        self.session_id = self.table.session_id
        super().save(*args, **kwargs)


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
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(
        _("confirmed at"),
        null=True,
        blank=True,
        help_text=_("When the match was first confirmed: its place in the ratings' history, "
                    "kept through later corrections."),
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
    """The bonus names of the match record (docs/record-format.md)."""

    OPENING = "opening", _("opening")
    BRIDGE = "bridge", _("bridge")
    TWO_SIDES = "two-sides", _("two sides")
    HEXAGON = "hexagon", _("hexagon")
    DOUBLE_HEXAGON = "double-hexagon", _("double hexagon")
    TRIPLE_HEXAGON = "triple-hexagon", _("triple hexagon")


class Verdict(models.TextChoices):
    """The engine's verdict on a turn (docs/record-format.md)."""

    OK = "ok", _("correct")
    MISMATCH = "mismatch", _("claim differs")
    ILLEGAL = "illegal", _("illegal")
    UNVERIFIED = "unverified", _("not verifiable")


class VersionedQuerySet(models.QuerySet):
    def current(self):
        """Only the current versions (the ones no correction has replaced)."""
        return self.filter(superseded_at__isnull=True)


class Versioned(models.Model):
    """Who entered a version and when; a correction supersedes it and never overwrites it."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    created_at = models.DateTimeField(_("entered at"), default=timezone.now)
    superseded_at = models.DateTimeField(
        _("superseded at"), null=True, blank=True, help_text=_("Blank: the current version.")
    )
    superseded_by = models.ForeignKey(
        "self",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="supersedes",
        verbose_name=_("superseded by"),
    )
    change_reason = models.TextField(
        _("reason for the change"), blank=True, help_text=_("Why this version replaced the last.")
    )

    objects = VersionedQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def is_current(self) -> bool:
        return self.superseded_at is None


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
    corners = models.CharField(
        _("corners"),
        max_length=5,
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
    """The racks shown at the end of a round and the settlement claimed; versioned like turns."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="ends", verbose_name=_("round"))
    racks = models.JSONField(
        _("racks"),
        default=list,
        help_text=_("Per seat: the tile names left, or the rack's total when not noted."),
    )
    settlement_claimed = models.JSONField(_("settlement claimed"), null=True, blank=True)

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

    match = models.ForeignKey(
        Match, models.CASCADE, related_name="audit_entries", verbose_name=_("match")
    )
    action = models.CharField(_("action"), max_length=24, choices=Action.choices)
    summary = models.TextField(_("summary"))
    details = models.JSONField(
        _("details"), default=dict, blank=True, help_text=_("Before and after.")
    )
    reason = models.TextField(_("reason"), blank=True)

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


class League(models.Model):
    """A season: tournaments grouped so that their final ranks add up to one ranking.

    Each tournament's final rank gives the player points (``points_scale``); a player's
    ranking points are the sum of their best ``best_results`` results (all of them when
    empty). See docs/leagues.md."""

    class PointsScale(models.TextChoices):
        LINEAR = "linear", _("one point per player ranked below, plus one")
        TABLE = "table", _("a table of points per rank")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("address"), unique=True, help_text=_("Used in the league's addresses: /leagues/<address>/.")
    )
    description = models.TextField(_("description"), blank=True)
    points_scale = models.CharField(
        _("points per final rank"),
        max_length=8,
        choices=PointsScale.choices,
        default=PointsScale.LINEAR,
    )
    points_table = models.CharField(
        _("points table"),
        max_length=200,
        blank=True,
        help_text=_("With a table of points: the points of rank 1, 2, 3… separated by commas "
                    "(\"25, 18, 15, 12\"); the ranks after the last get none."),
    )
    best_results = models.PositiveSmallIntegerField(
        _("best results counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Only each player's best N tournaments count; empty: all of them."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="leagues",
        verbose_name=_("organisers"),
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(best_results__isnull=True) | Q(best_results__gte=1),
                name="league_best_results_positive",
            ),
            models.CheckConstraint(
                condition=~Q(points_scale="table") | ~Q(points_table=""),
                name="league_points_table_given",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:league", kwargs={"slug": self.slug})


class RatingChange(models.Model):
    """What one confirmed match did to one player's rating (docs/ratings.md).

    Matches count in the order of ``Match.confirmed_at`` (then the match's id): ``at`` and
    ``match`` are that key, copied here so that the history reads in order without a join.
    Rows are derived data: ``tournament.ratings.services`` deletes and writes them again
    from the first match a change touches, so the same history always gives the same rows.
    """

    player = models.ForeignKey(
        Player, models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    match = models.ForeignKey(
        Match, models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="rating_changes", verbose_name=_("tournament")
    )
    at = models.DateTimeField(_("at"), help_text=_("The match's confirmation."))
    rank = models.PositiveSmallIntegerField(_("rank at the table"), help_text=_("From 1."))
    mu_before = models.FloatField(_("mean before"))
    sigma_before = models.FloatField(_("uncertainty before"))
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["at", "match_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["player", "at", "match"], name="rating_change_history"),
            models.Index(fields=["at", "match"], name="rating_change_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class PlayerRating(models.Model):
    """A player's current rating, kept from their rating changes for the lists to read in
    one query: ``conservative`` is the mean minus three uncertainties (docs/ratings.md)."""

    player = models.OneToOneField(
        Player, models.CASCADE, primary_key=True, related_name="rating", verbose_name=_("player")
    )
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    conservative = models.FloatField(_("rating"), db_index=True)
    matches = models.PositiveIntegerField(_("rated matches"))
    last_tournament = models.ForeignKey(
        Tournament,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last event"),
    )
    last_event_change = models.FloatField(
        _("change at the last event"), default=0,
        help_text=_("The rating after the last event minus the rating before it."),
    )

    class Meta:
        verbose_name = _("player's rating")
        verbose_name_plural = _("players' ratings")
        ordering = ["-conservative", "player_id"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.conservative:.2f}"


class PlayerMerge(AppendOnlyEntry):
    """Append-only log of merged player records: which record was merged into which, what
    the merged record said and what moved (registrations, seats), and why."""

    kept = models.ForeignKey(
        Player, models.PROTECT, related_name="merges_kept", verbose_name=_("kept record")
    )
    merged = models.ForeignKey(
        Player, models.PROTECT, related_name="merges_merged", verbose_name=_("merged record")
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("reason"))

    class Meta:
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="player_merge_has_reason"),
            models.CheckConstraint(
                condition=~Q(kept=models.F("merged")), name="player_merge_two_records"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.merged_id} → {self.kept_id}"
