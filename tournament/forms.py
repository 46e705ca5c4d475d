"""Forms validate input; the services save it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.models import StaffRole
from tournament.validators import validate_table_numbers


def model_field(model, name: str, **kwargs) -> forms.Field:
    """The model field's form field: its label, length and help text, in one place."""
    return model._meta.get_field(name).formfield(**kwargs)


def slug_field(model, *, help_text) -> forms.Field:
    """The short name in the address of the pages of a ``model`` (its ``slug``): ``help_text``
    gives an example and says which pages."""
    return model_field(
        model, "slug", label=_("Short name in the web address"), help_text=help_text
    )


class StaffGrantForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=_("Only to create a new account."),
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


class SessionReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Why the session's results must change, e.g. a score entered at the wrong "
                    "table. Kept in the session's audit log."),
    )


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: next to its field when it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
