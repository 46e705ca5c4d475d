"""Who may do what.

- An organiser (a StaffRole "organiser" in a tournament, or any superuser) may do everything in
  that tournament.
- A referee (a StaffRole "referee") enters and corrects matches, at every table or only at the
  tables listed in the role (e.g. "1-4,7").
- Everyone else reads public tournaments, without logging in, and changes nothing.

- Who answers for a person's record, which every tournament it entered shows: a superuser, or
  an organiser of every one of those tournaments (``may_merge``, ``may_edit_person``); what a
  user may see of several tournaments at once (``access``).

Views use the mixins; the functions are the single place the rules live.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.mixins import AccessMixin
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, resolve_url

from tournament.kit.header_values import HEADER_TEXT_LIMIT
from tournament.models import League, Player, Registration, StaffRole, Table, Tournament

#: Where a user object keeps the roles already read: {tournament id: StaffRole or None}.
_STAFF_ROLES_READ = "_tournament_staff_roles"


def staff_role(user, tournament: Tournament) -> StaffRole | None:
    """The user's role in the tournament, or None (anonymous users have none).

    Read from the database once per user object and tournament, then kept on the user: the
    request's user is loaded afresh for each request, so a page that asks several of the
    questions below reads the role once, and the next request sees any change.
    ``staff_role_grant`` makes the user object it is given forget (``staff_roles_forget``).
    """
    if not user.is_authenticated:
        return None
    roles_read = getattr(user, _STAFF_ROLES_READ, None)
    if roles_read is None:
        roles_read = {}
        setattr(user, _STAFF_ROLES_READ, roles_read)
    if tournament.pk not in roles_read:
        roles_read[tournament.pk] = StaffRole.objects.filter(tournament=tournament, user=user).first()
    return roles_read[tournament.pk]


def staff_roles_forget(user) -> None:
    """Forget the roles ``user`` keeps (``staff_role``): the next question reads them again."""
    if user.is_authenticated and getattr(user, _STAFF_ROLES_READ, None) is not None:
        setattr(user, _STAFF_ROLES_READ, None)


def is_organiser(user, tournament: Tournament) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    role = staff_role(user, tournament)
    return role is not None and role.role == StaffRole.Role.ORGANISER


def is_referee(user, tournament: Tournament) -> bool:
    """A referee at one table at least, or an organiser."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return staff_role(user, tournament) is not None


def refereed_tables(user, tournament: Tournament) -> frozenset[int] | None:
    """The numbers of the tables this user may referee: None for every table (organisers, and
    referees not limited to some tables); empty for a user without a role."""
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    if user.is_superuser:
        return None
    role = staff_role(user, tournament)
    if role is None:
        return frozenset()
    if role.role == StaffRole.Role.ORGANISER:
        return None
    return role.table_numbers()


def can_referee(user, table: Table) -> bool:
    """May this user enter and correct the match at this table?"""
    numbers = refereed_tables(user, table.session.tournament)
    return numbers is None or table.number in numbers


def can_view(user, tournament: Tournament) -> bool:
    """Public tournaments are for everyone; private ones for their staff only."""
    return tournament.is_public or is_referee(user, tournament)


def visible_tournament_ids(*, user, tournaments) -> set[int]:
    """The ids of the ``tournaments`` that ``user`` may open (``can_view``: the public ones,
    and the private ones where they have a role; without a user, the public ones), in one
    query at most."""
    visible = {tournament.pk for tournament in tournaments if tournament.is_public}
    private = [tournament.pk for tournament in tournaments if not tournament.is_public]
    if not private or user is None or not (user.is_authenticated and user.is_active):
        return visible
    if user.is_superuser:
        return visible | set(private)
    return visible | set(
        StaffRole.objects.filter(user=user, tournament__in=private)
        .values_list("tournament_id", flat=True)
    )


class PermissionMixin(AccessMixin):
    """Access written once: a view answers when ``has_permission()`` does; otherwise an
    anonymous user goes to the login page and a logged-in one gets a 403 (Django's
    ``AccessMixin.handle_no_permission``). Each view says who may use it in one
    ``has_permission()``."""

    #: Only a logged-in user may use this view (a write of the staff's): a script's request
    #: (htmx, the tablet's queue) of an anonymous user is answered 401 before anything is
    #: looked up (``login_expired``).
    login_required: bool = False

    def has_permission(self) -> bool:
        return True

    def login_next(self) -> str:
        """Where the login page leads back to after a 401 (``login_expired``)."""
        return self.request.path

    def login_expired(self, request) -> HttpResponse | None:
        """A script's request (htmx, or the tablet's queue, which says ``HX-Request``) of a
        user whose login expired, to a view that needs one: 401, with the login page's address
        in ``X-Login-Url``, rather than the redirect a browser's fetch would follow to the
        login page's 200 (which would count as saved). Nothing of the tournament is looked up:
        a private tournament's existence is not told."""
        if not self.login_required or request.user.is_authenticated:
            return None
        if request.headers.get("HX-Request") != "true":
            return None
        login = resolve_url(settings.LOGIN_URL)
        back = urlencode({"next": self.login_next()})
        if len(back) <= HEADER_TEXT_LIMIT:  # an address of any length is not sent back
            login = f"{login}?{back}"
        response = HttpResponse("login required", status=401, content_type="text/plain")
        response["X-Login-Url"] = login
        return response

    def dispatch(self, request, *args, **kwargs):
        expired = self.login_expired(request)
        if expired is not None:
            return expired
        refusal = self.access_refusal(request)
        if refusal is not None:
            return refusal
        return super().dispatch(request, *args, **kwargs)

    def access_refusal(self, request):
        """A response (or an exception) when the user may not use this view, else None."""
        if not self.has_permission():
            return self.handle_no_permission()
        return None


