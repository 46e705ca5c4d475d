"""Addresses the pages and documents share: the site's root as a phone reaches it (for QR codes),
a player's career page, and the short names (slugs) new tournaments and leagues claim."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def public_site_root(request) -> str:
    """The site's root as the players' phones and the tablets reach it, for QR codes.

    The request's own root, unless it came from the laptop itself (``localhost``): a QR code
    of ``http://localhost:8000/`` would lead a phone nowhere, so the first other address of
    ``ALLOWED_HOSTS`` (``TRIOMINOS_ALLOWED_HOSTS``) is used instead, with the same port.
    """
    root = urlsplit(request.build_absolute_uri("/"))
    if root.hostname not in LOCAL_HOSTS:
        return root.geturl()
    for host in settings.ALLOWED_HOSTS:
        if host in ("*", "") or host.startswith(".") or host.strip("[]") in LOCAL_HOSTS:
            continue
        port = f":{root.port}" if root.port else ""
        return f"{root.scheme}://{host}{port}/"
    return root.geturl()


def career_url(player_id: int) -> str:
    return reverse("tournament:player_career", kwargs={"player_id": player_id})


#: An id reversed once, then replaced by each player's (no other part of the address has it).
_SAMPLE_ID = 987654321


def career_url_maker():
    """``career_url`` for a list of players: a function of a player's id, reversing once (a
    thousand ``reverse()`` calls would cost more than the list's query)."""
    head, _sample, tail = career_url(_SAMPLE_ID).rpartition(str(_SAMPLE_ID))
    return lambda player_id: f"{head}{player_id}{tail}"


def slug_unavailable() -> ValidationError:
    """The one answer to an address that cannot be had, keyed ``slug``."""
    return ValidationError({"slug": ValidationError(
        _("This short name is not available: choose another."), code="slug-unavailable")})


def slug_claim(instance, *, reserved: frozenset[str] = frozenset()) -> None:
    """Save a new ``instance`` (a tournament, a league) under its ``slug``, or refuse it with
    :func:`slug_unavailable`, the same answer whether the address is a page of the site
    (``reserved``) or held by a tournament or league of any visibility, and by the same path
    (one read, then the insert, whose unique constraint settles a race): a private
    tournament's address is never told to exist. ``instance`` is validated already (its
    ``full_clean(validate_unique=False)``)."""
    model = type(instance)
    taken = model.objects.filter(slug=instance.slug).exists()
    if taken or instance.slug in reserved:
        raise slug_unavailable()
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        raise slug_unavailable() from None
