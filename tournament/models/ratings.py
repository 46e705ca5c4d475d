"""Ratings across tournaments, and the log of merged player records."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.base import AppendOnlyEntry
from tournament.models.matches import Match
from tournament.models.players import Player
from tournament.models.tournaments import Tournament


class RatingChange(models.Model):
    """What one confirmed match did to one player's rating (docs/guides/ratings.md).

    Matches count in the order they were played: the tournament's start date, the session's
    number, then ``Match.confirmed_at`` and the match's id within a session; ``played_on``,
    ``session``, ``at`` and ``match`` are that key, copied here so that the history reads in
    order without a join.
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
    played_on = models.DateField(
        _("played on"), default=datetime.date.min,
        help_text=_("The tournament's start date: the history's first key."))
    session = models.PositiveSmallIntegerField(_("session"), default=0)
    at = models.DateTimeField(_("at"), help_text=_("The match's confirmation."))
    rank = models.PositiveSmallIntegerField(_("rank at the table"), help_text=_("From 1."))
    mu_before = models.FloatField(_("mean before"))
    sigma_before = models.FloatField(_("uncertainty before"))
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    shown_before = models.FloatField(_("rating before"), default=0.0)
    shown = models.FloatField(
        _("rating"), default=0.0,
        help_text=_("The rating shown after the match: never lower after a win, never higher "
                    "after finishing last (docs/guides/ratings.md)."),
    )

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["played_on", "session", "at", "match_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_once"),
        ]
        indexes = [
            models.Index(fields=["player", "played_on", "session", "at", "match"],
                         name="rating_change_history"),
            models.Index(fields=["played_on", "session", "at", "match"],
                         name="rating_change_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class PlayerRating(models.Model):
    """A player's current rating, kept from their rating changes for the lists to read in
    one query: ``conservative`` is the rating shown, the sum of the changes of the mean minus
    three uncertainties, each kept from going against the result at the table
    (``tournament.ratings.model.shown_change``; docs/guides/ratings.md)."""

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
