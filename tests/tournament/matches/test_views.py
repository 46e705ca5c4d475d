"""The match pages through the test client: who sees what, each write's answer, the record."""

from __future__ import annotations

import html
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import (
    add,
    fresh,
    import_record,
    match_at,
    played_record,
    seated_names,
    truncated,
)
from tests.pages import attribute, by_id, has_id, select, text
from tests.tournament.queries import page_queries
from tournament import engine
from tournament.core.tournaments import staff_role_grant
from tournament.matches import services
from tournament.matches.views.entry import turn_saved_message
from tournament.models import Match, Round, RoundEnd, StaffRole, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(match, name="match", **kwargs):
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def message_tags(response) -> list[str]:
    """The codes (extra tags) of the messages the page shows."""
    return [message.extra_tags for message in response.context["messages"]]


def error_codes(response, field: str, form: str = "form") -> list[str]:
    """The codes of the errors the page's form ``form`` shows next to ``field``."""
    return [error.code for error in response.context[form].errors.as_data().get(field, [])]


def opening(**changes):
    return services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                              points_claimed=25, **changes)


# -- reading ---------------------------------------------------------------------------------


def test_the_public_reads_the_match_without_the_entry_screen(client, tournament, referee):
    match = match_at(tournament=tournament)
    import_record(match, referee, truncated(played_record(match=match, seed=5), rounds=0, turns=8))
    response = client.get(url(match))
    page = response.content.decode()
    assert response.context["match"] == match and has_id(page, "round-1")
    for name in seated_names(match):
        assert name in page
    assert not has_id(page, "turn-form") and not response.context.get("can_undo")
    assert select(page, "#board svg") and 'class="tile' in page
    verdicts = [attribute(row, "data-verdict") for row in select(page, "#round-1 tr[data-verdict]")]
    assert verdicts == ["ok"] * 8


def test_a_referee_of_the_table_gets_the_entry_screen(referee_client, tournament):
    match = match_at(tournament=tournament)
    response = referee_client.get(url(match))
    page = response.content.decode()
    assert has_id(page, "turn-form") and response.context["live"].is_opening
    assert "player" in response.context["turn_form"].fields
    assert page.count('class="tile-button') == 56
    assert f'href="{url(match, "match_sheet_mode")}"' in page


def test_a_referee_of_another_table_reads_only(tournament, referee_of_table_2):
    match = match_at(tournament=tournament)  # table 1
    client = Client()
    client.force_login(referee_of_table_2)
    assert 'id="turn-form"' not in client.get(url(match)).content.decode()
    response = client.post(url(match, "match_turn_add"), {"revision": 0, "pass": "1", "draws": 3})
    assert response.status_code == 403
    assert client.get(url(match, "match_sheet_mode")).status_code == 403


def test_writes_send_the_anonymous_to_the_login_page(client, tournament):
    match = match_at(tournament=tournament)
    response = client.post(url(match, "match_turn_undo"), {"revision": 0})
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.get(url(match, "match_audit")).status_code == 302


@pytest.mark.parametrize("name", ["match", "match_turn_add", "match_audit", "match_sheet_mode"])
def test_a_private_tournaments_match_is_not_found_by_whoever_may_not_see_it(
        name, make_tournament, make_user):
    tournament = make_tournament(slug="closed-doors", is_public=False, started=True)
    match = match_at(tournament=tournament)
    outsider = Client()
    outsider.force_login(make_user("oscar-outsider"))
    for client in (Client(), outsider):  # neither a login page nor a 403
        assert client.get(url(match, name)).status_code == 404
        assert client.post(url(match, name), {"revision": 0}).status_code == 404
    staff = make_user("tina-private-referee")
    staff_role_grant(tournament=tournament, user=staff, role=StaffRole.Role.REFEREE, tables="2")
    client = Client()
    client.force_login(staff)  # sees the tournament, but does not referee table 1
    expected = 200 if name in ("match", "match_audit") else 403
    assert client.get(url(match, name)).status_code == expected


def test_a_match_of_another_tournament_is_not_found(client, tournament, make_tournament):
    other = make_tournament(slug="autumn-cup")
    match = match_at(tournament=other)
    assert client.get(reverse("tournament:match", kwargs={"slug": "spring-open",
                                                           "match_id": match.pk})).status_code == 404


