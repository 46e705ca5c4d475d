"""A tournament's archive: every match's record as one ZIP (for its staff), and a past
tournament rebuilt from such an export."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, View

from tournament.archive import export
from tournament.archive.forms import TournamentImportForm
from tournament.archive.imports import ArchiveAlreadyHere, past_results_import
from tournament.core.permissions import PermissionMixin, RefereeRequiredMixin, can_create_tournament


class TournamentRecordsZipView(RefereeRequiredMixin, View):
    """Every match of the tournament that has a turn, its record and an index, as one ZIP
    (tournament/matches/export.py): for its organisers and referees."""

    http_method_names = ("get", "head")

    def get(self, request, *args, **kwargs):
        content = export.tournament_records_zip(tournament=self.tournament)
        response = HttpResponse(content, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="{self.tournament.slug}-records.zip"'
        return response


class TournamentImportView(PermissionMixin, FormView):
    """/tournaments/import/: a past tournament rebuilt from its records.zip (who may create a
    tournament may import one); the user becomes its organiser."""

    template_name = "tournament/archive/tournament_import.html"
    form_class = TournamentImportForm

    def has_permission(self) -> bool:
        user = self.request.user
        return user.is_authenticated and can_create_tournament(user)

    def form_valid(self, form):
        try:
            imported = past_results_import(organiser=self.request.user, **form.cleaned_data)
        except ArchiveAlreadyHere as error:
            form.add_import_error(error)
            return self.form_invalid(form, already_here=error.tournament)
        except ValidationError as error:
            form.add_import_error(error)
            return self.form_invalid(form)
        message = _("“%(name)s” is imported. Sessions: %(sessions)s; matches: %(matches)s; new "
                    "players: %(created)s.") % {
            "name": imported.tournament.name, "sessions": imported.sessions,
            "matches": imported.matches, "created": imported.players_created}
        if imported.players_linked:
            message += " " + _("Players of your tournaments, linked to their records: "
                               "%(names)s.") % {"names": ", ".join(imported.players_linked)}
        if imported.copy:
            message += " " + _("This is a copy of a tournament already here: its matches "
                               "count for no rating.")
        messages.success(self.request, message, extra_tags="results-imported")
        return redirect(imported.tournament)

    def form_invalid(self, form, already_here=None):
        return self.render_to_response(
            self.get_context_data(form=form, already_here=already_here), status=400)
