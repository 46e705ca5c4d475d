"""Every seat signs: each seat's word on a round, with its seat code on the table's scorer
phone passed round, or from its own phone through its seat's link; a dispute freezing the
round and calling a referee; every seat's agreement confirming it without one. Tried as the
public, another table's scorer, a player of another tournament, a clumsy seat and a
referee would (docs/guides/organiser.md, "Every seat signs")."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import (
    add,
    board_turn,
    entered_by_tables,
    fresh,
    match_at,
    played_record,
    rounds_confirmed,
    scorer_client,
    truncated,
)
from tests.tournament.matches.helpers import app_queries
from tournament.core.tournaments import staff_role_grant
from tournament.figures.check import figures_check
from tournament.matches.reading import replay as replay_module
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.rows import match_rows
from tournament.matches.scorers import ScorerActor
from tournament.matches.services import match_record_import, match_round_confirm, match_round_end
from tournament.matches.services.scorers import scorer_hand_over, table_scorer
from tournament.matches.services.signatures import (
    CODE_ADDRESS_LIMIT,
    CODE_MATCH_LIMIT,
    round_sign,
)
from tournament.matches.signatures import (
    CODE_ALPHABET,
    CODE_LENGTH,
    SigningRound,
    round_digest,
    round_to_sign,
    seat_code,
    seat_path,
    signing_states,
)
from tournament.models import (
    AuditEntry,
    Match,
    RefereeCall,
    Round,
    RoundSignature,
    StaffRole,
    Turn,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(match, name="match_round_sign", **kwargs):
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def one_round_entered(tournament, *, table: int = 1) -> tuple[Match, Client]:
    """Table ``table``'s match with its first round entered by its scorer phone, not
    confirmed; and that phone."""
    entered_by_tables(tournament=tournament)
    match = match_at(tournament=tournament, table=table, started=True)
    phone = scorer_client(match, address=f"10.0.{table}.1")
    device = phone.session["table_scorer"]["device"]
    record = truncated(played_record(match=match), rounds=1)
    match_record_import(match=fresh(match), user=ScorerActor(scorer_device=device),
                        seen_revision=fresh(match).revision, record=record)
    return fresh(match), phone


def signing(match):
    return round_to_sign(match=fresh(match))


def code_of(match, seat: int) -> str:
    return seat_code(table_scorer(match=match), seat)


def sign_on_scorer(phone, match, seat: int, *, code: str | None = None, word="agree",
                   reason="", digest: str | None = None):
    state = signing(match)
    return phone.post(url(match), {
        "round": state.round.number, "digest": digest or state.digest, "seat": seat,
        "code": code if code is not None else code_of(match, seat), "word": word,
        "reason": reason})


def seat_phone(address: str = "10.9.9.9") -> Client:
    return Client(REMOTE_ADDR=address)


def sign_own(client, match, seat: int, *, word="agree", reason="", path=None):
    state = signing(match)
    return client.post(path or seat_path(table_scorer(match=match), seat), {
        "round": state.round.number, "digest": state.digest, "word": word, "reason": reason})


# -- the codes -----------------------------------------------------------------------------------


def test_seat_codes_are_short_unambiguous_and_change_with_the_sheet(tournament, referee):
    match, _phone = one_round_entered(tournament)
    codes = [code_of(match, seat) for seat in range(4)]
    assert len(set(codes)) == 4
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    other = match_at(tournament=tournament, table=2)
    assert codes[0] != seat_code(table_scorer(match=other), 0)
    scorer_hand_over(match=match, user=referee)
    assert code_of(match, 0) != codes[0]  # a new sheet: new codes, the old refused


# -- signing on the scorer phone ----------------------------------------------------------------


def test_every_seat_agreeing_confirms_the_round_without_a_referee(tournament):
    match, phone = one_round_entered(tournament)
    for seat in range(3):
        assert sign_on_scorer(phone, match, seat).status_code == 302
        assert fresh(match).rounds.get(index=0).confirmed_at is None
    response = phone.get(url(match))
    assert response.context["signing"].state.signed == 3
    assert sign_on_scorer(phone, match, 3).status_code == 302
    round_ = Round.objects.get(match=match, index=0)
    assert round_.confirmed_at is not None and round_.confirmed_by is None
    confirmed = AuditEntry.objects.get(match=match, action=AuditEntry.Action.ROUND_CONFIRMED)
    assert confirmed.details["by_seats"] is True
    assert sorted(s["seat"] for s in confirmed.details["signatures"]) == [0, 1, 2, 3]
    signed = AuditEntry.objects.filter(match=match, action=AuditEntry.Action.ROUND_SIGNED)
    assert sorted(e.details["seat"] for e in signed) == [0, 1, 2, 3]
    assert {e.device for e in signed} == {phone.session["table_scorer"]["device"]}


def test_a_one_round_match_signed_by_all_is_confirmed(tournament):
    tournament.match_rounds = 1
    tournament.save(update_fields=["match_rounds"])
    match, phone = one_round_entered(tournament)
    assert fresh(match).status == Match.Status.FINISHED
    for seat in range(4):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    assert fresh(match).status == Match.Status.CONFIRMED


def test_a_wrong_code_is_refused_next_to_the_field_and_writes_nothing(tournament):
    match, phone = one_round_entered(tournament)
    revision = fresh(match).revision
    response = sign_on_scorer(phone, match, 0, code=code_of(match, 1))  # another seat's
    assert response.status_code == 400
    assert [e.code for e in response.context["form"].errors.as_data()["code"]] == ["wrong-code"]
    assert not RoundSignature.objects.exists() and fresh(match).revision == revision


def test_typed_codes_forgive_case_spaces_and_dashes(tournament):
    match, phone = one_round_entered(tournament)
    code = code_of(match, 2)
    typed = f" {code[:3].lower()}-{code[3:]} "
    assert sign_on_scorer(phone, match, 2, code=typed).status_code == 302


def test_guessing_codes_hits_the_limit_then_even_the_right_one_waits(tournament):
    match, phone = one_round_entered(tournament)
    wrong = "A" * CODE_LENGTH if code_of(match, 0) != "A" * CODE_LENGTH else "B" * CODE_LENGTH
    for _ in range(CODE_ADDRESS_LIMIT.tries):
        assert sign_on_scorer(phone, match, 0, code=wrong).status_code == 400
    response = sign_on_scorer(phone, match, 0)
    assert response.status_code == 429
    assert [e.code for e in response.context["form"].errors.as_data()["code"]] == ["locked-out"]
    assert not RoundSignature.objects.exists()


def test_guesses_from_many_addresses_lock_the_match(tournament):
    match, _phone = one_round_entered(tournament)
    wrong = "A" * CODE_LENGTH if code_of(match, 0) != "A" * CODE_LENGTH else "B" * CODE_LENGTH
    # the scorer phone's session, from ever-new addresses (a phone on the move, or a bot)
    cookie = _phone.cookies
    for n in range(CODE_MATCH_LIMIT.tries):
        client = Client(REMOTE_ADDR=f"10.1.{n // 200}.{n % 200 + 2}")
        client.cookies = cookie
        assert sign_on_scorer(client, match, 0, code=wrong).status_code == 400
    client = Client(REMOTE_ADDR="10.3.3.3")
    client.cookies = cookie
    assert sign_on_scorer(client, match, 0).status_code == 429


def test_a_seat_signs_once_for_the_round_as_it_stands(tournament):
    match, phone = one_round_entered(tournament)
    assert sign_on_scorer(phone, match, 1).status_code == 302
    response = sign_on_scorer(phone, match, 1)
    assert response.status_code == 400
    assert "already-signed" in [e.code for e in response.context["form"].non_field_errors().as_data()]
    assert RoundSignature.objects.count() == 1


def test_a_signature_of_the_round_before_its_correction_no_longer_counts(tournament, referee):
    match, phone = one_round_entered(tournament)
    before = signing(match).digest
    for seat in range(3):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    end = fresh(match).rounds.get(index=0).ends.current().get()
    match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                    round_index=0, racks=end.racks, reason="recounted the racks")
    state = signing(match)
    assert state.digest != before and state.state.signed == 0
    # the last seat signing the old round: refused, nothing confirmed
    response = sign_on_scorer(phone, match, 3, digest=before)
    assert response.status_code == 400
    assert "round-changed" in [e.code for e in response.context["form"].non_field_errors().as_data()]
    assert fresh(match).rounds.get(index=0).confirmed_at is None


def seat_signed(match, seat: int, *, digest: str, device: str = "own-phone"):
    """Seat ``seat``'s word (agreed) on round 1 read at ``digest``, as the service takes it."""
    return round_sign(match=match, user=ScorerActor(scorer_device=device, seat=seat),
                      round_index=0, digest=digest, agreed=True, own_phone=True)


