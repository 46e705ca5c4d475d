"""The room's forms: the session clock, a call for a referee, the projector's settings and
announcements. They check the input's shape; the services (``tournament.room.services``)
decide."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.kit.forms import model_field
from tournament.models import MatchEntry, RefereeCall, Tournament
from tournament.room.services import ANNOUNCEMENT_MAX_LENGTH, MAX_EXTRA_MINUTES, MAX_MINUTES


class ClockSetForm(forms.Form):
    minutes = forms.IntegerField(label=_("Session time (minutes)"), min_value=1,
                                 max_value=MAX_MINUTES)


class ClockAddForm(forms.Form):
    extra_minutes = forms.IntegerField(label=_("Extra minutes"), min_value=1,
                                       max_value=MAX_EXTRA_MINUTES)


class CallForm(forms.Form):
    reason = forms.ChoiceField(label=_("Why"), choices=RefereeCall.Reason.choices,
                               widget=forms.RadioSelect)
    code = forms.CharField(
        label=_("The code on the table's card"), max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                      "spellcheck": "false"}),
        help_text=_("Six letters and digits, printed under the QR code of your table's card."),
    )


class AnnouncementForm(forms.Form):
    text = forms.CharField(label=_("Announcement"), max_length=ANNOUNCEMENT_MAX_LENGTH)


class RoomSettingsForm(forms.Form):
    # said in words: the model's help points at the project's documentation, for its readers
    time_up_action = model_field(
        Tournament, "time_up_action",
        help_text=_("What the session clock does at time's end: show a flag only, or let each "
                    "match finish its round in play and then end it."))
    match_entry = model_field(
        Tournament, "match_entry", required=False,  # blank: unchanged
        help_text=_("By the referees (a tablet per table, or the paper sheet typed "
                    "afterwards), or by the tables: each table's score sheet then carries a "
                    "private link that makes a player's phone the table's scorer."))
    screen_seconds = model_field(Tournament, "screen_seconds", min_value=5, max_value=300)
    screen_top = model_field(Tournament, "screen_top", min_value=3, max_value=30)


class SessionEntryForm(forms.Form):
    """Who enters this session's matches: as the tournament says, or otherwise."""

    match_entry = forms.ChoiceField(
        label=_("This session's matches are entered"), required=False,
        choices=[("", _("as the tournament says"))] + list(MatchEntry.choices))
