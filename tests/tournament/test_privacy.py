"""Nothing of a private tournament can be read by someone who may not see it: every public
page, export and PDF of an installation holding one is read, as the public and as a logged-in
account without a role, and none shows its name, its address, its players or its results.

The installation: "Spring Open" (public, rated, played), "Closed Night Zeta" (private, rated,
played: three players of its own and Sam, who plays in Spring too; a record of it merged into
a Spring player; its players in a category of its own and its clubs ranked), "Open
Season", a public league of both, and the practice table of Spring's organiser, its match
confirmed (docs/guides/referee.md: it counts nowhere and shows nowhere). Spring has a category too.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import fresh, played_record
from tests.tournament.printing.helpers import pdf_pages
from tests.tournament.test_roles import named_patterns
from tests.tournament.tournaments import settings_of
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.kit.table_codes import table_code
from tournament.matches.scorers import scorer_token, table_scorer
from tournament.matches.services import match_record_import_and_confirm
from tournament.matches.signatures import seat_token
from tournament.models import (
    Category,
    League,
    Match,
    Player,
    PlayerRating,
    RatingChange,
    RefereeCall,
    Registration,
    StaffRole,
    Tournament,
)
from tournament.organiser.services import player_add, tournament_update
from tournament.organiser.services.categories import registrations_categorise
from tournament.players.services import players_merge
from tournament.practice.services import practice_open
from tournament.room import services as room_services
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create, session_start

pytestmark = pytest.mark.django_db

SECRET_NAME = "Closed Night Zeta"
SECRET_SLUG = "closed-night-zeta"
SECRET_PLAYERS = ["Xavier Hiddenfield", "Yolande Quietmoor", "Zacharie Nevershown"]
TWIN = "Xara Twinhidden"
SECRET_CATEGORY = "Zetaveterans"
#: What each address is read with too: a page's downloads, a document's HTML.
PAGE_VARIANTS = ["", "?_export=csv", "?_export=xlsx", "?_export=ods"]
PDF_VARIANTS = ["", "?html"]


def confirm_every_match(tournament, user) -> None:
    for match in Match.objects.filter(table__session__tournament=tournament).order_by("pk"):
        match_record_import_and_confirm(match=fresh(match), user=user,
                                        record=played_record(match=match, seed=match.table.number))


@pytest.fixture
def installation(make_tournament, make_user):
    """The installation of the module's docstring; returns the ids and names it is read with."""
    olga = make_user("olga-both")
    spring = make_tournament(slug="spring-open", players=8, sessions=1, started=True)
    staff_role_grant(tournament=spring, user=olga, role=StaffRole.Role.ORGANISER)
    confirm_every_match(spring, olga)
    ratings_before = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma",
                                                             "matches", "last_tournament_id"))

    closed = tournament_create(name=SECRET_NAME, slug=SECRET_SLUG, is_public=False,
                               start_date=spring.start_date, organiser=olga)
    sam = spring.registrations.order_by("pk").first().player
    Registration.objects.create(tournament=closed, player=sam)
    secret = [player_add(tournament=closed, name=name, club="Zeta Club",
                         categories=[SECRET_CATEGORY]).player for name in SECRET_PLAYERS]
    tournament_update(**settings_of(closed, team_size=2))
    registrations_categorise(tournament=spring, categories={
        registration.pk: ["Spring Juniors"] for registration in spring.registrations.all()})
    session = session_create(tournament=closed)
    session_seat_players(session=session, tables=[[sam, *secret]])
    session_start(session=session)
    confirm_every_match(closed, olga)
    # the room of the private tournament: an announcement naming a player, a call
    room_services.announcement_add(tournament=closed, text=f"{SECRET_PLAYERS[0]} wins a prize")
    room_services.call_make(table=session.tables.get(number=1), reason="dispute",
                            code=table_code(closed.pk, 1))
    practice = practice_open(tournament=spring, user=olga)
    confirm_every_match(practice.table.session.tournament, olga)
    twin = player_add(tournament=closed, name=TWIN).player
    spring_player = spring.registrations.order_by("pk").last().player
    players_merge(kept=spring_player, merged=twin, user=olga, reason="same person")
    # The private tournament's and the practice table's matches moved no rating: the figures
    # are Spring's alone.
    assert sorted(PlayerRating.objects.values_list(
        "player_id", "mu", "sigma", "matches", "last_tournament_id")) == ratings_before
    assert not RatingChange.objects.filter(tournament=closed).exists()

    league = League.objects.create(name="Open Season", slug="open-season")
    league.organisers.add(olga)
    Tournament.objects.filter(pk__in=[spring.pk, closed.pk]).update(league=league)
    return {
        "spring": spring, "closed": closed, "sam": sam, "league": league,
        "practice": practice.table.session.tournament,
        "closed_matches": list(Match.objects.filter(table__session__tournament=closed)
                               .values_list("pk", flat=True)),
    }


