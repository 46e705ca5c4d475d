"""Tables that keep their own score: the scorer link of a table's score sheet, the phone it
binds, and what that phone may not do (another table, another session, another tournament,
a referee's write, a link guessed), as the public, another table's scorer and the staff try
it (docs/guides/organiser.md, "Tables that keep their own score")."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import (
    entered_by_tables,
    fresh,
    match_at,
    matches_confirmed,
    played_record,
    rounds_confirmed,
    scorer_client,
)
from tournament.core.tournaments import staff_role_grant
from tournament.matches.scorers import TOKEN_LENGTH, ScorerActor, scorer_path, scorer_token
from tournament.matches.services import match_record_import
from tournament.matches.services.scorers import (
    LINK_ADDRESS_LIMIT,
    scorer_hand_over,
    table_scorer,
)
from tournament.models import AuditEntry, MatchEntry, Session, StaffRole, TableScorer, Turn
from tournament.room.services import session_entry_set
from tournament.sessions.services import session_close

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
OPENING = {"player": "0", "tile": "555", "cell": "U(0,0)", "draws": "0", "claimed": "25"}


def url(match, name="match", **kwargs):
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def phone(address: str = "10.0.0.1") -> Client:
    """A player's phone: a browser of its own, at its own address."""
    return Client(REMOTE_ADDR=address)


def turn(client, match, **changes):
    return client.post(url(match, "match_turn_add"),
                       {"revision": fresh(match).revision, **OPENING, **changes}, **HTMX)


def turns(match) -> int:
    return Turn.objects.current().filter(round__match=match).count()


# -- the organiser's choice --------------------------------------------------------------------


def test_by_default_the_referees_enter_and_no_link_opens(tournament, referee_client):
    match = match_at(tournament=tournament, started=True)
    link = scorer_path(table_scorer(match=match))
    assert phone().get(link).status_code == 404
    assert phone().post(link).status_code == 404
    assert "scorer_panel" not in referee_client.get(url(match)).context


def test_a_session_may_choose_otherwise_than_its_tournament(tournament, organiser_client):
    match = match_at(tournament=tournament, started=True)
    link = scorer_path(table_scorer(match=match))
    session = match.table.session
    response = organiser_client.post(
        reverse("tournament:session_match_entry", kwargs={"slug": tournament.slug, "number": 1}),
        {"match_entry": MatchEntry.TABLES})
    assert response.status_code == 302
    assert Session.objects.get(pk=session.pk).entry_by_tables
    assert phone().get(link).status_code == 200
    entered_by_tables(tournament=tournament)
    session_entry_set(session=session, match_entry=MatchEntry.REFEREES)  # the session's word
    assert phone().get(link).status_code == 404


def test_a_closed_sessions_choice_stays(tournament, organiser):
    match = match_at(tournament=tournament, started=True)
    matches_confirmed(tournament=tournament)
    session_close(session=match.table.session, user=organiser)
    with pytest.raises(ValidationError) as refused:
        session_entry_set(session=match.table.session, match_entry=MatchEntry.TABLES)
    assert refused.value.code == "session-closed"


# -- the sheet, the link, the phone ----------------------------------------------------------


def test_the_score_sheet_prints_each_tables_private_link(tournament, referee_client):
    entered_by_tables(tournament=tournament)
    html = referee_client.get(f"/t/{tournament.slug}/sessions/1/sheets.pdf?html").content.decode()
    for table in tournament.sessions.get().tables.all():
        link = "http://testserver" + scorer_path(table_scorer(match=table.match))
        assert f'alt="{link}"' in html and f">{link}</p>" in html
    assert f"/t/{tournament.slug}/matches/" not in html  # the public address gives way to it


def test_a_referee_of_some_tables_prints_their_links_only(tournament, referee_of_table_2,
                                                          client):
    entered_by_tables(tournament=tournament)
    client.force_login(referee_of_table_2)
    html = client.get(f"/t/{tournament.slug}/sessions/1/sheets.pdf?html").content.decode()
    one, two = (table_scorer(match=t.match) for t in tournament.sessions.get().tables.order_by(
        "number"))
    assert scorer_path(two) in html and scorer_path(one) not in html


def test_the_link_is_long_unguessable_and_not_stored(tournament):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    scorer = table_scorer(match=match)
    token = scorer_token(match.pk, scorer.salt)
    assert len(token) == TOKEN_LENGTH == 22  # 132 bits of base64
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
    stored = " ".join(str(value) for value in TableScorer.objects.values_list().get())
    assert token not in stored