class TournamentMixin(PermissionMixin):
    """Loads ``self.tournament`` from the ``slug`` in the URL. A private tournament is a 404 to
    whoever may not see it, on every page (its staff pages too: neither a login page nor a 403
    confirms that it exists); then ``has_permission()``."""

    tournament: Tournament

    def dispatch(self, request, *args, **kwargs):
        expired = self.login_expired(request)
        if expired is not None:
            return expired
        unchanged = self.unchanged_answer(request) if request.method in ("GET", "HEAD") else None
        if unchanged is not None:
            return unchanged
        self.tournament = self.requested_tournament()
        return super().dispatch(request, *args, **kwargs)

    def unchanged_answer(self, request):
        """An answer to a GET given before the tournament is loaded (a public poll's 304 from
        its version alone: ``CachedPageMixin.unchanged_answer``; a clock's figures), or None:
        the view answers (any other method among them: refused or handled by the view)."""
        later = getattr(super(), "unchanged_answer", None)
        return None if later is None else later(request)

    def requested_tournament(self) -> Tournament:
        """The tournament of the address (404 when there is none); a view that loads an object
        of the tournament with it (one query) says so here."""
        return get_object_or_404(Tournament, slug=self.kwargs["slug"])

    def access_refusal(self, request):
        if not can_view(request.user, self.tournament):
            raise Http404
        return super().access_refusal(request)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["user_is_organiser"] = is_organiser(self.request.user, self.tournament)
        # Organisers and referees: the score sheets and the records archive are theirs.
        context["user_is_staff"] = is_referee(self.request.user, self.tournament)
        return context


class RoleRequiredMixin(TournamentMixin):
    """A page of the tournament's staff (``has_permission()``: the role it needs)."""

    def has_permission(self) -> bool:
        raise NotImplementedError


class OrganiserRequiredMixin(RoleRequiredMixin):
    def has_permission(self) -> bool:
        return is_organiser(self.request.user, self.tournament)


class RefereeRequiredMixin(RoleRequiredMixin):
    """A referee of at least one table; views acting on one table also check can_referee()."""

    def has_permission(self) -> bool:
        return is_referee(self.request.user, self.tournament)


# -- a person's records across tournaments ----------------------------------------------------

def may_edit_person(*, user, player: Player) -> bool:
    """May ``user`` change the name, club or licence of this record, which every tournament
    it entered shows? The merge's rule (:func:`may_merge`): a superuser, or an organiser of
    every one of those tournaments; no user (a command, the demo) may."""
    return user is None or may_merge(user=user, records=[player])


def organised_tournaments(*, user):
    """The ids of the tournaments ``user`` organises (a queryset), or None for every one (a
    superuser). An inactive or anonymous user organises none."""
    if not (user.is_authenticated and user.is_active):
        return Tournament.objects.none().values("pk")
    if user.is_superuser:
        return None
    return StaffRole.objects.filter(user=user, role=StaffRole.Role.ORGANISER).values(
        "tournament_id"
    )


@dataclass(frozen=True)
class Access:
    """What a user may see of a player's tournaments: ``visible`` (public ones and those they
    are staff of), ``organised`` (those they organise); ``everything`` for a superuser."""

    visible: frozenset[int]
    organised: frozenset[int]
    everything: bool = False

    @property
    def sees_licences(self) -> bool:
        """Licence numbers are for the organisers (the public pages never show them)."""
        return self.everything or bool(self.organised)


def access(*, user, tournaments: Iterable[Tournament]) -> Access:
    """The user's access to these tournaments, in one query (none for the anonymous or a
    superuser). The rules are :mod:`tournament.core.permissions`': a private tournament is for its
    staff only."""
    tournaments = list(tournaments)
    public = {tournament.pk for tournament in tournaments if tournament.is_public}
    if not (user.is_authenticated and user.is_active):
        return Access(frozenset(public), frozenset())
    ids = {tournament.pk for tournament in tournaments}
    if user.is_superuser:
        return Access(frozenset(ids), frozenset(ids), everything=True)
    roles = dict(
        StaffRole.objects.filter(user=user, tournament_id__in=ids).values_list(
            "tournament_id", "role"
        )
    )
    organised = {pk for pk, role in roles.items() if role == StaffRole.Role.ORGANISER}
    return Access(frozenset(public | set(roles)), frozenset(organised))


def may_merge(*, user, records: Iterable[Player]) -> bool:
    """May ``user`` merge these records? A superuser may; so may an organiser of every
    tournament in which any of them is registered (two queries). Nobody merges records
    registered nowhere but a superuser: there is no organiser to answer for them."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    tournament_ids = set(
        Registration.objects.filter(player__in=list(records)).values_list(
            "tournament_id", flat=True
        )
    )
    if not tournament_ids:
        return False
    organised = StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANISER, tournament_id__in=tournament_ids
    ).count()
    return organised == len(tournament_ids)


def can_create_league(user) -> bool:
    """Superusers, and the organisers of a tournament, may create a league."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANISER
    ).exists()


def is_league_organiser(user, league: League) -> bool:
    """One of the league's organisers, or a superuser."""
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    organiser_ids = getattr(league, "_organiser_ids", None)
    if organiser_ids is None:
        organiser_ids = set(league.organisers.values_list("pk", flat=True))
        league._organiser_ids = organiser_ids
    return user.pk in organiser_ids


def can_view_league(user, league: League) -> bool:
    """Public leagues are for everyone; the others for their organisers only."""
    return league.is_public or is_league_organiser(user, league)


def can_create_tournament(user) -> bool:
    """Superusers, and the organisers of another tournament, may create a tournament."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or StaffRole.objects.filter(
        user=user, role=StaffRole.Role.ORGANISER
    ).exists()