def test_a_seat_signs_though_another_write_came_between_its_page_and_its_word(tournament):
    match, phone = one_round_entered(tournament)
    page = phone.get(url(match))  # seat A reads the round: its digest, the match's revision
    read = page.context["signing"]
    # meanwhile seat B signs from its own phone: the match's revision moves, the round not
    seat_signed(fresh(match), 1, digest=read.digest)
    assert fresh(match).revision > read.revision
    response = phone.post(url(match), {
        "round": read.round.number, "digest": read.digest, "seat": 0,
        "code": code_of(match, 0), "word": "agree"})
    assert response.status_code == 302
    assert sorted(RoundSignature.objects.values_list("seat", flat=True)) == [0, 1]
    # the service itself takes the word against the match as it now is: a match read
    # before another seat's word (its revision stale) signs too
    stale = fresh(match)
    seat_signed(fresh(match), 2, digest=read.digest)
    assert stale.revision < fresh(match).revision
    written = seat_signed(stale, 3, digest=read.digest)
    assert written.saved.seat == 3 and written.replay.rounds[0].confirmed


def test_the_service_refuses_the_word_on_a_round_corrected_since_it_was_read(tournament,
                                                                             referee):
    match, _phone = one_round_entered(tournament)
    read = signing(match).digest
    end = fresh(match).rounds.get(index=0).ends.current().get()
    match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                    round_index=0, racks=end.racks, reason="recounted the racks")
    revision = fresh(match).revision
    with pytest.raises(ValidationError) as refused:
        seat_signed(fresh(match), 0, digest=read)
    assert refused.value.code == "round-changed"
    assert not RoundSignature.objects.exists() and fresh(match).revision == revision
    # the round as it now is: signed
    assert seat_signed(fresh(match), 0, digest=signing(match).digest).saved.seat == 0