@pytest.mark.parametrize("rounds", [1, "all"])
def test_the_match_page_takes_a_fixed_number_of_queries(
    django_assert_num_queries, tournament, referee, referee_client, client, rounds
):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, record if rounds == "all" else truncated(record, rounds=1, turns=5))
    # the match with its tournament, session, user; the staff role once (read once for the
    # three questions: may write? audit link? organiser's links?); seats, rounds with their
    # current ends, current turns: whatever the match's size
    with django_assert_num_queries(7):
        assert referee_client.get(url(match)).status_code == 200
    # the public: the match with its tournament, seats, rounds with their ends, turns (then
    # kept: tests/.../queries)
    with page_queries(4):
        assert client.get(url(match)).status_code == 200


# -- board mode ------------------------------------------------------------------------------


def test_a_turn_saved_with_htmx_answers_the_match_region(referee_client, tournament):
    match = match_at(tournament=tournament)
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": 0, "player": "0", "tile": "555", "cell": "U(0,0)", "draws": "0",
        "claimed": "25"}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.startswith('\n<div id="match"') or '<div id="match"' in page[:200]
    assert "<html" not in page
    assert response.context["done_message"] == turn_saved_message(
        Turn.objects.current().get(round__match=match))
    (turn,) = Turn.objects.current().filter(round__match=match)
    assert (turn.tile, turn.cell, turn.corners, turn.points, turn.verdict) == (
        "5-5-5", "U(0,0)", "5-5-5", 25, "ok")
    assert fresh(match).revision == 1


def test_without_javascript_a_turn_saves_and_redirects(referee_client, tournament):
    match = match_at(tournament=tournament)
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": 0, "player": "2", "tile": "4-4-4", "cell": "U(0,0)", "draws": "0",
        "claimed": "22"})
    assert response.status_code == 302 and response["Location"] == url(match)
    assert Turn.objects.current().get(round__match=match).player == 2


def test_an_illegal_placement_is_answered_400_with_the_engines_reason(referee, referee_client,
                                                                      tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": 1, "tile": "4-5-5", "cell": "D(0,0)", "corners": "4-5-5", "draws": "0",
        "claimed": "14"}, **HTMX)
    assert response.status_code == 400
    assert has_id(response, "id_cell_errors")
    assert error_codes(response, "cell", "turn_form") == ["corner-mismatch"]
    assert Turn.objects.current().filter(round__match=match).count() == 1
    assert fresh(match).revision == 1


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"tile": "349", "cell": "D(0,0)", "claimed": "5"}, "tile", "unknown-tile"),
        ({"tile": "", "cell": "", "claimed": ""}, "tile", "tile_missing"),
        ({"tile": "455", "cell": "", "claimed": "14"}, "cell", "cell_missing"),
        ({"tile": "455", "cell": "D(0,0)", "claimed": "quatorze"}, "claimed", "invalid"),
        ({"tile": "455", "cell": "D(0,0)", "claimed": ""}, "claimed", "claim_missing"),
    ],
)
def test_bad_input_is_refused_next_to_its_field(referee, referee_client, tournament,
                                                data, field, code):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.post(url(match, "match_turn_add"),
                                   {"revision": 1, "draws": "0", **data}, **HTMX)
    assert response.status_code == 400
    assert error_codes(response, field, "turn_form") == [code]
    assert text(by_id(response, f"id_{field}_errors"))  # shown next to its field
    assert Turn.objects.current().filter(round__match=match).count() == 1


def test_a_stale_save_is_answered_409_with_the_current_state(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())  # someone else, at the same table
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": 0, "player": "1", "tile": "4-4-4", "cell": "U(0,0)", "draws": "0",
        "claimed": "22"}, **HTMX)
    assert response.status_code == 409
    assert response.context["conflict_message"] == services.stale_match_message()
    assert response.context["revision"] == 1  # the current state, ready for a new entry
    assert response.context["turn_form"].initial["revision"] == 1
    assert [t.tile for t in Turn.objects.current().filter(round__match=match)] == ["5-5-5"]


