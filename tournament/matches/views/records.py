"""The match's record: downloaded as JSON, uploaded to fill an empty match; and its audit log."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View
from django_tables2 import RequestConfig

from tournament.core.permissions import is_referee
from tournament.matches import selectors, services
from tournament.matches.forms.entry import RecordUploadForm
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.rows import match_record
from tournament.matches.tables import AuditTable
from tournament.matches.views.base import MatchMixin, MatchWriteView, with_refusal


class MatchRecordView(MatchMixin, View):
    """The match record (docs/reference/record-format.md, with the referee's decisions), as a download."""

    http_method_names = ("get", "head")

    def get(self, request, *args, **kwargs):
        record = match_record(match=self.match)
        table = self.match.table
        response = HttpResponse(record.to_json(), content_type="application/json")
        filename = f"{self.tournament.slug}-session-{table.session.number}-table-{table.number}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class MatchRecordUploadView(MatchWriteView):
    """Fill an empty match from a record file."""

    def post(self, request, *args, **kwargs):
        form = RecordUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.refused(upload_form=form)
        return self.written(
            services.match_record_import, seen_revision=form.cleaned_data["revision"],
            record=form.cleaned_data["record"],
            names_must_match=not form.cleaned_data["names_in_seat_order"],
            done=lambda written: self.done(_("Record imported."), written),
            refused=lambda error: self.refused(upload_form=with_refusal(form, error)))


class MatchAuditView(MatchMixin, View):
    """Every entry and correction of the match: who, when, what (before, after), why."""

    http_method_names = ("get", "head")

    def has_permission(self) -> bool:
        return is_referee(self.request.user, self.tournament)

    def get(self, request, *args, **kwargs):
        replay = match_replay(match=self.match)
        names = [seat.name for seat in replay.seats]
        table = AuditTable(
            selectors.match_audit_entries(match=self.match), names=names, rounds=replay.rounds,
            orderable=False)
        RequestConfig(request, paginate=False).configure(table)
        return TemplateResponse(request, "tournament/matches/audit.html", {
            "tournament": self.tournament, "match": self.match, "replay": replay,
            "audit_table": table,
        })