def next_round_turn(match, phone) -> None:
    """The scorer phone carries on: the first turn of round 2 (the record's), saved while
    the seats sign round 1."""
    turn = played_record(match=match)["rounds"][1]["turns"][0]
    add(match, ScorerActor(scorer_device=phone.session["table_scorer"]["device"]),
        board_turn(turn))


def test_the_next_rounds_turns_leave_the_round_to_sign_as_it_stands(tournament):
    """What a seat signs of round N is round N and the totals after it: the scorer phone
    going on with round N+1 changes neither, the words given count and the others are taken."""
    match, phone = one_round_entered(tournament)
    read = signing(match)
    assert sign_on_scorer(phone, match, 0).status_code == 302
    totals = list(fresh(match).totals)
    next_round_turn(match, phone)
    assert list(fresh(match).totals) != totals  # the round in play's scores are the match's
    assert fresh(match).rounds.filter(index=1).exists()
    state = signing(match)
    assert state.round.index == 0 and state.digest == read.digest
    assert state.state.agreed == {0} and list(state.totals) == totals
    round_ = fresh(match).rounds.get(index=0)
    assert round_digest(match_rows(match=fresh(match)), round_) == read.digest
    assert signing_states(session=match.table.session)[match.pk][1].agreed == {0}
    # a word read before the turn is taken, not refused as a change
    assert seat_signed(fresh(match), 1, digest=read.digest).saved.seat == 1
    for seat in (2, 3):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    round_ = fresh(match).rounds.get(index=0)
    assert round_.confirmed_at is not None and round_.confirmed_by is None
    confirmed = AuditEntry.objects.get(match=match, action=AuditEntry.Action.ROUND_CONFIRMED)
    assert sorted(s["seat"] for s in confirmed.details["signatures"]) == [0, 1, 2, 3]