def test_a_turn_from_a_stale_page_is_answered_stale_before_its_form_is_read(
        referee, referee_client, tournament):
    """A tablet's queued turn made for the match as it was (the round begun again on another
    tablet: its opening undone) is told the match changed, not "who opens?", which the form
    would ask of the match as it now is; the same turn sent again after it was saved is still
    "already saved"."""
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    data = {"revision": 1, "tile": "4-5-5", "cell": "D(0,0)", "draws": "0", "claimed": "14",
            "submission_key": "queued-turn-0001"}
    services.match_turn_undo(match=fresh(match), user=referee, seen_revision=1)  # elsewhere
    response = referee_client.post(url(match, "match_turn_add"), data, **HTMX)
    assert response.status_code == 409
    assert response["X-Submission"] == "stale"
    assert "player" not in response.context["turn_form"].errors
    assert Turn.objects.current().filter(round__match=match).count() == 0

    again = match_at(tournament=tournament, table=2)
    add(again, referee, opening())
    saved = referee_client.post(url(again, "match_turn_add"), data, **HTMX)
    assert saved.status_code == 200 and saved["X-Submission"] == "saved"
    add(again, referee, services.TurnInput(draws=3))  # the match moves on
    response = referee_client.post(url(again, "match_turn_add"), data, **HTMX)
    assert response["X-Submission"] == "already-saved"


