"""Nobody borrows a player: an organiser links a registration to the records of their own
tournaments only, and changes a record other tournaments share only when they answer for all
of them (the merge's rule); otherwise the change stays in their tournament, on a record of
its own. Written as another tournament's organiser would act."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from tests.factories import played_session
from tests.tournament.players.helpers import two_tournaments
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.models import Player, PlayerRating, RatingChange, Registration, Seat, StaffRole
from tournament.organiser.services import player_add, registration_update
from tournament.ratings.services import ratings_rebuild

pytestmark = pytest.mark.django_db


@pytest.fixture
def career(make_tournament, make_user):
    """Ana (licence "L-100") in spring and autumn (``two_tournaments``), organised by Olga;
    Mallory organises a tournament of her own, "rival", with a private one, "closed", of a
    third organiser, where Zoé ("L-777") plays."""
    data = two_tournaments()
    olga = make_user("olga")
    for tournament in (data["spring"], data["autumn"]):
        staff_role_grant(tournament=tournament, user=olga, role=StaffRole.Role.ORGANISER)
    mallory = make_user("mallory")
    rival = tournament_create(name="Rival Open", slug="rival", start_date=datetime.date(2025, 11, 1),
                              organiser=mallory, match_rounds=1)
    closed = tournament_create(name="Closed Night", slug="closed", is_public=False,
                               start_date=datetime.date(2025, 9, 1))
    zoe = player_add(tournament=closed, name="Zoé Secret", licence="L-777").player
    return {**data, "olga": olga, "mallory": mallory, "rival": rival, "zoe": zoe}


def records() -> list[tuple]:
    return sorted(Player.objects.values_list("pk", "name", "club", "licence", "merged_into"))


def test_another_organisers_licence_makes_a_new_record_and_says_nothing(career):
    """Mallory registers players with the licences of Ana (a public tournament of Olga's),
    of Zoé (a private one) and of nobody: three new records, the same answer for each, no
    name told, and Ana's and Zoé's records untouched."""
    before = records()
    added = [
        player_add(tournament=career["rival"], name=name, licence=licence, user=career["mallory"])
        for name, licence in (("Ana", "L-100"), ("Someone", "L-777"), ("Nobody", "L-000"))
    ]
    assert {registration.player_id for registration in added}.isdisjoint(
        pk for pk, *_rest in before)
    assert [registration.player.licence for registration in added] == ["L-100", "L-777", "L-000"]
    assert [row for row in records() if row[0] in {pk for pk, *_r in before}] == before
    assert not Registration.objects.filter(tournament=career["rival"],
                                           player__in=[career["ana"], career["zoe"]]).exists()


def test_a_name_that_differs_from_another_organisers_licence_is_not_an_oracle(career):
    """Registering a licence under another name answered "licence X is that of Zoé Secret":
    any organiser could read a private tournament's players by licence. It is now a new
    record like any other."""
    registration = player_add(tournament=career["rival"], name="Guess", licence="L-777",
                              user=career["mallory"])
    assert registration.player.name == "Guess"


def test_an_organisers_own_player_is_linked_by_licence(career, make_tournament):
    winter = tournament_create(name="Winter", slug="winter", start_date=datetime.date(2026, 1, 10),
                               organiser=career["olga"])
    registration = player_add(tournament=winter, name="Ana", licence="L-100", user=career["olga"])
    assert registration.player_id == career["ana"].pk


def test_another_organiser_renames_a_shared_record_in_their_tournament_only(career):
    """Mallory has Ana registered (the operator linked her, say) and renames her: Ana's
    record, which spring and autumn show, is left as it is; rival gets a record of its own
    with its seats, and the ratings are those of a full rebuild."""
    ana, rival = career["ana"], career["rival"]
    registration = Registration.objects.create(tournament=rival, player=ana)
    bo = career["players"]["Bo"]
    Registration.objects.create(tournament=rival, player=bo)
    played_session(tournament=rival, tables=[[ana, bo]], totals=[[300, 100]])
    ratings_rebuild()
    before = records()

    updated = registration_update(registration=registration, name="Ana Hacked",
                                  club="Elsewhere", licence="X-1", user=career["mallory"])
    assert updated.player_id != ana.pk
    assert Player.objects.get(pk=updated.player_id).name == "Ana Hacked"
    assert [row for row in records() if row[0] != updated.player_id] == before
    assert set(Seat.objects.filter(session__tournament=rival, player=updated.player_id)) \
        and not Seat.objects.filter(session__tournament=rival, player=ana).exists()
    assert Registration.objects.filter(player=ana).count() == 2  # spring and autumn
    kept = (sorted(RatingChange.objects.values_list("player_id", "match_id", "mu", "sigma")),
            sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches")))
    ratings_rebuild()
    assert kept == (sorted(RatingChange.objects.values_list("player_id", "match_id", "mu", "sigma")),
                    sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches")))


def test_who_answers_for_every_tournament_of_a_record_changes_it(career, make_user):
    ana, spring = career["ana"], career["spring"]
    registration = Registration.objects.get(tournament=spring, player=ana)
    updated = registration_update(registration=registration, name="Ana Lopez", club="Lyon",
                                  licence="L-100", user=career["olga"])
    assert updated.player_id == ana.pk
    assert Player.objects.get(pk=ana.pk).name == "Ana Lopez"
    root = make_user("root", is_superuser=True)
    registration_update(registration=registration, name="Ana L.", club="Lyon", licence="L-100",
                        user=root)
    assert Player.objects.get(pk=ana.pk).name == "Ana L."


def test_a_licence_of_another_record_of_ones_own_is_refused(career):
    bo = Registration.objects.get(tournament=career["spring"], player=career["players"]["Bo"])
    before = records()
    with pytest.raises(ValidationError) as refusal:
        registration_update(registration=bo, name="Bo", club="Lyon", licence="L-100",
                            user=career["olga"])
    assert refusal.value.error_dict["licence"][0].code == "licence-other-player"
    assert records() == before
    # Another organiser's licence is no reason to refuse (nor to tell).
    registration_update(registration=bo, name="Bo", club="Lyon", licence="L-777",
                        user=career["olga"])


def test_the_page_warns_and_says_what_happened(career):
    ana, rival = career["ana"], career["rival"]
    registration = Registration.objects.create(tournament=rival, player=ana)
    client = Client()
    client.force_login(career["mallory"])
    url = f"/t/rival/organise/players/{registration.pk}/"
    page = client.get(url)
    assert page.status_code == 200 and page.context["shared_elsewhere"]
    response = client.post(url, {"name": "Ana M.", "club": "", "licence": ""}, follow=True)
    assert [message.extra_tags for message in response.context["messages"]] == ["player-split"]
    assert Player.objects.get(pk=ana.pk).name == "Ana"
    olga = Client()
    olga.force_login(career["olga"])
    spring_registration = Registration.objects.get(tournament=career["spring"], player=ana)
    own = olga.get(f"/t/spring/organise/players/{spring_registration.pk}/")
    assert not own.context["shared_elsewhere"]