def test_a_correction_of_the_round_changes_its_digest_with_the_next_round_in_play(tournament,
                                                                                   referee):
    match, phone = one_round_entered(tournament)
    assert sign_on_scorer(phone, match, 0).status_code == 302
    next_round_turn(match, phone)
    read = signing(match).digest
    end = fresh(match).rounds.get(index=0).ends.current().get()
    match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                    round_index=0, racks=end.racks, reason="recounted the racks")
    state = signing(match)
    assert state.round.index == 0 and state.digest != read and state.state.signed == 0
    with pytest.raises(ValidationError) as refused:
        seat_signed(fresh(match), 1, digest=read)
    assert refused.value.code == "round-changed"
    assert seat_signed(fresh(match), 1, digest=state.digest).saved.seat == 1
    assert signing(match).state.agreed == {1}


def test_a_dispute_calls_a_referee_and_freezes_the_scorer(tournament, referee_client):
    match, phone = one_round_entered(tournament)
    response = sign_on_scorer(phone, match, 2, word="dispute", reason="my rack was 3-4-5")
    assert response.status_code == 302
    call = RefereeCall.objects.get(table=match.table, answered_at__isnull=True)
    assert call.reason == RefereeCall.Reason.DISPUTE
    assert signing(match).frozen
    disputed = AuditEntry.objects.get(match=match, action=AuditEntry.Action.ROUND_DISPUTED)
    assert disputed.reason == "my rack was 3-4-5" and disputed.details["seat"] == 2
    # the scorer's writes are refused with a code, nothing written
    end = fresh(match).rounds.get(index=0).ends.current().get()
    with pytest.raises(ValidationError) as refused:
        match_round_end(match=fresh(match), user=ScorerActor(
            scorer_device=phone.session["table_scorer"]["device"]),
            seen_revision=fresh(match).revision, round_index=0, racks=end.racks,
            reason="mine")
    assert refused.value.code == "round-disputed"
    # the other seats' agreements do not confirm a disputed round
    for seat in (0, 1, 3):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    assert fresh(match).rounds.get(index=0).confirmed_at is None
    # the referee decides: confirmed as it is, with who signed what in the audit
    response = referee_client.post(url(match, "match_round_confirm", number=1),
                                   {"revision": fresh(match).revision})
    assert response.status_code in (200, 302)
    round_ = fresh(match).rounds.get(index=0)
    assert round_.confirmed_by is not None
    confirmed = AuditEntry.objects.get(match=match, action=AuditEntry.Action.ROUND_CONFIRMED)
    assert confirmed.details["by_seats"] is False
    assert {(s["seat"], s["agreed"]) for s in confirmed.details["signatures"]} == {
        (0, True), (1, True), (2, False), (3, True)}


def test_a_dispute_needs_a_reason(tournament):
    match, phone = one_round_entered(tournament)
    response = sign_on_scorer(phone, match, 0, word="dispute", reason="  ")
    assert response.status_code == 400
    assert [e.code for e in response.context["form"].errors.as_data()["reason"]] == [
        "reason_required"]
    assert not RoundSignature.objects.exists() and not RefereeCall.objects.exists()


# -- a seat's own phone -------------------------------------------------------------------------


def test_each_seat_signs_from_its_own_phone(tournament):
    match, _phone = one_round_entered(tournament)
    for seat in range(4):
        client = seat_phone(f"10.8.0.{seat + 1}")
        page = client.get(seat_path(table_scorer(match=match), seat))
        assert page.status_code == 200 and page.context["seat"] == seat
        assert sign_own(client, match, seat).status_code == 302
    assert fresh(match).rounds.get(index=0).confirmed_at is not None
    signatures = RoundSignature.objects.filter(round__match=match)
    assert all(s.own_phone for s in signatures) and len({s.device for s in signatures}) == 4


