"""A person who plays (one record across tournaments) and their registration in a tournament."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament
from tournament.names import name_sort_key, search_key


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Django's, the records' search keys filled first (``save()`` fills them one by one)."""
        objs = list(objs)
        for player in objs:
            player.name_search_key = search_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A person. Players are shared between tournaments; a Registration enters one.

    A licence number is not unique across the installation: an organiser links a new
    registration by licence to the players of their own tournaments only, so two organisers
    may each hold a record of one licence until a merge joins them (docs/guides/players.md)."""

    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence number"), max_length=40, blank=True)
    #: The name as a search compares it (``tournament.names.search_key``: accents, case and
    #: ligatures aside), kept by ``save()`` and ``bulk_create()`` so that the database finds
    #: "ÉMILE" for "émile", which SQLite's ``lower()`` does not (it folds ASCII only). A text:
    #: folding can lengthen a name ("ß" is "ss").
    name_search_key = models.TextField(editable=False, default="")
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
        indexes = [
            models.Index(fields=["licence"], name="player_licence"),
            models.Index(fields=["name_search_key"], name="player_name_search_key"),
        ]

    objects = PlayerQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    def save(self, *args, **kwargs) -> None:
        self.name_search_key = search_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_search_key"}
        super().save(*args, **kwargs)

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

    @staticmethod
    def plays_in(number: int) -> Q:
        """The registrations that play in session ``number``: not withdrawn, and arrived by
        it (a late arrival plays from its ``first_session`` on)."""
        return ~Q(status=Registration.Status.WITHDRAWN) & (
            Q(first_session__isnull=True) | Q(first_session__lte=number))

    @staticmethod
    def plays_in_values(*, status: str, first_session: int | None, number: int) -> bool:
        """:meth:`plays_in` for values already read."""
        return status != Registration.Status.WITHDRAWN and (
            first_session is None or first_session <= number)
