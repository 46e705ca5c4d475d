"""A table's scorer: the phone that keeps a match's score when its session's matches are
entered by the tables (``Session.entry_by_tables``; tournament.matches.scorers)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.matches import Match


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
