"""What the logs and the versioned results share: append-only entries, and versions that a
correction supersedes instead of overwriting."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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