def test_the_preview_shows_the_engines_figure_and_bonus(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.post(url(match, "match_turn_preview"), {
        "tile": "455", "cell": "D(0,0)", "draws": "1"}, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert '<span class="tile-name">4-5-5</span>' in page and 'data-cell="D(0,0)"' in page
    assert 'name="corners" value="5-5-4"' in page
    assert 'data-points="9"' in page
    preview = response.context["preview"]
    assert (preview.points, preview.no_fit) == (9, False) and preview.explain
    refused = referee_client.post(url(match, "match_turn_preview"), {
        "tile": "012", "cell": "D(0,0)", "draws": "0"}, **HTMX)
    assert refused.context["preview"].no_fit and refused.context["preview"].points is None
    assert select(refused, ".preview-refused")
    assert Turn.objects.current().filter(round__match=match).count() == 1


def test_draws_without_placing_is_one_button(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.get(url(match))
    assert response.context["pass_draws"] == 3
    assert select(response, '#pass-confirm button[name="pass"]')
    response = referee_client.post(url(match, "match_turn_add"),
                                   {"revision": 1, "pass": "1", "draws": "3"}, **HTMX)
    assert response.status_code == 200
    turn = Turn.objects.current().get(round__match=match, index=1)
    assert (turn.player, turn.draws, turn.points, turn.tile) == (1, 3, -25, "")


def test_decisions_and_undo_from_the_log(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(cell=engine.Cell(0, 0, "D"),
                                                      corners=(5, 5, 4), points_claimed=20))
    turn = Turn.objects.current().get(round__match=match, index=1)
    response = referee_client.get(url(match))
    page = response.content.decode()
    decide = url(match, "match_turn_decide", turn_id=turn.pk)
    assert f'id="turn-{turn.pk}"' in page and page.count(f'hx-post="{decide}"') == 2
    # the forms come from their template, each with the page's CSRF token
    assert "tournament/matches/_decision_forms.html" in [t.name for t in response.templates]
    assert page.count('name="csrfmiddlewaretoken"') >= 2
    response = referee_client.post(decide, {"revision": 1, "decision": "claim", "reason": ""},
                                   **HTMX)
    assert response.status_code == 400
    assert response.context["decision_error_turn"] == turn.pk
    assert response.context["decision_error_messages"]
    response = referee_client.post(decide, {"revision": 1, "decision": "claim",
                                            "reason": "accord des joueurs"}, **HTMX)
    assert response.status_code == 200
    kept = Turn.objects.current().get(round__match=match, index=1)
    assert (kept.decision, kept.decision_reason) == ("claim", "accord des joueurs")
    assert f'id="turn-{kept.pk}"' in response.content.decode()
    assert fresh(match).totals == [25, 20, 0, 0]
    response = referee_client.post(url(match, "match_turn_undo"), {"revision": 2}, **HTMX)
    assert response.status_code == 200 and response.context["revision"] == 3
    assert not Turn.objects.current().filter(round__match=match, index=1).exists()
    assert fresh(match).totals == [25, 0, 0, 0]


def test_a_correction_page_saves_a_new_version(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    turn = Turn.objects.current().get(round__match=match)
    response = referee_client.get(url(match, "match_turn_correct", turn_id=turn.pk))
    assert (response.context["round"].number, response.context["position"]) == (1, 1)
    assert response.context["form"].initial["cell"] == "U(0,0)"
    data = {"revision": 1, "player": "0", "draws": "0", "tile": "4-4-4", "cell": "U(0,0)",
            "corners": "4-4-4", "bonus_claimed": "", "claimed": "22", "reason": ""}
    response = referee_client.post(url(match, "match_turn_correct", turn_id=turn.pk), data)
    assert response.status_code == 400 and error_codes(response, "reason") == ["required"]
    response = referee_client.post(url(match, "match_turn_correct", turn_id=turn.pk),
                                   {**data, "reason": "mal lu"})
    assert response.status_code == 302
    assert Turn.objects.current().get(round__match=match).tile == "4-4-4"
    assert fresh(match).totals == [22, 0, 0, 0]


def test_the_round_end_and_confirmation_from_the_page(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))
    response = referee_client.get(url(match))
    assert has_id(response, "round-end-form") and response.context["live"].replay.round_end == "blocked"
    data = {"revision": 11, "rack_0": "", "total_0": "90", "rack_1": "", "total_1": "120",
            "rack_2": "012 3x4", "total_2": "", "rack_3": "", "total_3": "90"}
    response = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert response.status_code == 400
    assert error_codes(response, "rack_2", "round_end_form") == ["unknown-tile"]
    data["rack_2"], data["total_2"] = "", "100"
    response = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert response.status_code == 200 and has_id(response, "confirm-round")
    assert response.context["round_to_confirm"].number == 1
    assert response.context["live"].number == 2 and response.context["live"].is_opening
    response = referee_client.post(url(match, "match_round_confirm", number=1),
                                   {"revision": 12}, **HTMX)
    assert response.status_code == 200 and response.context["done_message"]
    assert Round.objects.get(match=match, index=0).confirmed_at is not None


# -- the record ------------------------------------------------------------------------------


def test_the_record_downloads_as_json(client, tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, record)
    response = client.get(url(match, "match_record"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert 'filename="spring-open-session-1-table-1.json"' in response["Content-Disposition"]
    assert json.loads(response.content) == record


def test_an_uploaded_record_fills_the_match_and_a_bad_one_changes_nothing(referee_client,
                                                                         tournament):
    match = match_at(tournament=tournament)
    bad = SimpleUploadedFile("match.json", b'{"format": "triominos-match/1", "players": [1]}')
    response = referee_client.post(url(match, "match_record_upload"),
                                   {"revision": 0, "record": bad}, **HTMX)
    assert response.status_code == 400
    assert error_codes(response, "record", "upload_form") == ["unreadable"]
    assert "players[0]" in text(by_id(response, "id_record_error"))  # where, in the file
    assert fresh(match).revision == 0 and not Turn.objects.filter(round__match=match).exists()

    good = SimpleUploadedFile("match.json", json.dumps(played_record(match=match, seed=3)).encode())
    response = referee_client.post(url(match, "match_record_upload"), {"revision": 0, "record": good})
    assert response.status_code == 302
    assert fresh(match).status == Match.Status.FINISHED


def test_a_damaged_record_is_refused_with_its_field_not_a_server_error(referee_client,
                                                                        tournament):
    match = match_at(tournament=tournament)
    players = json.dumps(seated_names(match))
    text = ('{"format": "triominos-match/1", "players": ' + players + ', "rounds": [{"turns": '
            '[{"player": 0, "place": {"tile": "5-5-5"}, "bonus": ["opening"], "claimed": 1'
            + "0" * 5000 + "}]}]}")
    bad = SimpleUploadedFile("match.json", text.encode())
    response = referee_client.post(url(match, "match_record_upload"),
                                   {"revision": 0, "record": bad}, **HTMX)
    assert response.status_code == 400
    assert "rounds[0].turns[0].claimed" in html.unescape(response.content.decode())
    assert not Round.objects.filter(match=match).exists()


def test_the_audit_page_lists_every_write(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    turn = Turn.objects.current().get(round__match=match)
    services.match_turn_correct(match=fresh(match), user=referee, seen_revision=1, turn_id=turn.pk,
                                turn=services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                                        corners=(4, 4, 4), points_claimed=22),
                                reason="mal lu sur la feuille")
    response = referee_client.get(url(match, "match_audit"))
    entries = [row.record for row in response.context["audit_table"].rows]
    assert sorted(entry.action for entry in entries) == ["turn-added", "turn-corrected"]
    page = response.content.decode()
    assert "5-5-5" in page and "4-4-4" in page and "U(0,0)" not in page  # cells in words
    assert "mal lu sur la feuille" in page and "remi-referee" in page


def test_the_last_turn_and_racks_close_the_match_on_the_page(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    rounds = record["rounds"]
    last = len(rounds) - 1
    import_record(match, referee, truncated(record, rounds=last, turns=len(rounds[-1]["turns"]) - 1))
    place = rounds[-1]["turns"][-1]["place"]
    cell = f"{place['cell'][2]}({place['cell'][0]},{place['cell'][1]})"
    revision = fresh(match).revision
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": revision, "tile": "".join(map(str, place["corners"])), "cell": cell,
        "corners": "-".join(map(str, place["corners"])), "draws": "0",
        "claimed": str(rounds[-1]["turns"][-1]["claimed"])}, **HTMX)
    assert response.status_code == 200 and 'id="round-end-form"' in response.content.decode()
    data = {"revision": revision + 1}
    for seat, rack in enumerate(rounds[-1]["racks"]):
        data[f"rack_{seat}"] = " ".join(rack)
    response = referee_client.post(url(match, "match_round_end", number=last + 1), data, **HTMX)
    assert response.status_code == 200
    replay = response.context["replay"]
    assert replay.finished and replay.winners and response.context["live"] is None
    assert not has_id(response, "turn-form")
    assert [row["winner"] for row in response.context["seat_rows"]] == [
        seat.order in replay.winners for seat in replay.seats]
    assert fresh(match).status == "finished"
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": revision + 2, "pass": "1", "draws": "3"}, **HTMX)
    assert response.status_code == 400 and response.context["error_code"] == "match_over"


def test_sheet_mode_from_the_racks_to_the_next_round(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, services.TurnInput(player=0, tile="5-5-5", points_claimed=25))
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))
    page = referee_client.get(url(match, "match_sheet_mode")).content.decode()
    assert 'id="round-end-form"' in page and 'name="next" value="sheet"' in page
    assert 'id="sheet-form"' not in page
    data = {"revision": 11, "next": "sheet", "page": "round_end", "total_0": "90",
            "total_1": "120", "total_2": "100", "total_3": "oops"}
    response = referee_client.post(url(match, "match_round_end", number=1), data)
    assert response.status_code == 400 and "id_total_3" in response.content.decode()
    data["total_3"] = "90"
    response = referee_client.post(url(match, "match_round_end", number=1), data)
    assert response.status_code == 302 and response["Location"] == url(match, "match_sheet_mode")
    response = referee_client.get(url(match, "match_sheet_mode"))
    assert response.context["confirm_round"].number == 1 and response.context["live"].number == 2
    assert has_id(response, "sheet-form")
    response = referee_client.post(url(match, "match_round_confirm", number=1),
                                   {"revision": 12, "next": "sheet"})
    assert response.status_code == 302 and response["Location"] == url(match, "match_sheet_mode")
    lines = {"line-TOTAL_FORMS": "2", "line-INITIAL_FORMS": "0", "revision": "13",
             "line-0-who": "b", "line-0-tile": "333", "line-0-bonus": "o", "line-0-points": "19",
             "line-1-tile": "1-3-3", "line-1-points": "7", "save": "1"}
    response = referee_client.post(url(match, "match_sheet_mode"), lines)
    assert response.status_code == 302
    turns = Turn.objects.current().filter(round__match=match, round__index=1).order_by("index")
    assert [(t.player, t.tile, t.points) for t in turns] == [(1, "3-3-3", 19), (2, "1-3-3", 7)]


def test_a_preview_from_a_stale_page_answers_the_match_as_it_is(referee, referee_client,
                                                                tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.post(url(match, "match_turn_preview"), {
        "revision": "0", "tile": "444", "cell": "U(0,0)", "draws": "0"}, **HTMX)
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#match" and response["HX-Reswap"] == "outerHTML"
    assert response.context["conflict_message"] == services.stale_match_message()
    assert response.context["revision"] == 1


def test_after_a_stale_sheet_save_the_lines_typed_are_kept_and_can_be_saved(referee,
                                                                           referee_client,
                                                                           tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())  # someone else, while the sheet was being typed at revision 0
    lines = {"line-TOTAL_FORMS": "1", "line-INITIAL_FORMS": "0", "revision": "0",
             "line-0-tile": "4-5-5", "line-0-points": "14", "save": "1"}
    response = referee_client.post(url(match, "match_sheet_mode"), lines)
    assert response.status_code == 409
    assert response.context["sheet_mode_message"] == services.stale_match_message()
    # what was typed is still there, to be checked and saved against the match now
    assert response.context["formset"].forms[0]["tile"].value() == "4-5-5"
    assert response.context["form"]["revision"].value() == "1"
    assert Turn.objects.current().filter(round__match=match).count() == 1
    check = {**lines, "revision": "1", "check": "1"}
    del check["save"]
    response = referee_client.post(url(match, "match_sheet_mode"), check)
    assert response.status_code == 200 and 'name="revision" value="1"' in response.content.decode()
    response = referee_client.post(url(match, "match_sheet_mode"), {**lines, "revision": "1"})
    assert response.status_code == 302
    assert Turn.objects.current().filter(round__match=match).count() == 2


def test_after_a_stale_correction_the_correction_typed_is_kept_and_can_be_saved(referee,
                                                                              referee_client,
                                                                              tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    turn = Turn.objects.current().get(round__match=match)
    add(match, referee, services.TurnInput(draws=3))  # the next turn, from another tablet
    data = {"revision": 1, "player": "0", "draws": "0", "tile": "4-4-4", "cell": "U(0,0)",
            "corners": "4-4-4", "bonus_claimed": "", "claimed": "22", "reason": "mal lu"}
    response = referee_client.post(url(match, "match_turn_correct", turn_id=turn.pk), data)
    assert response.status_code == 409
    form = response.context["form"]
    assert form.non_field_errors() == [services.stale_match_message()]
    assert form["tile"].value() == "4-4-4" and form["reason"].value() == "mal lu"
    assert form["revision"].value() == "2"
    assert Turn.objects.current().get(round__match=match, index=0).tile == "5-5-5"
    response = referee_client.post(url(match, "match_turn_correct", turn_id=turn.pk),
                                   {**data, "revision": 2})
    assert response.status_code == 302
    assert Turn.objects.current().get(round__match=match, index=0).tile == "4-4-4"


def test_a_correction_of_a_turn_corrected_meanwhile_gets_the_conflict_message(referee,
                                                                            referee_client,
                                                                            tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    turn = Turn.objects.current().get(round__match=match)
    data = {"revision": 1, "player": "0", "draws": "0", "tile": "4-4-4", "cell": "U(0,0)",
            "corners": "4-4-4", "bonus_claimed": "", "claimed": "22", "reason": "mal lu"}
    # the other tablet corrects the same turn first
    services.match_turn_correct(match=fresh(match), user=referee, seen_revision=1,
                                turn_id=turn.pk, turn=None, reason="pas joué")
    response = referee_client.post(url(match, "match_turn_correct", turn_id=turn.pk), data,
                                   follow=True)
    assert response.redirect_chain == [(url(match), 302)]
    assert message_tags(response) == ["stale"]
    assert not Turn.objects.current().filter(round__match=match).exists()
    assert Turn.objects.filter(round__match=match).count() == 1


# -- a forgotten turn inserted -----------------------------------------------------------------


def test_the_turn_log_links_to_insert_a_turn_for_its_referee_only(referee, referee_client, client,
                                                                  tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(draws=3))
    turns = Turn.objects.current().filter(round__match=match).order_by("index")
    page = referee_client.get(url(match)).content.decode()
    for turn in turns:
        assert f'href="{url(match, "match_turn_insert", turn_id=turn.pk)}"' in page
    assert len(select(page, "a.insert-link")) == 2
    public = client.get(url(match)).content.decode()
    assert "/insert/" not in public and not select(public, "a.insert-link")


def test_the_insertion_page_proposes_the_player_due_and_saves(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(draws=3))
    second = Turn.objects.current().get(round__match=match, index=1)
    response = referee_client.get(url(match, "match_turn_insert", turn_id=second.pk))
    assert (response.context["round"].number, response.context["position"]) == (1, 2)
    assert response.context["form"]["player"].value() == 1  # B, due after A's opening
    assert [attribute(o, "value") for o in select(response, 'select[name="player"] option[selected]')] == ["1"]
    assert not select(response, '[name="not_played"]') and select(response, '[name="reason"]')
    data = {"revision": 1, "player": "1", "draws": "3", "tile": "", "cell": "", "corners": "",
            "bonus_claimed": "", "claimed": "-25", "reason": "oublié sur la feuille"}
    response = referee_client.post(url(match, "match_turn_insert", turn_id=second.pk), data,
                                   follow=True)
    assert response.redirect_chain == [(url(match), 302)]
    assert message_tags(response) == [""]  # a success
    turns = Turn.objects.current().filter(round__match=match).order_by("index")
    assert [(t.index, t.player, t.verdict) for t in turns] == [
        (0, 0, "ok"), (1, 1, "ok"), (2, 1, "illegal")]  # B's pass is now out of turn
    assert fresh(match).totals == [25, -50, 0, 0]


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"reason": ""}, "reason", "required"),
        ({"tile": "349"}, "tile", "unknown-tile"),
        ({"tile": "5-5-5", "cell": "D(0,0)", "corners": "5-5-5"}, "cell", "tile-already-played"),
        ({"player": "3"}, "tile", "out-of-turn"),
    ],
    ids=["reason", "tile", "engine", "out-of-turn"],
)
def test_a_bad_insertion_is_refused_next_to_its_field(referee, referee_client, tournament,
                                                      data, field, code):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(draws=3))
    second = Turn.objects.current().get(round__match=match, index=1)
    posted = {"revision": 1, "player": "", "draws": "3", "tile": "", "cell": "", "corners": "",
              "bonus_claimed": "", "claimed": "", "reason": "oublié", **data}
    response = referee_client.post(url(match, "match_turn_insert", turn_id=second.pk), posted)
    assert response.status_code == 400
    assert code in error_codes(response, field)
    assert text(by_id(response, f"id_{field}_error"))  # shown next to its field
    assert Turn.objects.filter(round__match=match).count() == 2 and fresh(match).revision == 1


