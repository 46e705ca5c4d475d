"""A table's scorer: the phone that keeps a match's score when its session's matches are
entered by the tables (``Session.entry_by_tables``; tournament.matches.scorers)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.base import AppendOnlyEntry
from tournament.models.matches import Match, Round


class TableScorer(models.Model):
    """The scorer link of a match and the device it binds.

    The link is not stored: it is made from ``salt`` and the site's secret key
    (``tournament.matches.scorers.scorer_token``), so a copy of the database opens no table,
    and the score sheet printed again carries the same link. A new salt (the sheet handed to
    another phone) makes a new link and refuses the old one. ``device`` is the id of the phone
    bound (blank: none); ``locked``: the link is refused and a referee enters the match."""

    match = models.OneToOneField(
        Match, models.CASCADE, related_name="scorer", verbose_name=_("match")
    )
    salt = models.CharField(_("salt"), max_length=32)
    device = models.CharField(_("device bound"), max_length=32, blank=True)
    bound_at = models.DateTimeField(_("bound at"), null=True, blank=True)
    locked = models.BooleanField(_("locked by a referee"), default=False)
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)

    class Meta:
        verbose_name = _("table's scorer")
        verbose_name_plural = _("tables' scorers")

    def __str__(self) -> str:
        return f"{self.match_id}: {self.device or '-'}"


class RoundSignature(AppendOnlyEntry):
    """A seat's word on a round as it stood: agreed, or disputed with its reason
    (``tournament.matches.signatures``). ``digest`` names the round's content signed (its
    current turns and end, its scores and the match's totals after it, not a later round's):
    a correction makes a new digest, and the signatures of the old one no longer count.
    ``device``: the phone it was given on (the table's scorer phone, passed round, or the
    seat's own)."""

    round = models.ForeignKey(
        Round, models.CASCADE, related_name="signatures", verbose_name=_("round")
    )
    seat = models.PositiveSmallIntegerField(_("seat"), help_text=_("The seat order, from 0."))
    digest = models.CharField(_("round signed"), max_length=64)
    agreed = models.BooleanField(_("agreed"))
    reason = models.TextField(_("reason"), blank=True)
    device = models.CharField(_("device"), max_length=32, blank=True)
    own_phone = models.BooleanField(_("from the seat's own phone"), default=False)

    class Meta:
        verbose_name = _("round's signature")
        verbose_name_plural = _("rounds' signatures")
        ordering = ["round", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat", "digest"],
                                    name="round_signature_once_per_seat"),
            models.CheckConstraint(condition=Q(agreed=True) | ~Q(reason=""),
                                   name="round_signature_dispute_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: seat {self.seat} {'agreed' if self.agreed else 'disputed'}"