def test_a_seat_link_opens_only_its_own_seat_and_dies_with_the_sheet(tournament, referee):
    match, _phone = one_round_entered(tournament)
    path = seat_path(table_scorer(match=match), 1)
    other = match_at(tournament=tournament, table=2)
    token = path.rstrip("/").split("/")[-2]
    # the same token on another match: no page
    wrong = reverse("tournament:seat_link", kwargs={"match_id": other.pk, "token": token})
    assert seat_phone().get(wrong).status_code == 404
    scorer_hand_over(match=match, user=referee)
    assert seat_phone().get(path).status_code == 404
    assert sign_own(seat_phone(), match, 1, path=path).status_code == 404
    assert not RoundSignature.objects.exists()


def test_guessed_seat_links_hit_the_limit(tournament):
    match, _phone = one_round_entered(tournament)
    client = seat_phone()
    for n in range(10):
        bad = reverse("tournament:seat_link", kwargs={"match_id": match.pk,
                                                      "token": f"{n:022d}"})
        assert client.get(bad).status_code == 404
    right = seat_path(table_scorer(match=match), 0)
    assert client.get(right).status_code == 429


# -- who may not --------------------------------------------------------------------------------


def test_another_tables_scorer_and_the_public_get_no_page(tournament):
    match, _phone = one_round_entered(tournament)
    _other, other_phone = one_round_entered(tournament, table=2)
    assert other_phone.get(url(match)).status_code == 404
    assert sign_on_scorer(other_phone, match, 0).status_code == 404
    public = Client()
    response = public.get(url(match))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not RoundSignature.objects.filter(round__match=match).exists()


def test_a_referee_confirms_on_their_own_screen_not_here(tournament, referee_client):
    match, _phone = one_round_entered(tournament)
    assert referee_client.get(url(match)).status_code == 403
    assert referee_client.post(url(match), {"seat": 0, "code": code_of(match, 0)}).status_code == 403


def test_a_player_of_another_tournament_cannot_sign_here(tournament, make_tournament):
    match, _phone = one_round_entered(tournament)
    elsewhere = entered_by_tables(tournament=make_tournament(slug="autumn-open", name="Autumn open"))
    theirs = match_at(tournament=elsewhere, started=True)
    their_phone = scorer_client(theirs, address="10.7.7.7")
    # their scorer phone, their own seat link's token, on this tournament's match
    assert sign_on_scorer(their_phone, match, 0).status_code == 404
    token = seat_path(table_scorer(match=theirs), 0).rstrip("/").split("/")[-2]
    path = reverse("tournament:seat_link", kwargs={"match_id": match.pk, "token": token})
    assert seat_phone().get(path).status_code == 404
    assert not RoundSignature.objects.filter(round__match=match).exists()


# -- the board -----------------------------------------------------------------------------------


def test_the_board_says_signed_k_of_n_and_disputed(tournament, referee_client):
    match, phone = one_round_entered(tournament)
    two, phone_two = one_round_entered(tournament, table=2)
    assert sign_on_scorer(phone, match, 0).status_code == 302
    assert sign_on_scorer(phone_two, two, 3, word="dispute", reason="count again").status_code == 302
    states = signing_states(session=match.table.session)
    assert states[match.pk][1].signed == 1 and not states[match.pk][1].disputed
    assert states[two.pk][1].disputed
    page = referee_client.get(reverse("tournament:room_board", kwargs={"slug": tournament.slug}))
    rows = {row["number"]: row for row in page.context["rows"]}
    assert "signing" in rows[1]["needs"] and rows[1]["signed"] == (1, 4)
    assert "disputed" in rows[2]["needs"]


def test_the_public_page_says_signed_by_all(tournament, client):
    tournament.match_rounds = 1
    tournament.save(update_fields=["match_rounds"])
    match, phone = one_round_entered(tournament)
    for seat in range(4):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    response = client.get(url(match, "match"))
    assert response.context["confirmed_by"] == "seats"
    assert b'data-confirmed="seats"' in response.content


def test_the_score_sheet_prints_each_seats_code_and_link(tournament, referee_client):
    entered_by_tables(tournament=tournament)
    html = referee_client.get(f"/t/{tournament.slug}/sessions/1/sheets.pdf?html").content.decode()
    for table in tournament.sessions.get().tables.all():
        scorer = table_scorer(match=table.match)
        for seat in range(table.seats.count()):
            assert f">{seat_code(scorer, seat)}</span>" in html
            assert f">http://testserver{seat_path(scorer, seat)}</span>" in html