def test_the_insertion_page_before_an_opening_asks_for_the_player(referee, referee_client,
                                                                  tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    first = Turn.objects.current().get(round__match=match)
    page = referee_client.get(url(match, "match_turn_insert", turn_id=first.pk))
    selected = select(page, 'select[name="player"] option[selected]')
    assert [attribute(option, "value") for option in selected] == [""]
    response = referee_client.post(url(match, "match_turn_insert", turn_id=first.pk), {
        "revision": 1, "player": "", "draws": "3", "claimed": "-25", "reason": "oublié"})
    assert response.status_code == 400
    assert error_codes(response, "player") == ["player_required"]
    assert text(by_id(response, "id_player_error"))


def test_an_insertion_from_a_stale_page_keeps_what_was_typed(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(draws=3))
    second = Turn.objects.current().get(round__match=match, index=1)
    add(match, referee, services.TurnInput(draws=3))  # another tablet, meanwhile
    data = {"revision": 1, "player": "1", "draws": "3", "claimed": "-25", "reason": "oublié"}
    response = referee_client.post(url(match, "match_turn_insert", turn_id=second.pk), data)
    assert response.status_code == 409
    assert error_codes(response, "__all__") == ["stale"]
    assert response.context["form"]["reason"].value() == "oublié"  # what was typed, kept
    assert attribute(select(response, 'input[name="revision"]')[0], "value") == "2"
    # the turn it was to go before undone meanwhile: the match page, with the message
    services.match_turn_undo(match=fresh(match), user=referee, seen_revision=2)
    services.match_turn_undo(match=fresh(match), user=referee, seen_revision=3)
    response = referee_client.post(url(match, "match_turn_insert", turn_id=second.pk),
                                   {**data, "revision": 4}, follow=True)
    assert response.redirect_chain == [(url(match), 302)]
    assert message_tags(response) == ["stale"]
    assert referee_client.get(url(match, "match_turn_insert", turn_id=second.pk)).status_code == 404


def test_only_a_referee_of_the_table_may_insert_a_turn(referee, client, tournament,
                                                       referee_of_table_2):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    turn = Turn.objects.current().get(round__match=match)
    address = url(match, "match_turn_insert", turn_id=turn.pk)
    data = {"revision": 1, "player": "3", "draws": "3", "claimed": "-25", "reason": "oublié"}
    for response in (client.get(address), client.post(address, data)):
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    other = Client()
    other.force_login(referee_of_table_2)
    assert other.get(address).status_code == 403 and other.post(address, data).status_code == 403
    assert Turn.objects.filter(round__match=match).count() == 1


def test_the_audit_page_shows_an_insertion(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(draws=3))
    second = Turn.objects.current().get(round__match=match, index=1)
    services.match_turn_insert(match=fresh(match), user=referee, seen_revision=1,
                               before_turn_id=second.pk,
                               turn=services.TurnInput(draws=3, points_claimed=-25),
                               reason="oublié sur la feuille")
    response = referee_client.get(url(match, "match_audit"))
    (entry,) = [row.record for row in response.context["audit_table"].rows
                if row.record.action == "turn-inserted"]
    assert entry.reason == "oublié sur la feuille"
    assert (entry.details["round"], entry.details["position"]) == (0, 1)  # round 1, turn 2
    assert (entry.details["after"]["player"], entry.details["after"]["draws"],
            entry.details["after"]["points_claimed"]) == (1, 3, -25)
    assert len(entry.details["moved"]) == 1  # the turn after it, moved down, a new version
    assert "oublié sur la feuille" in response.content.decode()


def test_a_stale_racks_form_is_told_someone_else_saved(referee, referee_client, tournament):
    """Two tablets on a round just over: the first enters the racks; the second's racks,
    posted from the page as it was, answer 409 with the match as it is, nothing written."""
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, truncated(record, rounds=0, turns=len(record["rounds"][0]["turns"])))
    seen = fresh(match).revision
    data = {"revision": seen}
    for seat, rack in enumerate(record["rounds"][0]["racks"]):
        data[f"rack_{seat}"] = " ".join(rack)
    first = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert first.status_code == 200
    ends = RoundEnd.objects.filter(round__match=match).count()
    second = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert second.status_code == 409
    assert second.context["conflict_message"] == services.stale_match_message()
    assert second.context["revision"] == seen + 1
    assert RoundEnd.objects.filter(round__match=match).count() == ends == 1


