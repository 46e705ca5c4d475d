"""The league's forms: they validate the input; the services (leagues/services.py) save it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.leagues.services import points_table_clean
from tournament.models import League, Tournament

FIELDS = ("name", "description", "points_scale", "points_table", "best_results", "is_public")


def _model_field(name: str, **kwargs):
    """The model field's form field: its label, length and help text, in one place."""
    return League._meta.get_field(name).formfield(**kwargs)


class LeagueForm(forms.Form):
    """A league's name, description, rule and visibility."""

    name = _model_field("name")
    description = _model_field("description", widget=forms.Textarea(attrs={"rows": 3}))
    points_scale = _model_field("points_scale", widget=forms.RadioSelect)
    points_table = _model_field("points_table")
    best_results = _model_field("best_results", min_value=1)
    is_public = _model_field("is_public")

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
                for field, errors in error.error_dict.items():
                    self.add_error(field, errors)
        return cleaned


class LeagueCreateForm(LeagueForm):
    slug = _model_field(
        "slug",
        label=_("Short name in the web address"),
        help_text=_("Lower-case letters, digits and hyphens, for example season-2027. It "
                    "appears in the address of the league's pages."),
    )

    field_order = ["name", "slug"]


class LeagueTournamentForm(forms.Form):
    """The tournament to add: one the user organises that is in no league yet."""

    tournament = forms.ModelChoiceField(
        label=_("Tournament"),
        queryset=Tournament.objects.none(),
        to_field_name="slug",
        empty_label=None,
    )

    def __init__(self, *args, tournaments=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournaments is not None:
            self.fields["tournament"].queryset = tournaments