def test_opening_the_link_binds_nothing_saying_so_makes_the_phone_the_scorer(tournament):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    viewer = phone()
    page = viewer.get(link)
    assert page.status_code == 200 and page.context["refusal"] is None
    assert table_scorer(match=match).device == ""  # a chat's preview of the link binds nothing
    scorer = scorer_client(match)
    entry = scorer.get(url(match))
    assert entry.context["can_write"] and entry.context["is_scorer"]
    assert entry.context["turn_form"] is not None
    response = turn(scorer, match)
    assert response.status_code == 200 and response["X-Submission"] == "saved"
    assert turns(match) == 1
    device = table_scorer(match=match).device
    entries = AuditEntry.objects.filter(match=match).order_by("at", "id")
    assert [(e.action, e.device, e.user_id) for e in entries] == [
        (AuditEntry.Action.SCORER_BOUND, device, None),
        (AuditEntry.Action.TURN_ADDED, device, None)]


def test_the_public_page_is_not_the_scorers(tournament):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    scorer = scorer_client(match)
    assert not phone("10.0.0.9").get(url(match)).context["can_write"]
    assert scorer.get(url(match)).context["can_write"]  # not the public's kept copy


def test_the_scorer_neither_decides_nor_confirms(tournament, referee):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    scorer = scorer_client(match)
    turn(scorer, match, claimed="30")  # a claim the engine does not agree with: to decide
    (saved,) = Turn.objects.current().filter(round__match=match)
    assert saved.verdict == "mismatch"
    page = scorer.get(url(match))
    assert "decide-engine" not in page.content.decode()
    revision = fresh(match).revision
    for name, kwargs in (("match_turn_decide", {"turn_id": saved.pk}),
                         ("match_round_confirm", {"number": 1}),
                         ("match_round_settlement_decide", {"number": 1})):
        response = scorer.post(url(match, name, **kwargs),
                               {"revision": revision, "decision": "engine"}, **HTMX)
        assert response.status_code == 404, name
    assert fresh(match).revision == revision


# -- what a scorer may not reach -------------------------------------------------------------


def test_another_tables_match_is_no_page_to_a_scorer(tournament):
    entered_by_tables(tournament=tournament)
    one = match_at(tournament=tournament, started=True)
    two = match_at(tournament=tournament, table=2)
    scorer = scorer_client(one)
    for htmx in ({}, HTMX):
        assert turn(scorer, two, **htmx).status_code == 404
    assert turns(two) == 0
    assert not scorer.get(url(two)).context["can_write"]
    assert scorer.post(url(two, "match_scorer_hand_over")).status_code == 404
    assert scorer.post(url(one, "match_scorer_hand_over")).status_code == 404


def test_another_sessions_and_another_tournaments_matches_neither(tournament, make_tournament):
    entered_by_tables(tournament=tournament)
    other = entered_by_tables(tournament=make_tournament(slug="other-cup", sessions=2, started=True))
    match = match_at(tournament=tournament, started=True)
    scorer = scorer_client(match)
    for elsewhere in (match_at(tournament=other), match_at(tournament=other, session=2)):
        assert turn(scorer, elsewhere).status_code == 404
        assert turns(elsewhere) == 0
        # nor does its own link open another match: the token is the match's
        token = scorer_path(table_scorer(match=match)).rstrip("/").rsplit("/", 1)[1]
        wrong = reverse("tournament:scorer_link", kwargs={"match_id": elsewhere.pk,
                                                          "token": token})
        assert scorer.get(wrong).status_code == 404


def test_a_private_tournaments_scorer_enters_its_match_and_sees_nothing_else(make_tournament):
    tournament = entered_by_tables(tournament=make_tournament(slug="private-cup", is_public=False))
    match = match_at(tournament=tournament, started=True)
    scorer = scorer_client(match)
    assert scorer.get(url(match)).status_code == 200
    assert turn(scorer, match).status_code == 200
    assert scorer.get(url(match_at(tournament=tournament, table=2))).status_code == 404
    assert scorer.get(f"/t/{tournament.slug}/").status_code == 404
    assert phone("10.0.0.7").get(url(match)).status_code == 404


