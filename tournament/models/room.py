"""What the room adds to a session: the players' calls for a referee and the organiser's
announcements on the projector screen (tournament.room)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.sessions import Session, Table
from tournament.models.tournaments import Tournament


class RefereeCall(models.Model):
    """A table's call for a referee, open until someone answers it; a table has one open call
    at most (calls made again meanwhile are merged into it: ``times``)."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("a dispute")
        QUESTION = "question", _("a question")
        TILES = "tiles-missing", _("tiles missing")
        OTHER = "other", _("something else")

    session = models.ForeignKey(
        Session, models.CASCADE, related_name="referee_calls", verbose_name=_("session")
    )
    table = models.ForeignKey(
        Table, models.CASCADE, related_name="referee_calls", verbose_name=_("table")
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    last_called_at = models.DateTimeField(_("last called at"), default=timezone.now)
    times = models.PositiveSmallIntegerField(_("calls"), default=1)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("answered by"),
    )

    class Meta:
        verbose_name = _("call for a referee")
        verbose_name_plural = _("calls for a referee")
        ordering = ["session", "called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(answered_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
            models.CheckConstraint(condition=Q(times__gte=1), name="referee_call_times_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.get_reason_display()}"


class Announcement(models.Model):
    """A message of the organiser's, shown on the projector screen while it is on."""

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="announcements", verbose_name=_("tournament")
    )
    text = models.CharField(_("text"), max_length=280)
    is_shown = models.BooleanField(_("shown on the projector"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["tournament", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.text
