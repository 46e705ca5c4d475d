"""The organiser's forms: they validate the input; the services (organiser/services.py) save it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.kit.forms import DateInput, model_field, slug_field
from tournament.models import Player, RankingCriterion, StaffRole, Tournament
from tournament.organiser.players_csv import category_names, category_names_problem
from tournament.validators import MAX_SESSION_NUMBER, validate_table_numbers

CRITERIA_FIELDS = [f"criterion_{number}" for number in range(1, len(RankingCriterion.values) + 1)]
CSV_MAX_BYTES = 1_000_000


#: The settings fixed once a session has started (``tournament_update`` refuses a change).
LOCKED_ONCE_STARTED = ("rules", "target", "match_rounds", "opening_bonus")


class TournamentForm(forms.Form):
    """A tournament's settings; ``ranking_criteria`` in cleaned_data, in order.

    ``locked`` (a session has started): the rule set, the target and the match options are
    shown read-only with the reason (``LOCKED_ONCE_STARTED``); a value posted for them all
    the same (a page opened before the start) is refused next to its field."""

    name = model_field(Tournament, "name")
    start_date = model_field(Tournament, "start_date", widget=DateInput())
    end_date = model_field(Tournament, "end_date", widget=DateInput())
    venue = model_field(Tournament, "venue")
    rules = model_field(Tournament, "rules")
    target = model_field(Tournament, "target", min_value=1)
    match_rounds = model_field(Tournament, "match_rounds", min_value=1)
    opening_bonus = model_field(Tournament, "opening_bonus")
    keep_clubs_apart = model_field(Tournament, "keep_clubs_apart")
    is_public = model_field(Tournament, "is_public")
    is_rated = model_field(Tournament, "is_rated")
    # Not required: a form posted without it (a page opened before the setting existed)
    # leaves the final as it is.
    final_size = model_field(Tournament, "final_size", required=False, empty_value=None)
    # Blank: no club ranking, the criterion and the places as they are (docs/guides/categories.md).
    team_size = model_field(Tournament, "team_size", required=False, min_value=0, max_value=20)
    team_criterion = model_field(Tournament, "team_criterion", required=False)
    prize_count = model_field(Tournament, "prize_count", required=False, min_value=1,
                              max_value=50)
    prize_one_per_player = model_field(Tournament, "prize_one_per_player")
    check_in = model_field(Tournament, "check_in", required=False)  # blank: unchanged

    def __init__(self, *args, locked: bool = False, tournament: Tournament | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.locked = locked
        if locked:
            for name in LOCKED_ONCE_STARTED:
                self.fields[name].disabled = True
                self.fields[name].help_text = _(
                    "Fixed: a session has started, and every match is played under it.")
            if tournament is not None:
                self._show_in_force(tournament)
        choices = [("", "—"), *RankingCriterion.choices]
        for number, field_name in enumerate(CRITERIA_FIELDS, start=1):
            self.fields[field_name] = forms.ChoiceField(
                label=_("Ranking criterion %(number)s") % {"number": number},
                choices=choices,
                required=number == 1,
                help_text=_("Ties on the criteria above are broken by this one.")
                if number == 2 else "",
            )

    def _show_in_force(self, tournament: Tournament) -> None:
        """A blank setting stands for a value in force (the rule set's target, no round
        limit): a locked field shows that value, not an empty box."""
        fixed = _("Fixed: a session has started, and every match is played under it.")
        if tournament.target is None:
            target = tournament.effective_target
            self.fields["target"].widget.attrs["placeholder"] = str(target)
            in_force = _("In force: %(target)s, the rule set's target.") % {"target": target}
            self.fields["target"].help_text = f"{fixed} {in_force}"
        if tournament.match_rounds is None:
            self.fields["match_rounds"].widget.attrs["placeholder"] = str(_("no limit"))
            in_force = _("In force: no round limit, every match is played to the target.")
            self.fields["match_rounds"].help_text = f"{fixed} {in_force}"

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict:
        initial = {
            name: getattr(tournament, name)
            for name in ("name", "start_date", "end_date", "venue", "rules", "target",
                         "match_rounds", "opening_bonus", "keep_clubs_apart", "is_public",
                         "is_rated", "final_size", "team_size", "team_criterion",
                         "prize_count", "prize_one_per_player", "check_in")
        }
        initial.update(zip(CRITERIA_FIELDS, tournament.ranking_criteria, strict=False))
        return initial

    def clean(self):
        cleaned = super().clean()
        if self.locked:
            for name in LOCKED_ONCE_STARTED:
                field = self.fields[name]
                posted = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
                if name not in self.data:
                    continue
                try:
                    changed = field.to_python(posted) != field.to_python(self.get_initial_for_field(field, name))
                except ValidationError:
                    changed = True
                if changed:
                    self.add_error(name, ValidationError(
                        _("A session has started: this setting can no longer change."),
                        code="started"))
        criteria = []
        for field_name in CRITERIA_FIELDS:
            code = cleaned.pop(field_name, "")
            if not code:
                continue
            if code in criteria:
                self.add_error(field_name, ValidationError(
                    _("This criterion is already chosen above."), code="criterion-repeated"))
            criteria.append(code)
        if not criteria and not self.has_error(CRITERIA_FIELDS[0]):
            self.add_error(CRITERIA_FIELDS[0], ValidationError(
                _("Choose at least one ranking criterion."), code="criteria-empty"))
        cleaned["ranking_criteria"] = criteria
        if "team_size" in cleaned and cleaned["team_size"] is None:
            cleaned["team_size"] = 0
        for name in ("team_criterion", "prize_count"):
            if name in cleaned and cleaned[name] in ("", None):
                cleaned[name] = None
        cleaned["check_in"] = cleaned.get("check_in") or None
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", ValidationError(
                _("The tournament cannot end before it starts."), code="end-before-start"))
        return cleaned


class TournamentCreateForm(TournamentForm):
    slug = slug_field(
        Tournament,
        help_text=_("Lower-case letters, digits and hyphens, for example spring-open-2027. It "
                    "appears in the address of every page of the tournament and in its QR codes."),
    )

    field_order = ["name", "slug"]


class CategoriesField(forms.CharField):
    """Category names separated by commas (``category_names``): a tuple of names in
    ``cleaned_data``, a name too long refused next to the field."""

    def clean(self, value):
        names = category_names(super().clean(value) or "")
        if problem := category_names_problem(names):
            raise ValidationError(problem.message[:1].upper() + problem.message[1:],
                                  code=problem.code)
        return names


def same_people_field(label) -> forms.ChoiceField:
    """What to do with a player who has the name and club of a record of the user's
    tournaments and no licence number: ask first (the default), or say."""
    return forms.ChoiceField(
        label=label, required=False, widget=forms.RadioSelect,
        choices=[("", _("ask me first")), ("existing", _("is that person: register the record")),
                 ("new", _("is someone else: create a new record"))],
    )


class PlayerForm(forms.Form):
    name = model_field(Player, "name")
    club = model_field(Player, "club")
    licence = model_field(Player, "licence")
    first_session = forms.IntegerField(
        label=_("First session"),
        min_value=1,
        max_value=MAX_SESSION_NUMBER,
        required=False,
        help_text=_("A late arrival: the first session the player is seated in. Blank: the next "
                    "session to be seated."),
    )
    categories = CategoriesField(
        label=_("Categories"), required=False, max_length=1000,
        help_text=_("The prize categories the player is in, separated by commas (for example: "
                    "Women, Juniors). A new name makes a new category."),
    )


class PlayerAddForm(PlayerForm):
    """A player added by hand: :class:`PlayerForm`, and what to do with a likely same person."""

    same_people = same_people_field(_("If this player has the name and club of a record of your "
                                      "tournaments, without a licence number, they"))


class PlayersImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("One player a line: name, club, licence number, categories (all but the "
                    "name may be blank; several categories in one cell, separated by commas), "
                    "separated by commas or semicolons; a header line is allowed. A file with a "
                    "bad line imports nothing."),
    )
    same_people = same_people_field(_("A player of the file who has the name and club of a "
                                      "record of your tournaments, without a licence number"))

    def clean_file(self) -> str:
        """The file's text: UTF-8, or Windows-1252 as a spreadsheet saves it."""
        upload = self.cleaned_data["file"]
        if upload.size > CSV_MAX_BYTES:
            raise ValidationError(
                _("The file is too large (%(size)s bytes; at most %(max)s).")
                % {"size": upload.size, "max": CSV_MAX_BYTES},
                code="too-large",
            )
        data = upload.read()
        if b"\x00" in data:
            raise ValidationError(_("This is not a text file: save the sheet as CSV."),
                                  code="not-text")
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise ValidationError(_("The file is not text in UTF-8 or Windows-1252: save it as CSV "
                                "(UTF-8)."), code="encoding")


class StaffGrantForm(forms.Form):
    username = forms.CharField(
        label=_("Username"), max_length=150,
        help_text=_("The account is invited: the role starts once it accepts, after logging "
                    "in (a role already held here changes at once)."),
    )
    password = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("Only to create a new account: if an account of that name exists, it is "
                    "invited and its password stays its own."),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=StaffRole.Role.choices, initial=StaffRole.Role.REFEREE
    )
    tables = forms.CharField(
        label=_("Tables"),
        required=False,
        max_length=100,
        validators=[validate_table_numbers],
        help_text=_("For a referee limited to some tables, e.g. 1-4,7. Blank: every table."),
    )


class StaffUnlockForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.HiddenInput)
    address = forms.GenericIPAddressField(widget=forms.HiddenInput)
