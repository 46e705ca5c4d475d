"""A session of a tournament, its audit log, its tables and who sits where."""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.models.base import AppendOnlyEntry
from tournament.models.players import Player
from tournament.models.tournaments import MatchEntry, Tournament


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
    is_final = models.BooleanField(
        _("final"), default=False, editable=False,
        help_text=_("The final table: seated from the standings, its result decides the "
                    "finalists' places (docs/guides/final.md)."),
    )
    # The session clock (tournament.room.clock): a duration, run from clock_started_at while it
    # runs; clock_elapsed holds the seconds run before (the pauses left out).
    clock_seconds = models.PositiveIntegerField(
        _("session time"), null=True, blank=True,
        help_text=_("The session's time in seconds, extra minutes included; blank: no clock."),
    )
    clock_started_at = models.DateTimeField(_("clock running since"), null=True, blank=True)
    clock_elapsed = models.PositiveIntegerField(
        _("seconds run before"), default=0,
        help_text=_("Seconds the clock ran before its last start (its pauses left out)."),
    )
    time_up_at = models.DateTimeField(
        _("time up at"), null=True, blank=True,
        help_text=_("When the session's time ran out and the tournament's setting was applied."),
    )
    match_entry = models.CharField(
        _("matches are entered"), max_length=12, blank=True, default="",
        choices=MatchEntry.choices,
        help_text=_("Blank: as the tournament says (Tournament.match_entry)."),
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
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(is_final=True), name="session_one_final"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, session %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }

    @property
    def entry_by_tables(self) -> bool:
        """Are this session's matches entered by the tables (their scorer phones)? The
        session's own choice, else the tournament's."""
        return (self.match_entry or self.tournament.match_entry) == MatchEntry.TABLES

    def get_absolute_url(self) -> str:
        return reverse(
            "tournament:session", kwargs={"slug": self.tournament.slug, "number": self.number}
        )


class SessionAuditEntry(AppendOnlyEntry):
    """Append-only log of a session's closing and reopening: who, when, why.

    A closed session's results are final; the organiser may reopen it with a reason (to
    correct a match), and closes it again as usual. Both are kept here and shown on the
    session's page."""

    class Action(models.TextChoices):
        CLOSED = "closed", _("session closed")
        REOPENED = "reopened", _("session reopened")
        CLOCK = "clock", _("session clock")
        TIME_UP = "time-up", _("time up")
        CALLED = "referee-called", _("referee called")
        ANSWERED = "call-answered", _("call answered")

    session = models.ForeignKey(
        Session, models.CASCADE, related_name="audit_entries", verbose_name=_("session")
    )
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
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

    #: The log's parts, as the session's page shows them: closing and reopening, the
    #: session clock, the calls for a referee.
    CATEGORIES = {
        Action.CLOSED: "session", Action.REOPENED: "session", Action.CLOCK: "clock",
        Action.TIME_UP: "clock", Action.CALLED: "calls", Action.ANSWERED: "calls",
    }

    @property
    def category(self) -> str:
        return self.CATEGORIES.get(self.action, "session")

    @staticmethod
    def code(*parts: object) -> str:
        """The ``reason`` of an entry the server writes (the clock's, a call's): its facts as
        a code ("clock:set:90", "call:2:dispute:1"), put in words in the reader's language
        by :meth:`summary`, never in the language of whoever wrote it."""
        return ":".join(str(part) for part in parts)

    def summary(self) -> str:
        """What the entry says beyond its action, in the active language: a reopening's
        reason as typed; the clock's and the calls' facts from their code. An entry written
        before the codes keeps its text."""
        if self.action not in (self.Action.CLOCK, self.Action.CALLED, self.Action.ANSWERED):
            return self.reason
        kind, *facts = self.reason.split(":")
        try:
            if kind == "clock":
                return self._clock_summary(*facts)
            if kind == "call":
                return self._call_summary(*facts)
        except (TypeError, ValueError, KeyError):
            pass
        return self.reason

    @staticmethod
    def _clock_summary(change: str, *facts: str) -> str:
        if change == "set":
            return gettext("time set: %(minutes)s min") % {"minutes": int(facts[0])}
        if change == "added":
            return gettext("%(minutes)s extra min") % {"minutes": int(facts[0])}
        return {"started": gettext("clock started"), "resumed": gettext("clock resumed"),
                "paused": gettext("clock paused"), "removed": gettext("clock removed")}[change]

    @staticmethod
    def _call_summary(table: str, reason: str = "", times: str = "1") -> str:
        if not reason:  # answered
            return gettext("table %(table)s") % {"table": int(table)}
        # the room's models import these: the call's model is looked up, not imported
        label = apps.get_model("tournament", "RefereeCall").Reason(reason).label
        if int(times) > 1:
            return gettext("table %(table)s: %(reason)s (call %(times)s)") % {
                "table": int(table), "reason": label, "times": int(times)}
        return gettext("table %(table)s: %(reason)s") % {"table": int(table), "reason": label}


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


class CheckIn(models.Model):
    """A player marked present for a session before it is seated (docs/guides/check-in.md): with
    the tournament's check-in on, only they are seated."""

    session = models.ForeignKey(
        Session, models.CASCADE, related_name="check_ins", verbose_name=_("session")
    )
    player = models.ForeignKey(
        Player, models.CASCADE, related_name="check_ins", verbose_name=_("player")
    )
    at = models.DateTimeField(_("at"), default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("checked in by"),
    )

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["session", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "player"], name="check_in_once_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session}: {self.player.name}"
