"""The career page: every tournament (final rank from the standings), every match, the
rating, the charts; merged records redirect; private tournaments stay private; flat cost."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import attribute, by_id, has_id, select
from tests.tournament.players.helpers import long_career, two_tournaments
from tournament.core.tournaments import staff_role_grant
from tournament.models import Match, Player, PlayerRating, RatingChange, Seat, StaffRole
from tournament.organiser.services import player_add
from tournament.players.services import players_merge
from tournament.ratings.model import Skill
from tournament.standings.selectors import standings

SVG = "{http://www.w3.org/2000/svg}"


def career_url(player) -> str:
    return reverse("tournament:player_career", kwargs={"player_id": player.pk})


@pytest.fixture
def career(db):
    return two_tournaments()


def svg_of(response, chart_id: str) -> ET.Element:
    """The inline chart of this id, parsed as XML (the SVG as the server wrote it)."""
    html = response.content.decode()
    for chart in html.split("<svg ")[1:]:
        svg = ET.fromstring("<svg " + chart[: chart.index("</svg>")] + "</svg>")
        if svg.get("id") == chart_id:
            return svg
    raise AssertionError(f"no chart {chart_id}")


def test_every_tournament_with_the_final_rank_of_the_standings(client, career):
    ana = career["ana"]
    response = client.get(career_url(ana))
    assert response.status_code == 200
    context = response.context
    assert [entry["tournament"].slug for entry in context["tournaments"]] == ["autumn", "spring"]
    for entry in context["tournaments"]:
        rows = standings(tournament=entry["tournament"]).rows
        row = next(row for row in rows if row["player_id"] == ana.pk)
        assert (entry["rank"], entry["rank_label"], entry["player_count"], entry["matches"]) == (
            row["rank"], row["rank_label"], len(rows), row["matches"]
        )
        tr = by_id(response, f"tournament-{entry['tournament'].pk}")
        assert attribute(tr, "data-rank") == str(row["rank"])
        links = [attribute(a, "href")
                 for a in select(response, f"#tournament-{entry['tournament'].pk} a")]
        assert reverse("tournament:player", kwargs={
            "slug": entry["tournament"].slug, "player_id": ana.pk}) in links


def test_every_match_with_opponents_totals_rank_and_rating_change(client, career):
    ana = career["ana"]
    response = client.get(career_url(ana))
    matches = response.context["matches"]
    seats = Seat.objects.filter(player=ana).select_related("table__match", "session")
    assert sorted(entry["match_id"] for entry in matches) == sorted(
        seat.table.match.pk for seat in seats
    )
    changes = {change.match_id: change for change in RatingChange.objects.filter(player=ana)}
    for entry in matches:
        match = Match.objects.get(pk=entry["match_id"])
        seat = next(seat for seat in seats if seat.table.match.pk == match.pk)
        assert entry["session"] == seat.session.number and entry["table"] == seat.table.number
        assert entry["total"] == match.totals[seat.order]
        others = list(match.table.seats.exclude(player=ana).order_by("order"))
        assert [opponent["name"] for opponent in entry["opponents"]] == [
            other.player.name for other in others
        ]
        assert [opponent["total"] for opponent in entry["opponents"]] == [
            match.totals[other.order] for other in others
        ]
        assert entry["rank"] == changes[match.pk].rank
        change = changes[match.pk]
        assert entry["rating_change"] == pytest.approx(
            Skill(change.mu, change.sigma).conservative
            - Skill(change.mu_before, change.sigma_before).conservative
        )
        assert entry["won"] == (entry["rank"] == 1)
        links = [attribute(a, "href") for a in select(response, f"#match-{match.pk} a")]
        assert match.get_absolute_url() in links
    # Oldest first in the context (the charts' order), newest first in the table.
    assert [entry["match_id"] for entry in matches] == sorted(
        changes, key=lambda pk: (changes[pk].at, pk)
    )
    rows = select(response, "#matches tbody tr")
    assert [attribute(row, "data-match") for row in rows] == [
        str(entry["match_id"]) for entry in reversed(matches)
    ]


def test_current_rating_and_its_charts(client, career):
    ana = career["ana"]
    response = client.get(career_url(ana))
    rating = PlayerRating.objects.get(player=ana)
    assert float(attribute(by_id(response, "rating"), "data-rating")) == pytest.approx(
        rating.conservative, abs=1e-3
    )
    history = list(RatingChange.objects.filter(player=ana).order_by("at", "match_id"))
    line = svg_of(response, "rating-chart").find(".//*[@id='rating-chart-line']")
    assert len(line.findall(f".//{SVG}use")) == len(history) == 3
    points = svg_of(response, "points-chart")
    bars = [n for n in points.iter() if n.get("id", "").startswith("points-chart-bar-")]
    assert len(bars) == 3
    assert response.context["session_points"] == [
        (entry["tournament"], entry["session"], entry["total"])
        for entry in response.context["matches"]
    ]
    assert [value for value, _t in response.context["rating_history"]] == pytest.approx(
        [Skill(change.mu, change.sigma).conservative for change in history]
    )


def test_no_data_a_sentence_instead_of_a_chart(client, make_tournament):
    tournament = make_tournament(slug="fresh", players=4)  # seated, nothing played
    player = tournament.registrations.first().player
    response = client.get(career_url(player))
    assert response.status_code == 200
    assert has_id(response, "no-rating-chart") and has_id(response, "no-points-chart")
    assert not select(response, "svg")


def test_merged_record_redirects_permanently_to_the_kept_one(client, career, make_tournament):
    ana = career["ana"]
    winter = make_tournament(slug="winter", players=0, sessions=0)
    summer = make_tournament(slug="summer", players=0, sessions=0)
    twin = player_add(tournament=winter, name="Ana", club="Lyon", licence="L-1OO").player
    third = player_add(tournament=summer, name="Ana B").player
    players_merge(kept=twin, merged=third, user=None, reason="same person")  # merged twice over
    players_merge(kept=ana, merged=twin, user=None, reason="same person")
    response = client.get(career_url(twin))
    assert response.status_code == 301
    assert response["Location"] == career_url(ana)
    pdf = client.get(reverse("tournament:player_career_pdf", kwargs={"player_id": twin.pk}))
    assert pdf.status_code == 301
    assert pdf["Location"] == reverse("tournament:player_career_pdf",
                                      kwargs={"player_id": ana.pk})
    assert client.get(career_url(third))["Location"] == career_url(ana)


def test_a_merged_record_of_a_private_tournament_is_a_404_as_no_record(
    client, career, make_tournament, make_user
):
    """Before the redirect, the visibility: a record of a private tournament merged into a
    public player's record must not answer 301 to the public (it would tell that the record
    existed and who it is); it answers as an address with no record at all."""
    ana = career["ana"]
    closed = make_tournament(slug="closed", players=0, sessions=0, is_public=False)
    hidden = player_add(tournament=closed, name="Ana", club="Lyon").player
    players_merge(kept=ana, merged=hidden, user=None, reason="same person")
    nobody = Player.objects.order_by("-pk").first().pk + 1000
    for url_name in ("player_career", "player_career_pdf"):
        merged = reverse(f"tournament:{url_name}", kwargs={"player_id": hidden.pk})
        missing = reverse(f"tournament:{url_name}", kwargs={"player_id": nobody})
        assert client.get(merged).status_code == client.get(missing).status_code == 404
        referee = make_user(f"closed-referee-{url_name}")
        staff_role_grant(tournament=closed, user=referee, role=StaffRole.Role.REFEREE)
        staff = Client()
        staff.force_login(referee)
        assert staff.get(merged).status_code == 301


def test_unknown_player_404(client, db):
    assert client.get(reverse("tournament:player_career", kwargs={"player_id": 999})).status_code == 404


def test_private_tournament_shown_to_its_staff_only(client, career, make_user):
    ana, spring = career["ana"], career["spring"]
    spring.is_public = False
    spring.save()
    response = client.get(career_url(ana))
    assert [entry["tournament"].slug for entry in response.context["tournaments"]] == ["autumn"]
    assert {entry["tournament"].slug for entry in response.context["matches"]} == {"autumn"}
    assert not has_id(response, f"tournament-{spring.pk}")
    # Only private tournaments: nothing to show the public.
    only_spring = career["players"]["Ed"]
    assert client.get(career_url(only_spring)).status_code == 404
    referee = make_user("rita")
    staff_role_grant(tournament=spring, user=referee, role=StaffRole.Role.REFEREE)
    client.force_login(referee)
    response = client.get(career_url(ana))
    assert [entry["tournament"].slug for entry in response.context["tournaments"]] == [
        "autumn", "spring"
    ]
    assert client.get(career_url(only_spring)).status_code == 200


def test_licence_for_organisers_only(client, career, make_user):
    ana = career["ana"]
    assert not has_id(client.get(career_url(ana)), "licence")
    organiser = make_user("olga")
    staff_role_grant(tournament=career["spring"], user=organiser,
                              role=StaffRole.Role.ORGANISER)
    client.force_login(organiser)
    response = client.get(career_url(ana))
    assert by_id(response, "licence").text == "L-100"
    # Organiser of one of her two tournaments only: may not merge her records.
    assert not has_id(response, "career-merge")


def test_the_tournament_page_of_a_player_links_the_career(client, career):
    ana = career["ana"]
    response = client.get(reverse("tournament:player",
                                  kwargs={"slug": "spring", "player_id": ana.pk}))
    assert attribute(by_id(response, "career-link"), "href") == career_url(ana)


@pytest.mark.slow  # 120 matches played
def test_flat_number_of_queries(client, career, make_tournament, django_assert_max_num_queries):
    ana, players = career["ana"], career["players"]
    client.get(career_url(ana))  # the first reading draws the charts, keeps the standings
    # 8 for the page, one read of the kept standings, one of each kept chart
    with django_assert_max_num_queries(8 + 1 + 2) as captured:
        client.get(career_url(ana))
    few = len(captured.captured_queries)
    for index in range(3):
        more = make_tournament(slug=f"long-{index}", players=0, sessions=0, match_rounds=1)
        long_career(more, ana, [players["Bo"], players["Cy"], players["Di"]], 40)
    client.get(career_url(ana))  # the new tournaments' standings, the new charts: kept
    with django_assert_max_num_queries(few) as captured:
        response = client.get(career_url(ana))
    assert len(response.context["matches"]) == 3 + 3 * 40
    line = svg_of(response, "rating-chart").find(".//*[@id='rating-chart-line']")
    assert len(line.findall(f".//{SVG}use")) == 123


def test_a_rank_is_not_called_final_while_the_tournament_is_in_play(client, career,
                                                                     make_tournament):
    """Ana's two past tournaments are over; a third, its session in play, ranks her "so far"."""
    from tests.factories import played_session, players_of
    from tournament.organiser.services import player_add
    ana = career["ana"]
    live = make_tournament(slug="live-open", players=3, sessions=0)
    player_add(tournament=live, name=ana.name, club=ana.club, licence=ana.licence)
    played_session(tournament=live, tables=[players_of(live)], closed=False)
    response = client.get(career_url(ana))
    entries = {entry["tournament"].slug: entry["in_play"]
               for entry in response.context["tournaments"]}
    assert entries == {"live-open": True, "autumn": False, "spring": False}
    live_row = by_id(response, f"tournament-{live.pk}")
    assert attribute(live_row, "data-in-play") is not None
    assert select(response, f"#tournament-{live.pk} .tag--in-play")
    autumn = career["autumn"]
    assert not select(response, f"#tournament-{autumn.pk} .tag--in-play")
