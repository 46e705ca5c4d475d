"""The merge form: which record to merge with this one (by its number or its licence), which
of the two is kept, and why. The other record is looked for among those the user may name
(``tournament.players.selectors.merge_candidate``): a record they may not see is answered as
no record at all."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Player
from tournament.players.selectors import merge_candidate


class PlayerMergeForm(forms.Form):
    KEEP_THIS = "this"
    KEEP_OTHER = "other"

    other_id = forms.IntegerField(
        label=_("Other record's number"), required=False, min_value=1,
        help_text=_("The number in the address of its page: /players/<number>/."),
    )
    other_licence = forms.CharField(
        label=_("or its licence number"), required=False,
        max_length=Player._meta.get_field("licence").max_length,
    )
    keep = forms.ChoiceField(
        label=_("Record kept"),
        choices=[(KEEP_THIS, _("this record")), (KEEP_OTHER, _("the other record"))],
        initial=KEEP_THIS,
        widget=forms.RadioSelect,
        help_text=_("The kept record's name, club and licence stay as they are; the other "
                    "record's tournaments and matches move to it."),
    )
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the merge's record, with your name."),
    )

    def __init__(self, *args, player: Player, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player
        self.user = user

    def clean_other_licence(self) -> str:
        return self.cleaned_data["other_licence"].strip()

    def clean(self):
        cleaned = super().clean()
        other_id, licence = cleaned.get("other_id"), cleaned.get("other_licence")
        if "other_id" in self.errors:
            return cleaned
        if other_id is None and not licence:
            self.add_error("other_id", forms.ValidationError(
                _("Give the other record's number or its licence number."), code="other-missing"
            ))
            return cleaned
        if other_id is not None and licence:
            self.add_error("other_licence", forms.ValidationError(
                _("Give the number or the licence, not both."), code="other-twice"
            ))
            return cleaned
        other = merge_candidate(user=self.user, number=other_id, licence=licence or "")
        field = "other_id" if other_id else "other_licence"
        if other is None:
            self.add_error(field, forms.ValidationError(
                _("No record you may see has this number.") if other_id
                else _("No player of your tournaments has this licence number."),
                code="other-unknown",
            ))
        elif other.pk == self.player.pk:
            self.add_error(field, forms.ValidationError(
                _("This is the record of this page: choose the other one."), code="same-record"
            ))
        else:
            cleaned["other"] = other
        return cleaned

    def records(self) -> tuple[Player, Player]:
        """(kept, merged) from a valid form."""
        other = self.cleaned_data["other"]
        if self.cleaned_data["keep"] == self.KEEP_OTHER:
            return other, self.player
        return self.player, other
