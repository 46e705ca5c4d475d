"""The admin has a page for every model, and history stays read-only there."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone

from tournament.models import (
    ArchiveImport,
    AuditEntry,
    CheckIn,
    Installation,
    League,
    Match,
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    Round,
    StaffInvitation,
    Turn,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_history(client, make_user, tournament):
    match = Match.objects.filter(table__session__tournament=tournament).first()
    round_ = Round.objects.create(match=match, index=0)
    Turn.objects.create(round=round_, index=0, player=0, tile="5-5-5", points_claimed=25)
    AuditEntry.objects.create(match=match, action="turn-added", summary="5-5-5")
    player = match.table.seats.first().player
    RatingChange.objects.create(
        player=player, match=match, tournament=tournament, at=timezone.now(), rank=1,
        mu_before=25, sigma_before=8.3, mu=27, sigma=8,
    )
    PlayerRating.objects.create(player=player, mu=27, sigma=8, conservative=3, matches=1)
    duplicate = Player.objects.create(name=player.name, merged_into=player)
    PlayerMerge.objects.create(kept=player, merged=duplicate, reason="same person")
    League.objects.create(name="Season", slug="season")
    CheckIn.objects.create(session=match.table.session, player=player)
    StaffInvitation.objects.create(tournament=tournament, username="nina", role="referee")
    ArchiveImport.objects.create(tournament=tournament, matches_digest="0" * 64)
    Installation.identity()
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    return client


def test_every_tournament_model_has_an_admin(admin_client_with_history):
    from django.apps import apps

    for model in apps.get_app_config("tournament").get_models():
        assert model in admin.site._registry, model.__name__
        meta = model._meta
        response = admin_client_with_history.get(
            reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        )
        assert response.status_code == 200, model.__name__
        instance = model.objects.first()
        if instance is not None:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[instance.pk])
            assert admin_client_with_history.get(url).status_code == 200, model.__name__


@pytest.mark.parametrize("model", [Turn, AuditEntry, RatingChange, PlayerRating, PlayerMerge,
                                   ArchiveImport, Installation])
def test_history_cannot_be_edited_in_the_admin(admin_client_with_history, model):
    meta = model._meta
    instance = model.objects.first()
    change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[instance.pk])
    page = admin_client_with_history.get(change).content.decode()
    assert 'name="_save"' not in page
    add = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
    assert admin_client_with_history.get(add).status_code == 403
    delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[instance.pk])
    assert admin_client_with_history.post(delete, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=instance.pk).exists()
