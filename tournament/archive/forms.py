"""The past-results import's form: the archive, and what an archive without a manifest lacks."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.kit.forms import DateInput, add_service_errors, model_field
from tournament.models import Tournament

#: A records.zip upload, at most: a full match's record takes about 2 KB once zipped (14 KB
#: unpacked), so 50 MB holds every match of the largest tournament, and more; the import also
#: refuses an archive past its limits once unpacked (``tournament.archive.unzip``).
ARCHIVE_MAX_BYTES = 50_000_000


class TournamentImportForm(forms.Form):
    """A past tournament's ``records.zip`` (``tournament.archive.imports``): cleaned_data
    holds the import's keyword arguments (``clean``)."""

    file = forms.FileField(
        label=_("Archive of the tournament (records.zip)"),
        help_text=_("The file “All match records (ZIP)” that another installation of this "
                    "site gives on its tournament's organiser page."),
    )
    name = model_field(
        Tournament, "name", required=False,
        help_text=_("Blank: the name the archive gives (or the file's name, for an old archive "
                    "without it)."),
    )
    start_date = model_field(
        Tournament, "start_date", required=False, widget=DateInput(),
        help_text=_("Only for an old archive, made before archives carried the tournament's "
                    "settings: the day its matches were played (blank: today). Otherwise the "
                    "archive's own dates are kept."),
    )

    as_copy = forms.BooleanField(
        label=_("Import as a copy"),
        required=False,
        help_text=_("Only when this archive's tournament is already here: a second tournament "
                    "is made from it, whose matches count for no rating (they count once, "
                    "in the tournament already here)."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > ARCHIVE_MAX_BYTES:
            raise ValidationError(
                _("The file is too large (%(size)s bytes; at most %(max)s).")
                % {"size": upload.size, "max": ARCHIVE_MAX_BYTES},
                code="too-large",
            )
        return upload

    def clean(self):
        """The import's arguments: ``data`` (the uploaded file, read by the import within its
        limits), ``name``, ``fallback_name`` (the file's name, as the command takes it),
        ``start_date`` and ``as_copy``."""
        cleaned = super().clean()
        upload = cleaned.pop("file", None)
        if upload is not None:
            upload.seek(0)
            cleaned["data"] = upload
            stem = (upload.name or "").rsplit(".", 1)[0]
            cleaned["fallback_name"] = stem.removesuffix("-records")[:200]
        return cleaned

    def add_import_error(self, error: ValidationError) -> None:
        """The import's refusal (keyed ``archive``) next to the file field."""
        if hasattr(error, "error_dict"):
            error = ValidationError({
                "file" if key == "archive" else key: errors
                for key, errors in error.error_dict.items()})
        add_service_errors(self, error)

