"""What an archive (``records.zip``) carries of where it comes from: this installation's own
identity, and, for a tournament made here from another's archive, that archive's identity
(docs/reference/record-format.md, "The tournament archive")."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament


class Installation(models.Model):
    """This installation: one row, made the first time an archive is exported, whose ``uuid``
    every archive it exports carries (with the tournament's id here). A copy of the database
    (a backup restored) keeps it: it is the same installation."""

    uuid = models.UUIDField(_("identity"), default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("installation")
        verbose_name_plural = _("installations")

    def __str__(self) -> str:
        return self.uuid.hex

    @classmethod
    def identity(cls) -> str:
        """This installation's identity (32 hexadecimal digits), made on first need."""
        installation, _created = cls.objects.get_or_create(pk=1)
        return installation.uuid.hex


class ArchiveImport(models.Model):
    """A tournament made here from an archive: the archive's identity, so that the same
    archive is not imported twice (twice imported, its matches would count twice in every
    rating). ``installation`` and ``source_tournament`` are blank for an archive made before
    archives carried them; ``matches_digest`` is always known, computed from its records: what
    they say (``tournament.archive.export.matches_content_digest``, whatever their bytes), or,
    for an import made before it was kept, the digest of their bytes.

    The database holds one import of an archive that is not a copy (by its installation and
    tournament, and by its matches): two imports at once of one archive cannot both pass.
    A copy (``copy``, asked for explicitly) is never rated (``Tournament.archive_copy``)."""

    tournament = models.OneToOneField(
        Tournament, models.CASCADE, related_name="archive_import", verbose_name=_("tournament")
    )
    installation = models.CharField(_("installation"), max_length=64, blank=True)
    source_tournament = models.PositiveBigIntegerField(
        _("tournament there"), null=True, blank=True,
        help_text=_("The tournament's id on the installation that exported it."),
    )
    matches_digest = models.CharField(_("digest of its matches"), max_length=64)
    copy = models.BooleanField(_("copy"), default=False)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("imported by"),
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("archive imported")
        verbose_name_plural = _("archives imported")
        constraints = [
            models.UniqueConstraint(
                fields=["installation", "source_tournament"],
                condition=Q(copy=False) & ~Q(installation=""),
                name="archive_import_once",
            ),
            models.UniqueConstraint(
                fields=["matches_digest"], condition=Q(copy=False),
                name="archive_import_matches_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} ← {self.installation or '?'}/{self.source_tournament}"
