"""Every write needs the right role. The URLs are read from the URL configuration, so a page
added later is checked without touching this file (an unknown URL parameter fails the test
until it is given a value below)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tournament.core.permissions import OrganiserRequiredMixin, RoleRequiredMixin
from tournament.models import Match, StaffRole

pytestmark = pytest.mark.django_db

# POSTs that anyone may send and that change no tournament data; and the players' call for a
# referee, which needs the code of the table's card (tests/tournament/room/): refused here.
PUBLIC_POSTS = {"login", "logout", "set_language", "tournament:table_call"}


def named_patterns(resolver=None, namespace=""):
    """(full URL name, pattern) for every named URL outside the admin."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from named_patterns(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", entry


def view_class(pattern: URLPattern):
    return getattr(pattern.callback, "view_class", None)


@pytest.fixture
def url_of(tournament, organiser):
    match = Match.objects.filter(table__session__tournament=tournament).first()
    values = {
        "slug": tournament.slug,
        "number": 1,
        "match_id": match.pk,
        "player_id": tournament.registrations.first().player_id,
        "registration_id": tournament.registrations.first().pk,
        "role_id": StaffRole.objects.get(user=organiser).pk,
        "turn_id": 1,
        "invitation_id": 1,
        "call_id": 1,
        "category_id": 1,
        "table": 1,
        "token": "A" * 22,
    }

    def url_of(name: str, pattern: URLPattern) -> str:
        names = list(pattern.pattern.converters)
        missing = [key for key in names if key not in values]
        assert not missing, f"{name}: give the test a value for {missing}"
        return reverse(name, kwargs={key: values[key] for key in names})

    return url_of


def database_snapshot():
    """Every row of the tournament's tables and of the accounts."""
    models = list(apps.get_app_config("tournament").get_models())
    models += [get_user_model(), apps.get_model("auth", "Group")]
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in models}


HOSTILE_DATA = {
    "username": "intruder",
    "password": "Intruder-Pass-1234",
    "role": "organiser",
    "tables": "",
    "language": "en",
    "next": "/",
}


def test_anonymous_post_to_every_url_is_refused(client, url_of, referee):
    before = database_snapshot()
    checked = []
    for name, pattern in named_patterns():
        url = url_of(name, pattern)
        response = client.post(url, HOSTILE_DATA)
        checked.append(name)
        if name in PUBLIC_POSTS:
            continue
        refused = (
            response.status_code in {403, 404, 405}
            or (response.status_code == 302 and response["Location"].startswith("/login/"))
        )
        assert refused, f"anonymous POST {url} ({name}) answered {response.status_code}"
    assert database_snapshot() == before
    assert "tournament:staff" in checked and "tournament:staff_revoke" in checked


def test_anonymous_post_to_the_admin_is_refused(client, tournament, organiser):
    before = database_snapshot()
    for model in admin.site._registry:
        meta = model._meta
        urls = [reverse(f"admin:{meta.app_label}_{meta.model_name}_add")]
        instance = model.objects.first()
        if instance is not None:
            for action in ("change", "delete"):
                urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_{action}",
                                    args=[instance.pk]))
        for url in urls:
            response = client.post(url, {"name": "x", "username": "intruder"})
            assert response.status_code == 302, url
            assert response["Location"].startswith("/admin/login/"), url
    assert database_snapshot() == before


def test_role_pages_send_anonymous_users_to_the_login_page(client, url_of):
    role_pages = [
        (name, pattern) for name, pattern in named_patterns()
        if view_class(pattern) and issubclass(view_class(pattern), RoleRequiredMixin)
    ]
    assert role_pages
    for name, pattern in role_pages:
        url = url_of(name, pattern)
        response = client.get(url)
        if response.status_code == 405:  # a POST-only URL
            response = client.post(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/"), name


def test_a_private_tournaments_staff_pages_are_a_404_to_who_may_not_see_it(
    client, url_of, tournament, make_user
):
    """Neither a login page nor a 403: nothing tells the public that the tournament exists."""
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    role_pages = [
        (name, pattern) for name, pattern in named_patterns()
        if view_class(pattern) and issubclass(view_class(pattern), RoleRequiredMixin)
    ]
    outsider = make_user("private-outsider")
    for who in (None, outsider):
        if who is not None:
            client.force_login(who)
        for name, pattern in role_pages:
            url = url_of(name, pattern)
            assert client.get(url).status_code == 404, (who, name)
            assert client.post(url, HOSTILE_DATA).status_code == 404, (who, name)


def organiser_pages():
    return [
        (name, pattern) for name, pattern in named_patterns()
        if view_class(pattern) and issubclass(view_class(pattern), OrganiserRequiredMixin)
    ]


def test_a_referee_cannot_reach_organiser_pages(referee_client, url_of):
    assert {name for name, _ in organiser_pages()} >= {"tournament:staff", "tournament:staff_revoke"}
    before = database_snapshot()
    for name, pattern in organiser_pages():
        url = url_of(name, pattern)
        assert referee_client.get(url).status_code in {403, 405}, name
        assert referee_client.post(url, HOSTILE_DATA).status_code == 403, name
    assert database_snapshot() == before


def test_organisers_of_another_tournament_cannot_either(url_of, make_tournament, make_user, client):
    other = make_tournament(slug="other-cup")
    stranger = make_user("sam-other-organiser")
    StaffRole.objects.create(tournament=other, user=stranger, role="organiser")
    client.force_login(stranger)
    for name, pattern in organiser_pages():
        assert client.post(url_of(name, pattern), HOSTILE_DATA).status_code == 403, name


def test_the_organiser_reaches_them(organiser_client, url_of):
    for name, pattern in organiser_pages():
        response = organiser_client.get(url_of(name, pattern))
        assert response.status_code in {200, 405}, name


def test_organisers_and_referees_are_not_admin_staff(referee_client, organiser_client):
    for client in (referee_client, organiser_client):
        response = client.get("/admin/")
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
