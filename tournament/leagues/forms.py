"""The league's forms: they validate the input; the services (leagues/services.py) save it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.core.tournaments import tournament_label
from tournament.kit.forms import add_service_errors, model_field, slug_field
from tournament.leagues.services import points_table_clean
from tournament.models import League, Tournament

FIELDS = ("name", "description", "points_scale", "points_table", "best_results", "is_public")


class LeagueForm(forms.Form):
    """A league's name, description, rule and visibility."""

    name = model_field(League, "name")
    description = model_field(League, "description", widget=forms.Textarea(attrs={"rows": 3}))
    points_scale = model_field(League, "points_scale", widget=forms.RadioSelect)
    points_table = model_field(League, "points_table")
    best_results = model_field(League, "best_results", min_value=1)
    is_public = model_field(League, "is_public")

    @classmethod
    def initial_from(cls, league: League) -> dict:
        return {name: getattr(league, name) for name in FIELDS}

    def clean(self):
        cleaned = super().clean()
        scale = cleaned.get("points_scale")
        if scale is not None and "points_table" in cleaned:
            try:
                cleaned["points_table"] = points_table_clean(
                    points_scale=scale, points_table=cleaned["points_table"]
                )
            except ValidationError as error:
                add_service_errors(self, error)
        return cleaned


class LeagueCreateForm(LeagueForm):
    slug = slug_field(
        League,
        help_text=_("Lower-case letters, digits and hyphens, for example season-2027. It "
                    "appears in the address of the league's pages."),
    )

    field_order = ["name", "slug"]


class TournamentChoiceField(forms.ModelChoiceField):
    """A tournament named by its name, dates, venue and address (``tournament_label``): two
    alike, an archive and its copy, are told apart."""

    def label_from_instance(self, obj) -> str:
        return tournament_label(obj)


class LeagueTournamentForm(forms.Form):
    """The tournament to add: one the user organises that is in no league yet."""

    tournament = TournamentChoiceField(
        label=_("Tournament"),
        queryset=Tournament.objects.none(),
        to_field_name="slug",
        empty_label=None,
    )

    def __init__(self, *args, tournaments=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournaments is not None:
            self.fields["tournament"].queryset = tournaments
