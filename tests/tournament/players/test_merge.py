"""Merging two records of one person: who may, what moves, what is refused (nothing written),
the audit entry, the ratings as a full rebuild gives them, and licences that lead to the
record kept."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import played_session, tournament_with_players
from tests.pages import by_id, has_id
from tests.tournament.players.helpers import two_tournaments
from tournament.models import (
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    Registration,
    Seat,
    Tournament,
)
from tournament.organiser.services import player_add
from tournament.players.services import players_merge
from tournament.ratings.services import ratings_rebuild


@pytest.fixture
def twins(db):
    """Ana's career (``two_tournaments``), and a second record of her ("L-1OO", a typo) in a
    third tournament, "winter" (dated between spring and autumn, one round a match), played
    after them."""
    data = two_tournaments()
    winter = tournament_with_players(slug="winter", name="Winter Open", players=0,
                                     start_date=datetime.date(2025, 7, 1), venue="Paris",
                                     match_rounds=1)
    twin = player_add(tournament=winter, name="Ana", club="Lyon", licence="L-1OO").player
    gus = player_add(tournament=winter, name="Gus", club="").player
    bo = data["players"]["Bo"]
    Registration.objects.create(tournament=winter, player=bo)
    played_session(tournament=winter, tables=[[twin, gus, bo]], totals=[[500, 100, 300]])
    played_session(tournament=winter, tables=[[gus, bo, twin]], totals=[[200, 100, 50]])
    return {**data, "twin": twin, "winter": winter}


def merge_url(player) -> str:
    return reverse("tournament:player_merge", kwargs={"player_id": player.pk})


def snapshot():
    return {
        "registrations": sorted(Registration.objects.values_list("pk", "player_id", "tournament_id")),
        "seats": sorted(Seat.objects.values_list("pk", "player_id")),
        "merges": PlayerMerge.objects.count(),
        "merged_into": sorted(Player.objects.values_list("pk", "merged_into")),
        "versions": sorted(Tournament.objects.values_list("pk", "data_version")),
        "ratings": sorted(RatingChange.objects.values_list("player_id", "match_id", "mu", "sigma")),
    }


def ratings_now():
    return (
        sorted(RatingChange.objects.values_list("player_id", "match_id", "rank", "mu", "sigma")),
        sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches",
                                                "last_tournament_id", "last_event_change")),
    )


def test_merge_moves_registrations_and_seats_and_keeps_everything(twins, make_user):
    ana, twin, winter = twins["ana"], twins["twin"], twins["winter"]
    registrations = list(Registration.objects.filter(player=twin).values_list("pk", flat=True))
    seats = list(Seat.objects.filter(player=twin).values_list("pk", flat=True))
    versions = dict(Tournament.objects.values_list("pk", "data_version"))
    user = make_user("admin", is_superuser=True)

    entry = players_merge(kept=ana, merged=twin, user=user, reason="Licence typed with O for 0")

    assert set(Registration.objects.filter(pk__in=registrations).values_list("player", flat=True)) == {ana.pk}
    assert set(Seat.objects.filter(pk__in=seats).values_list("player", flat=True)) == {ana.pk}
    assert not Registration.objects.filter(player=twin).exists()
    twin.refresh_from_db()
    ana.refresh_from_db()
    assert twin.merged_into_id == ana.pk
    assert (twin.name, twin.licence) == ("Ana", "L-1OO")  # the record stays as it was
    assert (ana.name, ana.club, ana.licence) == ("Ana", "Lyon", "L-100")
    entry.refresh_from_db()
    assert (entry.kept_id, entry.merged_id, entry.user_id) == (ana.pk, twin.pk, user.pk)
    assert entry.reason == "Licence typed with O for 0"
    assert entry.details["merged"] == {"name": "Ana", "club": "Lyon", "licence": "L-1OO"}
    assert sorted(entry.details["registrations"]) == sorted(registrations)
    assert sorted(entry.details["seats"]) == sorted(seats)
    after = dict(Tournament.objects.values_list("pk", "data_version"))
    for tournament in (winter, twins["spring"], twins["autumn"]):
        assert after[tournament.pk] > versions[tournament.pk]


def test_ratings_after_a_merge_are_those_of_a_full_rebuild(twins):
    ana, twin = twins["ana"], twins["twin"]
    before = ratings_now()
    players_merge(kept=ana, merged=twin, user=None, reason="same person")
    merged = ratings_now()
    assert merged != before  # her winter matches now count for her
    assert not RatingChange.objects.filter(player=twin).exists()
    assert not PlayerRating.objects.filter(player=twin).exists()
    assert PlayerRating.objects.get(player=ana).matches == 5
    ratings_rebuild()
    assert ratings_now() == merged


@pytest.mark.usefixtures("in_english")
def test_refused_when_both_are_in_one_tournament_and_nothing_written(twins):
    ana, twin = twins["ana"], twins["twin"]
    Registration.objects.create(tournament=twins["spring"], player=twin)
    before = snapshot()
    with pytest.raises(ValidationError) as refusal:
        players_merge(kept=ana, merged=twin, user=None, reason="same person")
    assert refusal.value.code == "shared-tournament"
    assert "Spring" in refusal.value.messages[0]
    assert snapshot() == before


@pytest.mark.parametrize("reason", ["", "   "])
def test_refused_without_a_reason(twins, reason):
    before = snapshot()
    with pytest.raises(ValidationError) as refusal:
        players_merge(kept=twins["ana"], merged=twins["twin"], user=None, reason=reason)
    assert refusal.value.error_dict["reason"][0].code == "reason-missing"
    assert snapshot() == before


def test_refused_for_a_record_already_merged(twins):
    ana, twin = twins["ana"], twins["twin"]
    players_merge(kept=ana, merged=twin, user=None, reason="same person")
    other = Player.objects.create(name="Ana")
    before = snapshot()
    for kept, merged in ((twin, other), (other, twin), (ana, ana)):
        with pytest.raises(ValidationError) as refusal:
            players_merge(kept=kept, merged=merged, user=None, reason="again")
        assert refusal.value.code in {"already-merged", "same-record"}
    assert snapshot() == before


def test_a_merged_licence_leads_to_the_kept_record(twins, make_tournament):
    ana, twin = twins["ana"], twins["twin"]
    players_merge(kept=ana, merged=twin, user=None, reason="same person")
    players = Player.objects.count()
    later = make_tournament(slug="later", players=0, sessions=0)
    registration = player_add(tournament=later, name="Ana", licence="L-1OO")
    assert registration.player_id == ana.pk
    assert Player.objects.count() == players
    with pytest.raises(ValidationError) as refusal:
        player_add(tournament=later, name="Ana", licence="L-100")
    assert refusal.value.error_dict["licence"][0].code == "licence-registered"
    with pytest.raises(ValidationError) as refusal:
        player_add(tournament=twins["winter"], name="Ana", licence="L-1OO")
    assert refusal.value.error_dict["licence"][0].code == "licence-registered"


# The page: who may, and the two steps.

def test_anonymous_goes_to_the_login_page(client, twins):
    response = client.get(merge_url(twins["ana"]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_403_404_by_role(client, twins, make_user, grant_organiser):
    ana, twin = twins["ana"], twins["twin"]
    outsider = make_user("oscar")
    client.force_login(outsider)
    assert client.get(merge_url(ana)).status_code == 403
    # Organiser of one of her two tournaments: not enough.
    half = make_user("half")
    grant_organiser(half, twins["spring"])
    client.force_login(half)
    assert client.get(merge_url(ana)).status_code == 403
    # A record of private tournaments only: the outsider may not even see it.
    Tournament.objects.filter(pk=twins["winter"].pk).update(is_public=False)
    client.force_login(outsider)
    assert client.get(merge_url(twin)).status_code == 404
    # Organiser of both of Ana's tournaments, but not of the other record's.
    both = make_user("both")
    grant_organiser(both, twins["spring"], twins["autumn"])
    client.force_login(both)
    assert client.get(merge_url(ana)).status_code == 200
    before = snapshot()
    merge_twin = {"other_id": twin.pk, "keep": "this", "reason": "same person", "confirm": "1"}
    # The other record is in a private tournament they do not see: no such record for them.
    response = client.post(merge_url(ana), merge_twin)
    assert response.status_code == 400
    assert response.context["form"].has_error("other_id", "other-unknown")
    # In a public one: they see it, and may not merge it.
    Tournament.objects.filter(pk=twins["winter"].pk).update(is_public=True)
    assert client.post(merge_url(ana), merge_twin).status_code == 403
    assert snapshot() == before
    # A merged record has no merge page.
    players_merge(kept=ana, merged=twin, user=None, reason="same person")
    client.force_login(make_user("root", is_superuser=True))
    assert client.get(merge_url(twin)).status_code == 404


def test_preview_then_confirm(client, twins, make_user, grant_organiser):
    ana, twin = twins["ana"], twins["twin"]
    organiser = make_user("olga")
    grant_organiser(organiser, twins["spring"], twins["autumn"], twins["winter"])
    client.force_login(organiser)
    assert has_id(client.get(reverse("tournament:player_career",
                                     kwargs={"player_id": ana.pk})), "career-merge")
    form = {"other_licence": "L-1OO", "keep": "this", "reason": "Licence typo"}
    preview = client.post(merge_url(ana), {**form, "preview": "1"})
    assert preview.status_code == 200
    records = preview.context["records"]
    assert [(record["role"], record["player"].pk) for record in records] == [
        ("kept", ana.pk), ("merged", twin.pk)
    ]
    assert [t.slug for t in records[1]["tournaments"]] == ["winter"]
    assert by_id(preview, "record-merged").get("data-player") == str(twin.pk)
    assert has_id(preview, "merge-confirm")
    assert not PlayerMerge.objects.exists()

    done = client.post(merge_url(ana), {**form, "confirm": "1"})
    assert done.status_code == 302
    assert done["Location"] == reverse("tournament:player_career", kwargs={"player_id": ana.pk})
    entry = PlayerMerge.objects.get()
    assert (entry.kept_id, entry.merged_id, entry.user_id) == (ana.pk, twin.pk, organiser.pk)


def test_keep_the_other_record(client, twins, make_user):
    ana, twin = twins["ana"], twins["twin"]
    client.force_login(make_user("root", is_superuser=True))
    response = client.post(merge_url(twin), {
        "other_id": ana.pk, "keep": "other", "reason": "typo", "confirm": "1",
    })
    assert response.status_code == 302
    twin.refresh_from_db()
    assert twin.merged_into_id == ana.pk


@pytest.mark.parametrize(("data", "field", "code"), [
    ({}, "other_id", "other-missing"),
    ({"other_id": 99999}, "other_id", "other-unknown"),
    ({"other_licence": "NOPE"}, "other_licence", "other-unknown"),
    ({"other_id": 1, "other_licence": "L-1OO"}, "other_licence", "other-twice"),
    ({"other_licence": "L-100"}, "other_licence", "same-record"),
])
def test_bad_choice_an_error_next_to_the_field(client, twins, make_user, data, field, code):
    client.force_login(make_user("root", is_superuser=True))
    before = snapshot()
    response = client.post(merge_url(twins["ana"]),
                           {"keep": "this", "reason": "typo", "confirm": "1", **data})
    assert response.status_code == 400
    assert [error.code for error in response.context["form"].errors.as_data()[field]] == [code]
    assert snapshot() == before


def test_shared_tournament_shown_on_the_form(client, twins, make_user):
    ana, twin = twins["ana"], twins["twin"]
    Registration.objects.create(tournament=twins["autumn"], player=twin)
    client.force_login(make_user("root", is_superuser=True))
    before = snapshot()
    for step in ("preview", "confirm"):
        response = client.post(merge_url(ana), {
            "other_id": twin.pk, "keep": "this", "reason": "typo", step: "1",
        })
        assert response.status_code == 400
        assert [error.code for error in response.context["form"].non_field_errors().as_data()] == [
            "shared-tournament"
        ]
        assert not has_id(response, "merge-confirm")
    assert snapshot() == before


def test_the_other_record_a_user_may_not_see_is_answered_as_no_record(
    client, twins, make_user, grant_organiser, make_tournament
):
    """The form names the other record by number or licence: a record of a private
    tournament, or a licence of a tournament the user does not organise, gets the answer an
    unknown one gets (not a 403 that says "it exists, but not for you")."""
    ana = twins["ana"]
    closed = make_tournament(slug="closed", players=0, sessions=0, is_public=False)
    hidden = player_add(tournament=closed, name="Ana", club="Lyon", licence="L-999").player
    organiser = make_user("olga")
    grant_organiser(organiser, twins["spring"], twins["autumn"])
    client.force_login(organiser)
    before = snapshot()
    answers = {}
    for name, data in {
        "unknown number": {"other_id": hidden.pk + 1000},
        "hidden number": {"other_id": hidden.pk},
        "unknown licence": {"other_licence": "L-000"},
        "hidden licence": {"other_licence": "L-999"},
        "another organiser's licence": {"other_licence": "L-1OO"},
    }.items():
        response = client.post(merge_url(ana), {"keep": "this", "reason": "typo",
                                                "preview": "1", **data})
        assert response.status_code == 400, name
        errors = response.context["form"].errors.as_data()
        answers[name] = {field: [(e.code, e.messages) for e in found]
                         for field, found in errors.items()}
    assert answers["unknown number"] == answers["hidden number"]
    assert answers["unknown licence"] == answers["hidden licence"] \
        == answers["another organiser's licence"]
    assert answers["hidden number"]["other_id"][0][0] == "other-unknown"
    assert snapshot() == before
