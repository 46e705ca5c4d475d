"""Pieces the views of several parts share: the organiser's buttons, a session's address, how
often the live pages refresh."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.generic import View

from tournament.core.permissions import OrganiserRequiredMixin
from tournament.models import Session

POLL_SECONDS = 15


def poll_seconds() -> int:
    """How often the live pages refresh themselves: every 15 seconds
    (``TRIOMINOS_POLL_SECONDS`` in the settings overrides it, e.g. for the browser tests)."""
    return getattr(settings, "TRIOMINOS_POLL_SECONDS", POLL_SECONDS)


def message_refusal(request, error: ValidationError) -> None:
    """A service's refusal as error messages, one per ValidationError inside it, each with its
    code as the message's extra tag (the page shows it as ``data-code``)."""
    if hasattr(error, "error_dict"):
        refusals = [item for items in error.error_dict.values() for item in items]
    else:
        refusals = error.error_list
    for refusal in refusals:
        messages.error(request, next(iter(refusal)), extra_tags=refusal.code or "")


class ActionView(OrganiserRequiredMixin, View):
    """A button: POST only; calls one service, then says what happened and goes back."""

    http_method_names = ["post"]

    def act(self):
        raise NotImplementedError

    def success_message(self, result) -> str:
        raise NotImplementedError

    def next_url(self, result=None) -> str:
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        try:
            result = self.act()
        except ValidationError as error:
            message_refusal(request, error)
            return redirect(self.next_url())
        messages.success(request, self.success_message(result))
        return redirect(self.next_url(result))


class SessionActionMixin:
    @cached_property
    def session(self) -> Session:
        """The session of the address, read once (with its tournament, already read)."""
        return get_object_or_404(self.tournament.sessions, number=self.kwargs["number"])

    def next_url(self, result=None):
        return reverse(
            "tournament:session_organise",
            kwargs={"slug": self.tournament.slug, "number": self.kwargs["number"]},
        )
