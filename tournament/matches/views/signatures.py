"""Every seat signs (``tournament.matches.signatures``): the round to sign on the table's
scorer phone, passed round the table (each seat chooses itself and types its code), and on a
seat's own phone through its seat's link. Both show the round as it stands and each seat's
word so far, and write through ``round_sign``."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views import View

from tournament.kit.forms import add_service_errors
from tournament.kit.seats import seat_letter
from tournament.matches.forms.signatures import RoundSignForm, SeatCodeSignForm
from tournament.matches.reading.rows import match_with_tournament
from tournament.matches.scorers import ScorerActor, device_of
from tournament.matches.services.scorers import LinkRefused
from tournament.matches.services.signatures import (
    round_sign,
    seat_code_checked,
    seat_link_checked,
)
from tournament.matches.signatures import SigningRound, round_to_sign
from tournament.matches.views.base import MatchMixin
from tournament.models import Match

TEMPLATE = "tournament/matches/round_sign.html"


def _signing_page(request, match: Match, signing: SigningRound | None, form, *,
                  seat: int | None = None, status: int = 200,
                  refusal: ValidationError | None = None) -> HttpResponse:
    return TemplateResponse(request, TEMPLATE, {
        "match": match, "table": match.table, "session": match.table.session,
        "tournament": match.table.session.tournament, "signing": signing, "form": form,
        "seat": seat, "seat_name": signing.names[seat] if signing and seat is not None else "",
        "refusal": refusal,
    }, status=status)


def _initial(signing: SigningRound | None) -> dict:
    if signing is None:
        return {}
    return {"digest": signing.digest,
            "round": signing.round.number}


def _signed(request, match: Match, form, *, seat: int, device: str,
            own_phone: bool) -> ValidationError | None:
    """The seat's word written (None), or why not (against the match as it now is: the
    digest holds the round to what the seat read, ``round_sign``)."""
    data = form.cleaned_data
    try:
        round_sign(match=match, user=ScorerActor(scorer_device=device, seat=seat),
                   round_index=data["round"] - 1, digest=data["digest"],
                   agreed=data["word"] == RoundSignForm.AGREE, reason=data.get("reason", ""),
                   own_phone=own_phone)
    except ValidationError as error:
        return error
    messages.success(request, _("Seat %(seat)s: your word on round %(number)s is saved.")
                     % {"seat": seat_letter(seat), "number": data["round"]})
    return None


class RoundSignView(MatchMixin, View):
    """The table's scorer phone, passed round: each seat chooses itself, types its code and
    says its word. Only the bound scorer phone (a referee confirms on their own screen)."""

    http_method_names = ("get", "post")
    scorer_may = True

    def has_permission(self) -> bool:
        return self.scorer_device is not None

    def access_refusal(self, request):
        return self.scorer_refused(request, super().access_refusal(request))

    def form(self, signing, data=None) -> SeatCodeSignForm:
        names = signing.names if signing else [s.player.name for s in
                                                self.match.table.seats.select_related("player")]
        return SeatCodeSignForm(data, initial=_initial(signing), names=names)

    def get(self, request, *args, **kwargs):
        signing = round_to_sign(match=self.match)
        return _signing_page(request, self.match, signing, self.form(signing))

    def post(self, request, *args, **kwargs):
        signing = round_to_sign(match=self.match)
        form = self.form(signing, request.POST)
        if not form.is_valid():
            return _signing_page(request, self.match, signing, form, status=400)
        seat = form.cleaned_data["seat"]
        try:
            seat_code_checked(match=self.match, seat=seat, code=form.cleaned_data["code"],
                              address=get_client_ip_address(request))
            refusal = _signed(request, self.match, form, seat=seat,
                              device=self.scorer_device or "", own_phone=False)
        except ValidationError as error:
            refusal = error
        if refusal is not None:
            add_service_errors(form, refusal)
            locked = any(e.code == "locked-out" for e in form.errors.as_data().get("code", []))
            return _signing_page(request, self.match, round_to_sign(match=self.match), form,
                                 status=429 if locked else 400)
        return redirect(self.url("match_round_sign"))


class SeatLinkView(View):
    """A seat's own link, printed on the sheet: from the seat's own phone, its word on the
    round to sign. A wrong link is no page (404) and counts as a wrong try."""

    http_method_names = ("get", "post")

    def match(self) -> Match:
        try:
            return match_with_tournament(self.kwargs["match_id"]).get()
        except Match.DoesNotExist:
            raise Http404 from None

    def seat(self, match: Match) -> int:
        try:
            return seat_link_checked(match=match, token=self.kwargs["token"],
                                     address=get_client_ip_address(self.request))
        except LinkRefused:
            raise Http404 from None

    def get(self, request, *args, **kwargs):
        match = self.match()
        try:
            seat = self.seat(match)
        except ValidationError as error:
            return _signing_page(request, match, None, None, refusal=error, status=429)
        signing = round_to_sign(match=match)
        return _signing_page(request, match, signing,
                             RoundSignForm(initial=_initial(signing)), seat=seat)

    def post(self, request, *args, **kwargs):
        match = self.match()
        try:
            seat = self.seat(match)
        except ValidationError as error:
            return _signing_page(request, match, None, None, refusal=error, status=429)
        form = RoundSignForm(request.POST)
        if form.is_valid():
            refusal = _signed(request, match, form, seat=seat, device=device_of(request),
                              own_phone=True)
            if refusal is None:
                return redirect(request.path)
            add_service_errors(form, refusal)
        return _signing_page(request, match, round_to_sign(match=match), form, seat=seat,
                             status=400)