def test_a_tournament_whose_slug_is_0_links_every_turn_right(make_tournament, make_user):
    """The turn log's links are made for each turn by reverse(): a slug that looks like a turn
    id changes nothing."""
    from tournament.models import StaffRole

    zero = make_tournament(slug="0", started=True)
    user = make_user("zero-referee")
    staff_role_grant(tournament=zero, user=user, role=StaffRole.Role.REFEREE)
    client = Client()
    client.force_login(user)
    match = match_at(tournament=zero)
    add(match, user, opening())
    (turn,) = add(match, user, services.TurnInput(cell=engine.Cell(0, 0, "D"), corners=(5, 5, 4),
                                                  points_claimed=20))  # differs: to decide
    page = client.get(url(match)).content.decode()
    for name in ("match_turn_correct", "match_turn_insert", "match_turn_decide"):
        link = url(match, name, turn_id=turn.pk)
        assert link.startswith("/t/0/") and link in page
    for name in ("match_turn_correct", "match_turn_insert"):
        assert client.get(url(match, name, turn_id=turn.pk)).status_code == 200
    response = client.post(url(match, "match_turn_decide", turn_id=turn.pk),
                           {"revision": fresh(match).revision, "decision": "engine"}, **HTMX)
    assert response.status_code == 200
    assert Turn.objects.current().get(round__match=match, index=1).decision == "engine"


@pytest.mark.parametrize("page_name", ["correct", "insert"])
def test_a_closed_session_s_correction_form_is_read_only_with_the_reason(organiser,
                                                                         organiser_client,
                                                                         make_tournament,
                                                                         page_name):
    from tests.factories import played_session, players_of
    from tournament.core.tournaments import staff_role_grant
    tournament = make_tournament(slug="closed-open", players=4, sessions=0)
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    session = played_session(tournament=tournament, tables=[players_of(tournament)])
    turn = Turn.objects.current().filter(round__match__table__session=session).first()
    match = turn.round.match
    page = organiser_client.get(
        f"/t/closed-open/matches/{match.pk}/turns/{turn.pk}/{page_name}/")
    assert page.status_code == 200
    assert has_id(page, "write-refusal")
    assert select(page, "form.turn-edit fieldset[disabled]")
    assert not select(page, "form.turn-edit button[type=submit]")