def test_the_public_page_says_confirmed_by_a_referee_after_a_dispute(tournament, referee,
                                                                     client):
    tournament.match_rounds = 1
    tournament.save(update_fields=["match_rounds"])
    match, phone = one_round_entered(tournament)
    assert sign_on_scorer(phone, match, 0, word="dispute", reason="recount").status_code == 302
    rounds_confirmed(match=fresh(match), user=referee)
    response = client.get(url(match, "match"))
    assert response.context["confirmed_by"] == "referee"


def test_another_tables_referee_and_another_organiser_cannot_decide(
        tournament, referee_of_table_2, make_tournament, make_user, client):
    match, phone = one_round_entered(tournament)
    assert sign_on_scorer(phone, match, 1, word="dispute", reason="wrong total").status_code == 302
    confirm = url(match, "match_round_confirm", number=1)
    client.force_login(referee_of_table_2)
    assert client.post(confirm, {"revision": fresh(match).revision}).status_code == 403
    other = make_tournament(slug="autumn-open", name="Autumn open")
    stranger = make_user("otto-organiser")
    staff_role_grant(tournament=other, user=stranger, role=StaffRole.Role.ORGANISER)
    client.force_login(stranger)
    assert client.post(confirm, {"revision": fresh(match).revision}).status_code == 403
    assert fresh(match).rounds.get(index=0).confirmed_at is None
    assert signing(match).frozen


def racks_posted(match) -> dict:
    """Round 1's racks as the round's page posts them again, as entered, with a reason."""
    end = fresh(match).rounds.get(index=0).ends.current().get()
    data = {"revision": fresh(match).revision, "reason": "recounted", "page": "round_end"}
    for seat, rack in enumerate(end.racks):
        if isinstance(rack, int):
            data.update({f"rack_{seat}": "", f"total_{seat}": str(rack)})
        else:
            data[f"rack_{seat}"] = " ".join(rack)
    return data


def test_the_frozen_scorer_phones_write_is_refused_with_its_code(tournament, referee):
    match, phone = one_round_entered(tournament)
    assert sign_on_scorer(phone, match, 0, word="dispute", reason="recount").status_code == 302
    before = (fresh(match).revision, AuditEntry.objects.filter(match=match).count())
    response = phone.post(url(match, "match_round_end", number=1), racks_posted(match))
    assert response.status_code == 400
    codes = [e.code for e in response.context["form"].non_field_errors().as_data()]
    assert codes == ["round-disputed"]
    assert (fresh(match).revision, AuditEntry.objects.filter(match=match).count()) == before
    # the referee's own correction is not frozen: the seats then sign the corrected round
    tablet = Client()
    tablet.force_login(referee)
    assert tablet.post(url(match, "match_round_end", number=1),
                         racks_posted(match)).status_code == 302
    assert not signing(match).frozen
    assert sign_on_scorer(phone, match, 0).status_code == 302


# -- the second computation ------------------------------------------------------------------


def test_the_boards_signed_count_is_recounted_apart_from_the_audit(tournament, referee):
    """``figures_check`` recounts each table's "signed k/n" and "disputed" from the audit
    log, apart from the signatures' rows the board reads: no difference as the seats sign,
    dispute and after a correction; a signature's row lost (or one the audit never saw) is
    found."""
    match, phone = one_round_entered(tournament)
    other, other_phone = one_round_entered(tournament, table=2)
    key = "session 1 table 1"

    def differences():
        return [(d.area, d.figure, d.who, d.expected, d.shown)
                for d in figures_check(tournament=tournament) if d.area == "signatures"]

    assert differences() == []
    for seat in (0, 1):
        assert sign_on_scorer(phone, match, seat).status_code == 302
    assert sign_on_scorer(other_phone, other, 3, word="dispute", reason="a wrong rack").status_code == 302
    assert differences() == []
    next_round_turn(match, phone)  # the scorer phone goes on with round 2: round 1 unchanged
    assert signing_states(session=match.table.session)[match.pk][1].signed == 2
    assert differences() == []
    end = fresh(match).rounds.get(index=0).ends.current().get()
    match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                    round_index=0, racks=end.racks, reason="recounted the racks")
    assert signing(match).state.signed == 0 and differences() == []
    assert sign_on_scorer(phone, match, 2).status_code == 302
    RoundSignature.objects.filter(round__match=match, seat=2).delete()
    assert differences() == [("signatures", "signed", key, "1", "0")]
    RoundSignature.objects.filter(round__match=other).update(agreed=True, reason="")
    assert ("signatures", "disputed", "session 1 table 2", "True", "False") in differences()


