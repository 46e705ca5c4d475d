"""A person across tournaments: their career page and its PDF, and the merge of two records.

- ``/players/<id>/``: every tournament the player entered (those the reader may see), their
  final rank there, every match, their rating, and two charts drawn on the server as SVG.
  A merged record's address leads (301) to the record kept, for a reader who may see one of
  its tournaments (404 otherwise, as for no record at all).
- ``/players/<id>/career.pdf``: the same, printable (``?html``: the HTML it is made from).
- ``/players/<id>/merge/``: an organiser merges another record of the same person with this
  one (``tournament.players.services.players_merge``), after seeing both side by side.
"""

from __future__ import annotations

from functools import cached_property

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournament.core.permissions import may_merge
from tournament.kit.forms import add_service_errors
from tournament.kit.pdf import PdfView, readers_key
from tournament.models import Player
from tournament.players import selectors, services
from tournament.players.charts import career_charts
from tournament.players.forms import PlayerMergeForm
from tournament.players.tables import CareerMatchesTable, CareerTournamentsTable


class PlayerMixin:
    """Loads ``self.player`` from the address (404 when there is none); a merged record's
    address answers with a permanent redirect to the same page of the record kept, to whoever
    may see one of the tournaments it was in (a 404 to the others, as for no record)."""

    player: Player
    follows_merges = True

    def dispatch(self, request, *args, **kwargs):
        self.player = selectors.player_or_404(kwargs["player_id"])
        if self.player.merged_into_id is not None:
            if not self.follows_merges or not selectors.merged_record_visible(
                player=self.player, user=request.user
            ):
                raise Http404
            kept = selectors.player_kept(self.player)
            name = request.resolver_match.view_name
            return HttpResponsePermanentRedirect(reverse(name, kwargs={"player_id": kept.pk}))
        return super().dispatch(request, *args, **kwargs)

    @cached_property
    def career(self) -> dict:
        return selectors.player_career(player=self.player, user=self.request.user)


class PlayerCareerView(PlayerMixin, TemplateView):
    """/players/<id>/: one person, every tournament, every match, their rating, two charts."""

    template_name = "tournament/players/career.html"
    http_method_names = ["get", "head"]

    def get_context_data(self, **kwargs):
        career = self.career
        tournaments_table = CareerTournamentsTable(career["tournaments"], prefix="tournament-")
        matches_table = CareerMatchesTable(career["matches"][::-1], prefix="match-")
        user = self.request.user
        return super().get_context_data(
            **career,
            **career_charts(career),
            tournaments_table=tournaments_table,
            matches_table=matches_table,
            user_may_merge=(
                user.is_authenticated and may_merge(user=user, records=[self.player])
            ),
            **kwargs,
        )


class PlayerCareerPdfView(PlayerMixin, PdfView):
    """/players/<id>/career.pdf: the career printed, with the same charts, as the reader may
    see it. Kept once made and compared by what it shows (``PdfView.data_version`` None: a
    career spans tournaments, and a rating moves with other players' matches), made again by
    one worker at a time when that changed; the readers who see the same tournaments (and
    the licence, or not) share the copy."""

    template_name = "printing/player_career.html"

    def cache_name(self) -> str:
        career = self.career
        shown = readers_key(entry["tournament"].pk for entry in career["tournaments"])
        return f"career:{self.player.pk}:{shown}:{int(career['show_licence'])}"

    def data_version(self) -> None:
        return None

    def document_context(self):
        career = self.career
        return {
            **career,
            **career_charts(career),
            "matches": career["matches"][::-1],
        }

    def filename(self) -> str:
        return f"player-{self.player.pk}-career.pdf"


class PlayerMergeView(PlayerMixin, View):
    """/players/<id>/merge/: choose the other record, see both side by side, confirm.

    Who may: a superuser, or an organiser of every tournament in which either record is
    registered (``may_merge``). Anonymous: the login page; a record the user may
    not see: 404; one they may see but not merge: 403.
    """

    template_name = "tournament/players/merge.html"
    http_method_names = ["get", "post"]
    follows_merges = False

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return super().dispatch(request, *args, **kwargs)

    def allowed(self, *records: Player) -> None:
        self.career  # 404 when the user may not see this record  # noqa: B018
        if not may_merge(user=self.request.user, records=records):
            raise PermissionDenied

    def get(self, request, *args, **kwargs):
        self.allowed(self.player)
        return self.render(PlayerMergeForm(player=self.player, user=request.user))

    def post(self, request, *args, **kwargs):
        self.allowed(self.player)
        form = PlayerMergeForm(request.POST, player=self.player, user=request.user)
        if not form.is_valid():
            return self.render(form, status=400)
        kept, merged = form.records()
        self.allowed(kept, merged)
        if "confirm" not in request.POST:
            try:
                services.players_merge_check(kept=kept, merged=merged)
            except ValidationError as error:
                add_service_errors(form, error)
                return self.render(form, records=(kept, merged), status=400)
            return self.render(form, records=(kept, merged))
        try:
            services.players_merge(
                kept=kept, merged=merged, user=request.user, reason=form.cleaned_data["reason"]
            )
        except ValidationError as error:
            add_service_errors(form, error)
            return self.render(form, records=(kept, merged), status=400)
        messages.success(request, _("%(merged)s (record %(merged_id)s) is merged into "
                                    "%(kept)s (record %(kept_id)s).") % {
            "merged": merged.name, "merged_id": merged.pk, "kept": kept.name, "kept_id": kept.pk,
        })
        return redirect("tournament:player_career", player_id=kept.pk)

    def render(self, form, *, records=None, status=200):
        context = {"player": self.player, "form": form, "records": None}
        if records is not None:
            context["records"] = selectors.merge_records(kept=records[0], merged=records[1])
        return TemplateResponse(self.request, self.template_name, context, status=status)
