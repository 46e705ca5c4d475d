"""Forms validate input; the services save it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def model_field(model, name: str, **kwargs) -> forms.Field:
    """The model field's form field: its label, length and help text, in one place."""
    return model._meta.get_field(name).formfield(**kwargs)


def slug_field(model, *, help_text) -> forms.Field:
    """The short name in the address of the pages of a ``model`` (its ``slug``): ``help_text``
    gives an example and says which pages."""
    return model_field(
        model, "slug", label=_("Short name in the web address"), help_text=help_text
    )


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: next to its field when it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


class DateInput(forms.DateInput):
    """A browser's date picker: its value is an ISO date whatever the page's language."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")