# -- the page to sign costs the round to sign, not the match's length ---------------------------


def rounds_entered(tournament, referee, *, table: int, rounds: int, turns: int | None = None,
                   confirmed: int = 0) -> Match:
    """Table ``table``'s match with the record's first ``rounds`` rounds entered by its scorer
    phone (then ``turns`` turns of the next), the first ``confirmed`` of them confirmed by a
    referee."""
    match = match_at(tournament=tournament, table=table, started=True)
    phone = scorer_client(match, address=f"10.0.{table}.1")
    device = phone.session["table_scorer"]["device"]
    record = truncated(played_record(match=match, seed=4), rounds=rounds, turns=turns)
    match_record_import(match=fresh(match), user=ScorerActor(scorer_device=device),
                        seen_revision=fresh(match).revision, record=record)
    for index in range(confirmed):
        match_round_confirm(match=fresh(match), user=referee,
                            seen_revision=fresh(match).revision, round_index=index)
    return fresh(match)


def sign_page_cost(match) -> tuple[int, int, SigningRound]:
    """The turns replayed and the queries of the page to sign on a seat's own phone (the
    shared cache's upkeep left out: ``app_queries``), and the round it shows."""
    link = seat_path(table_scorer(match=match), 0)
    replay_module.REPLAYED.clear()
    with CaptureQueriesContext(connection) as queries:
        response = seat_phone().get(link)
    assert response.status_code == 200
    return (replay_module.REPLAYED.turns, len(app_queries(queries)),
            response.context["signing"])


def current_turns(match, index: int) -> int:
    return Turn.objects.current().filter(round__match=match, round__index=index).count()


@pytest.mark.parametrize("in_play", [None, 5])
def test_the_page_to_sign_costs_its_round_not_the_matchs_length(make_tournament, make_user,
                                                                  in_play):
    tournament = entered_by_tables(tournament=make_tournament(
        players=8, started=True, target=20_000, match_rounds=40))
    referee = make_user("long-match-referee")
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    short = rounds_entered(tournament, referee, table=1, rounds=1, turns=in_play)
    long = rounds_entered(tournament, referee, table=2, rounds=12, turns=in_play, confirmed=11)
    sign_page_cost(short)  # the process's first page may read once what it then keeps
    short_turns, short_queries, short_signing = sign_page_cost(short)
    long_turns, long_queries, long_signing = sign_page_cost(long)
    assert (short_signing.round.number, long_signing.round.number) == (1, 12)
    # the round to sign and the round in play replayed, whatever the match's length
    assert short_turns == current_turns(short, 0) + (in_play or 0)
    assert long_turns == current_turns(long, 11) + (in_play or 0)
    assert long_queries == short_queries
    # what the seats read and sign is the whole match's replay's
    for match, shown in ((short, short_signing), (long, long_signing)):
        whole = match_replay(match=fresh(match))
        round_ = whole.rounds[shown.round.index]
        assert not shown.round.stored and shown.round.turns
        assert (shown.round.scores, shown.round.settlement, shown.round.racks_shown,
                shown.totals) == (round_.scores, round_.settlement, round_.racks_shown,
                                  round_.totals_after)
        assert shown.digest == round_digest(match_rows(match=fresh(match)), round_.row)
    # and the seats' words, taken against that digest, confirm the round
    phone = seat_phone()
    for seat in range(4):
        assert sign_own(phone, long, seat).status_code == 302
    assert fresh(long).rounds.get(index=11).confirmed_at is not None