def test_the_public_and_other_staff_cannot_hand_over_nor_lock(tournament, referee_of_table_2,
                                                             make_tournament, make_user):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    before = table_scorer(match=match).salt
    stranger = make_user("sam-other-organiser")
    staff_role_grant(tournament=make_tournament(slug="other-cup"), user=stranger,
                     role=StaffRole.Role.ORGANISER)
    for user, expected in ((None, 302), (referee_of_table_2, 403), (stranger, 403)):
        client = Client()
        if user is not None:
            client.force_login(user)
        for name in ("match_scorer_hand_over", "match_scorer_lock"):
            response = client.post(url(match, name))
            assert response.status_code == expected, (user, name)
    scorer = table_scorer(match=match)
    assert (scorer.salt, scorer.locked) == (before, False)


# -- the referee takes over, hands over ------------------------------------------------------


def test_a_hand_over_refuses_the_old_link_and_tells_the_old_phone(tournament, referee,
                                                                 referee_client):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    old_link = scorer_path(table_scorer(match=match))
    old_phone = scorer_client(match)
    panel = referee_client.get(url(match)).context["scorer_panel"]
    assert panel["scorer"].device and panel["link"].endswith(old_link)
    response = referee_client.post(url(match, "match_scorer_hand_over"))
    assert response.status_code == 302
    # the old phone's next write: refused as a login that expired, so that its queue keeps it
    answer = turn(old_phone, match)
    assert answer.status_code == 401 and answer["X-Scorer"] == "unbound"
    assert answer["X-Login-Url"] == url(match)
    assert turns(match) == 0
    page = old_phone.get(url(match))
    assert page.context["scorer_unbound"] and not page.context["can_write"]
    assert phone("10.0.0.2").get(old_link).status_code == 404
    new_phone = scorer_client(match, address="10.0.0.3")
    assert turn(new_phone, match).status_code == 200
    actions = list(AuditEntry.objects.filter(match=match).order_by("at", "id").values_list(
        "action", "user"))
    assert (AuditEntry.Action.SCORER_HANDED_OVER, referee.pk) in actions


def test_a_take_over_locks_the_link_and_the_referee_enters(tournament, organiser_client):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    scorer = scorer_client(match)
    assert organiser_client.post(url(match, "match_scorer_lock")).status_code == 302
    assert turn(scorer, match).status_code == 401
    refused = phone("10.0.0.4").get(link)
    assert refused.status_code == 403 and refused.context["refusal"].code == "scorer-locked"
    assert turn(organiser_client, match).status_code == 200  # the referee's tablet enters
    assert turns(match) == 1


def test_a_second_phone_does_not_take_the_table_from_the_first(tournament):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    first = scorer_client(match)
    second = phone("10.0.0.5")
    response = second.post(link)
    assert response.status_code == 403 and response.context["refusal"].code == "scorer-taken"
    assert turn(second, match).status_code == 404  # a phone that is no scorer of it
    assert turns(match) == 0
    assert turn(first, match).status_code == 200


def test_a_closed_session_refuses_the_link_and_the_scorers_writes(tournament, organiser):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    scorer = scorer_client(match)
    revision = fresh(match).revision
    matches_confirmed(tournament=tournament)
    counted = turns(match)
    session_close(session=match.table.session, user=organiser)
    response = scorer.post(url(match, "match_turn_add"),
                           {"revision": fresh(match).revision, **OPENING}, **HTMX)
    assert response.status_code == 400 and response["X-Submission"] == "refused"
    assert turns(match) == counted and fresh(match).revision > revision
    late = phone("10.0.0.6").post(link)
    assert late.status_code == 403 and late.context["refusal"].code == "session_closed"


# -- a link guessed --------------------------------------------------------------------------


def test_guessing_links_is_locked_out_per_address(tournament):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    real = scorer_path(table_scorer(match=match))
    guesser = phone("10.6.6.6")
    for attempt in range(LINK_ADDRESS_LIMIT.tries):
        guess = reverse("tournament:scorer_link", kwargs={
            "match_id": match.pk, "token": f"{attempt:022d}"})
        assert guesser.get(guess).status_code == 404
    locked = guesser.get(real)  # even the right link, once locked out: not even compared
    assert locked.status_code == 429 and locked.context["refusal"].code == "locked-out"
    assert "table" not in locked.context  # nothing of the match told past the limit
    assert guesser.post(real).status_code == 429
    assert table_scorer(match=match).device == ""
    assert phone("10.0.0.8").get(real).status_code == 200  # another address is not locked


def test_a_handed_over_link_is_checked_in_the_write_too(tournament, referee):
    """The link handed over between the check and the bind: refused, nothing bound."""
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    scorer_hand_over(match=match, user=referee)
    assert phone().post(link).status_code == 404
    assert table_scorer(match=match).device == ""


