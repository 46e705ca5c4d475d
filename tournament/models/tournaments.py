"""A tournament, its ranking criteria and its staff."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament import engine
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


class TimeUpAction(models.TextChoices):
    """What the session clock does when a session's time is up (docs/guides/room.md)."""

    FLAG = "flag", _("nothing but a flag")
    FINISH_ROUND = "finish-round", _("finish the round in play, then the match ends")


class MatchEntry(models.TextChoices):
    """Who enters a session's matches (docs/guides/organiser.md, "Tables that keep their own
    score"): the referees (a tablet per table, or the paper sheet typed afterwards), or the
    tables themselves, on a player's phone opened by the private link of the table's score
    sheet (``tournament.matches.scorers``)."""

    REFEREES = "referees", _("by the referees")
    TABLES = "tables", _("by the tables (a player's phone keeps the score)")


class FinalSize(models.IntegerChoices):
    """The final table the tournament ends with (docs/guides/final.md): none, or the top 4 at one
    table, or the top 8 at two."""

    NONE = 0, _("no final")
    FOUR = 4, _("a final of 4 (one table)")
    EIGHT = 8, _("a final of 8 (two tables)")


class CheckInRule(models.TextChoices):
    """Whether players check in before each session, and what an absence costs
    (docs/guides/check-in.md)."""

    OFF = "off", _("no check-in: every registered player is seated")
    FORFEIT = "forfeit", _("check-in; a player absent from a session forfeits it")
    UNRANKED = "unranked", _("check-in; a session missed counts for nothing")


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
    time_up_action = models.CharField(
        _("when a session's time is up"),
        max_length=16,
        choices=TimeUpAction.choices,
        default=TimeUpAction.FLAG,
        help_text=_("What the session clock does at time's end (docs/guides/room.md)."),
    )
    match_entry = models.CharField(
        _("matches are entered"),
        max_length=12,
        choices=MatchEntry.choices,
        default=MatchEntry.REFEREES,
        help_text=_("By the referees, or by the tables: each table's score sheet then carries "
                    "a private link that makes a player's phone the table's scorer; a session "
                    "may choose otherwise (docs/guides/organiser.md)."),
    )
    screen_seconds = models.PositiveSmallIntegerField(
        _("projector: seconds per view"),
        default=15,
        validators=[MinValueValidator(5), MaxValueValidator(300)],
        help_text=_("How long the projector screen shows each view before the next one."),
    )
    screen_top = models.PositiveSmallIntegerField(
        _("projector: players per standings page"),
        default=10,
        validators=[MinValueValidator(3), MaxValueValidator(30)],
        help_text=_("The standings on the projector: the top N first, then pages of N."),
    )
    check_in = models.CharField(
        _("check-in"),
        max_length=12,
        choices=CheckInRule.choices,
        default=CheckInRule.OFF,
        help_text=_("With check-in, only the players marked present are seated at a session "
                    "(docs/guides/check-in.md)."),
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
    final_size = models.PositiveSmallIntegerField(
        _("final table"),
        choices=FinalSize.choices,
        default=FinalSize.NONE,
        help_text=_("After the qualifying sessions, the top players play one more match that "
                    "decides their places (docs/guides/final.md); fixed once the final is open."),
    )
    # Club teams and prizes (docs/guides/categories.md): a club's ranking from its best players.
    team_size = models.PositiveSmallIntegerField(
        _("club teams: players counted"),
        default=0,
        blank=True,
        validators=[MaxValueValidator(20)],
        help_text=_("A club's ranking adds up its best N players' results. 0 or blank: no "
                    "club ranking."),
    )
    team_criterion = models.CharField(
        _("club teams: results added up"),
        max_length=20,
        choices=RankingCriterion.choices,
        default=RankingCriterion.MATCH_POINTS,
    )
    prize_count = models.PositiveSmallIntegerField(
        _("prize list: places per category"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_("How many places the printed prize list gives each category."),
    )
    prize_one_per_player = models.BooleanField(
        _("prize list: one prize per player"),
        default=False,
        help_text=_("A player who takes a prize higher on the list (overall first, then the "
                    "categories by name) is left out of the next categories' prizes."),
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
        help_text=_("Its confirmed matches update the players' ratings (once the tournament "
                    "is public)."),
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Visible to everyone, without logging in.")
    )
    archive_copy = models.BooleanField(
        _("copy of an archive already here"),
        default=False,
        editable=False,
        help_text=_("Imported again, as a copy, from an archive of a tournament already here: "
                    "its matches count for no rating, or they would count twice."),
    )
    # A referee's practice table (tournament.practice): a tournament of its own, private,
    # unrated and in no league, so that its match counts nowhere.
    practice_of = models.ForeignKey(
        "self", models.CASCADE, null=True, blank=True, editable=False,
        related_name="practice_tournaments", verbose_name=_("practice table of"),
    )
    practice_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, null=True, blank=True, editable=False,
        related_name="+", verbose_name=_("practice table for"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    data_version = models.PositiveBigIntegerField(
        _("data version"),
        default=0,
        editable=False,
        help_text=_("Raised by every write that changes what the tournament's pages show."),
    )
    results_version = models.PositiveBigIntegerField(
        _("results version"),
        default=0,
        editable=False,
        help_text=_("Raised by every write except a turn that leaves every match's state as it "
                    "was: what the standings show."),
    )
    setup_version = models.PositiveBigIntegerField(
        _("setup version"),
        default=0,
        editable=False,
        help_text=_("Raised with the results version by every write but a match's own: what "
                    "a match shows of its tournament beyond its own rows (the players' names, "
                    "the rules, the seating)."),
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
            models.CheckConstraint(
                condition=Q(archive_copy=False) | Q(is_rated=False),
                name="tournament_copy_not_rated",
            ),
            models.CheckConstraint(
                condition=Q(final_size__in=[0, 4, 8]), name="tournament_final_size_known"
            ),
            models.CheckConstraint(
                condition=Q(practice_of__isnull=True, practice_for__isnull=True)
                | Q(practice_of__isnull=False, practice_for__isnull=False, is_public=False,
                    is_rated=False, league__isnull=True),
                name="tournament_practice_counts_nowhere",
            ),
            models.UniqueConstraint(
                fields=["practice_of", "practice_for"],
                condition=Q(practice_of__isnull=False),
                name="tournament_one_practice_per_referee",
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
    def counts_for_ratings(self) -> bool:
        """Its confirmed matches count for the players' ratings: rated, and public. A rating
        is one figure that everyone reads (docs/guides/ratings.md): a private tournament's results
        moving it would show them to people who may not see the tournament."""
        return self.is_rated and self.is_public

    @property
    def is_practice(self) -> bool:
        """A referee's practice table (docs/guides/referee.md), not a real tournament."""
        return self.practice_of_id is not None

    @property
    def uses_check_in(self) -> bool:
        return self.check_in != CheckInRule.OFF

    @property
    def effective_target(self) -> int:
        """The target score: the override, else the rule set's."""
        return self.rule_set.target

    def ranking_criteria_labels(self) -> list[str]:
        labels = dict(RankingCriterion.choices)
        return [labels.get(code, code) for code in self.ranking_criteria]


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


class StaffInvitation(models.Model):
    """A role offered to an account, held once the account accepts it after logging in: an
    organiser gives nobody a role without their consent (a superuser does, in the admin and on
    the Staff page). Kept by username, whether an account of that name exists or not, so that
    the organiser's page answers the same either way; an invitation lapses after
    ``DAYS`` days."""

    #: How long an invitation waits for its account.
    DAYS = 14

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="staff_invitations",
        verbose_name=_("tournament"),
    )
    username = models.CharField(_("username"), max_length=150)
    role = models.CharField(_("role"), max_length=12, choices=StaffRole.Role.choices)
    tables = models.CharField(
        _("tables"), max_length=100, blank=True, validators=[validate_table_numbers],
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("invited at"), default=timezone.now)

    class Meta:
        verbose_name = _("staff invitation")
        verbose_name_plural = _("staff invitations")
        ordering = ["tournament", "username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "username"],
                                    name="staff_invitation_once_per_username"),
            models.CheckConstraint(
                condition=~Q(role="organiser") | Q(tables=""),
                name="staff_invitation_organiser_has_every_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} — {self.get_role_display()} — {self.tournament}"

    @classmethod
    def pending(cls):
        """The invitations that have not lapsed."""
        return cls.objects.filter(
            created_at__gte=timezone.now() - datetime.timedelta(days=cls.DAYS))