def addresses(installation) -> list[str]:
    """Every GET address of the site with every value a reader may try: both tournaments'
    addresses, every session and table number, every match, every player record (merged
    ones too), the league."""
    spring, closed, league = installation["spring"], installation["closed"], installation["league"]
    values = {
        "slug": [spring.slug, closed.slug, league.slug, installation["practice"].slug],
        "number": [1, 2],
        "match_id": list(Match.objects.values_list("pk", flat=True)),
        "player_id": list(Player.objects.values_list("pk", flat=True)),
        "registration_id": list(Registration.objects.values_list("pk", flat=True))[:2],
        "role_id": list(StaffRole.objects.values_list("pk", flat=True))[:1],
        "turn_id": [1],
        "invitation_id": [1],
        "call_id": list(RefereeCall.objects.values_list("pk", flat=True))[:2] or [1],
        "category_id": list(Category.objects.values_list("pk", flat=True)),
        "table": [1, 2],
        # a table's scorer link: each match's own, and one guessed
        "token": [scorer_token(match.pk, table_scorer(match=match).salt)
                  for match in Match.objects.order_by("pk")]
        # and each seat's own link (every seat signs a round)
        + [seat_token(table_scorer(match=match), 0) for match in Match.objects.order_by("pk")]
        + ["A" * 22],
    }
    urls = set()
    for name, pattern in named_patterns():
        keys = list(pattern.pattern.converters)
        combinations = [{}]
        for key in keys:
            combinations = [{**done, key: value} for done in combinations
                            for value in values[key]]
        for kwargs in combinations:
            urls.add(reverse(name, kwargs=kwargs))
    return sorted(urls)


def readable_text(response) -> str:
    """What a response shows, whatever its form: pages, CSV and JSON as text, PDFs by their
    text, spreadsheets (XLSX, ODS) and ZIPs by every entry's text."""
    content = response.content
    kind = response.get("Content-Type", "")
    if kind.startswith("application/pdf"):
        return "\n".join(pdf_pages(content))
    if content.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return "\n".join(archive.read(name).decode("utf-8", "replace")
                             for name in archive.namelist())
    return content.decode("utf-8", "replace")


def forbidden_in(text: str, *, also: tuple[str, ...] = ()) -> list[str]:
    text = " ".join(text.split())  # a name may wrap in a PDF's cell
    found = [word for word in (SECRET_NAME, SECRET_SLUG, TWIN, SECRET_CATEGORY, *SECRET_PLAYERS,
                               *also)
             if word in text]
    # Their surnames alone too (a short name, an initial): nobody else bears them.
    found += [name.split()[-1] for name in (*SECRET_PLAYERS, TWIN)
              if re.search(rf"\b{re.escape(name.split()[-1])}\b", text)]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("reader", ["anonymous", "logged in without a role"])
def test_no_public_page_export_or_pdf_shows_anything_of_the_private_tournament(
    installation, make_user, reader
):
    """(A minute a reader: every PDF is made. The logged-in reader gets the documents the
    anonymous one does, made for the same tournaments: their PDFs are read once.)"""
    client = Client(raise_request_exception=False)
    urls = addresses(installation)
    if reader != "anonymous":
        client.force_login(make_user("oscar-nobody"))
        urls = [url for url in urls if not url.endswith(".pdf")]
    practice = installation["practice"]
    practice_words = (practice.slug, practice.name, *practice.registrations.values_list(
        "player__name", flat=True))
    read = []
    for url in urls:
        for suffix in PDF_VARIANTS if url.endswith(".pdf") else PAGE_VARIANTS:
            response = client.get(url + suffix)
            assert response.status_code < 500, url + suffix
            if response.status_code != 200:
                continue
            read.append(url + suffix)
            assert forbidden_in(readable_text(response), also=practice_words) == [], url + suffix
    # What was read: the lists across tournaments, their exports and PDFs, the careers.
    sam = installation["sam"]
    for expected in ("/ratings/?_export=xlsx", "/ratings.pdf", "/leagues/",
                     "/leagues/open-season/?_export=ods", "/leagues/open-season/ranking.pdf",
                     "/leagues/open-season/ratings.pdf", f"/players/{sam.pk}/",
                     f"/players/{sam.pk}/career.pdf", "/t/spring-open/standings.pdf"):
        assert expected in read or (reader != "anonymous" and expected.endswith(".pdf")), \
            expected
    assert not [url for url in read if SECRET_SLUG in url or practice.slug in url]
    # The private tournament's records answer as no record at all, the merged one too (no
    # redirect telling whom it was merged into).
    nobody = Player.objects.order_by("-pk").first().pk + 1000
    secret_records = Player.objects.filter(name__in=[*SECRET_PLAYERS, TWIN])
    assert secret_records.count() == len(SECRET_PLAYERS) + 1
    for pk in [*secret_records.values_list("pk", flat=True), nobody]:
        for address in (f"/players/{pk}/", f"/players/{pk}/career.pdf"):
            assert client.get(address).status_code == 404, address


def test_a_shared_players_career_counts_and_lists_the_public_tournament_only(
    client, installation
):
    """Sam played in both: the public reads Spring's matches, and a rating whose count of
    rated matches is Spring's (the private matches were rated for nobody)."""
    sam = installation["sam"]
    page = client.get(f"/players/{sam.pk}/")
    assert [entry["tournament"].slug for entry in page.context["tournaments"]] == ["spring-open"]
    assert not {entry["match_id"] for entry in page.context["matches"]} & set(
        installation["closed_matches"])
    spring_matches = Match.objects.filter(table__session__tournament=installation["spring"],
                                          table__seats__player=sam).count()
    assert page.context["rating"].matches == spring_matches


def test_the_private_tournaments_staff_read_it_counted_in_the_league(client, installation):
    staff = Client()
    staff.force_login(StaffRole.objects.get(tournament=installation["closed"]).user)
    page = staff.get("/leagues/open-season/")
    assert SECRET_NAME in page.content.decode()
    assert [item.tournament.slug for item in page.context["standing"].tournaments] == [
        "spring-open", SECRET_SLUG]
    public = client.get("/leagues/open-season/")
    assert [item.tournament.slug for item in public.context["standing"].tournaments] == [
        "spring-open"]