def test_the_organiser_chooses_for_the_tournament_on_the_room_settings(tournament,
                                                                      organiser_client):
    response = organiser_client.post(f"/t/{tournament.slug}/room/settings/", {
        "action": "settings", "time_up_action": "flag", "screen_seconds": "15",
        "screen_top": "10", "match_entry": MatchEntry.TABLES})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.match_entry == MatchEntry.TABLES
    match = match_at(tournament=tournament, started=True)
    assert phone().get(scorer_path(table_scorer(match=match))).status_code == 200


def test_the_scorers_queue_says_it_no_longer_keeps_the_score_not_that_a_login_expired(
        tournament, referee_client):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    scorer = scorer_client(match)

    def login_words(client) -> str:
        page = client.get(url(match)).content.decode()
        return re.search(r'data-login="([^"]*)"', page).group(1)

    assert login_words(scorer) != login_words(referee_client)


@pytest.mark.parametrize("token", ["", "²" * 22, "x" * 5000, "%00" * 22, "A" * 21, "A" * 23,
                                   "é" * 22, "' OR 1=1 --", "..", "%2F" * 8])
def test_a_nasty_link_is_no_page_never_an_error(tournament, token):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    table_scorer(match=match)
    path = f"/s/{match.pk}/{token}/"
    client = phone(f"10.1.{len(token) % 250}.1")
    for method in (client.get, client.post):
        assert method(path).status_code in {404, 429}, (token, method)
    assert table_scorer(match=match).device == ""
    assert client.get(f"/s/{match.pk + 1000}/{'A' * 22}/").status_code == 404


def test_the_public_page_says_the_table_entered_the_match_and_a_referee_confirmed_it(
        tournament, referee):
    entered_by_tables(tournament=tournament)
    one = match_at(tournament=tournament, started=True)
    two = match_at(tournament=tournament, table=2)
    public = Client()

    def says(match) -> str:  # what the public's page (its kept copy) says of who entered it
        page = public.get(url(match)).content.decode()
        return " ".join(re.findall(r'data-(entered|confirmed)="', page))

    assert says(one) == ""
    scorer = scorer_client(one)
    assert says(one) == ""  # bound, nothing entered yet
    turn(scorer, one)
    assert says(one) == "entered"
    assert says(two) == ""  # another table's is its own
    # a whole match written by a table's phone (as the write path takes it), confirmed
    match_record_import(match=fresh(two), user=ScorerActor(scorer_device="phone-2"),
                        seen_revision=fresh(two).revision, record=played_record(match=two))
    rounds_confirmed(match=two, user=referee)
    assert says(two) == "entered confirmed"
    assert set(AuditEntry.objects.filter(match=two, action=AuditEntry.Action.ROUND_CONFIRMED)
               .values_list("user", "device")) == {(referee.pk, "")}


def test_the_head_referees_board_shows_the_tables_waiting_for_their_scorer(tournament,
                                                                           referee):
    from tournament.room.selectors import board

    entered_by_tables(tournament=tournament)
    one = match_at(tournament=tournament, started=True)
    two = match_at(tournament=tournament, table=2)

    def waiting() -> list[int]:
        rows = board(session=Session.objects.get(pk=one.table.session_id))["rows"]
        return sorted(row["number"] for row in rows if "no-scorer" in row["needs"])

    assert waiting() == [1, 2]
    scorer_client(one)
    assert waiting() == [2]
    scorer_lock_for_two = reverse("tournament:match_scorer_lock", kwargs={
        "slug": tournament.slug, "match_id": two.pk})
    client = Client()
    client.force_login(referee)
    assert client.post(scorer_lock_for_two).status_code == 302
    assert waiting() == []  # locked: a referee enters there
    session_entry_set(session=one.table.session, match_entry=MatchEntry.REFEREES)
    assert waiting() == []


def test_the_audit_log_names_the_scorer_phone_and_the_referee(tournament, referee,
                                                              referee_client):
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    scorer = scorer_client(match)
    turn(scorer, match)
    referee_client.post(url(match, "match_scorer_lock"))
    device = AuditEntry.objects.get(match=match, action=AuditEntry.Action.TURN_ADDED).device
    page = referee_client.get(url(match, "match_audit")).content.decode()
    shown = re.findall(r'data-device="([^"]+)"', page)
    assert shown == [device, device]  # bound, then the turn
    assert referee.username in page  # the take-over's
