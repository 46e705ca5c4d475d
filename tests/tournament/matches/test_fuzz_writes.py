"""Whatever is posted to a match's write addresses, as a referee of the match, the answer is
never a 5xx, and a refused post writes nothing.

Hypothesis posts generated values (unicode digits such as ``²`` or ``٣``, huge and negative
numbers, 5000-digit numbers, cells out of the database's range, empty and very long strings,
several values for one field) to the fields of every write address, the other fields holding
values the address would accept; record uploads carry a valid record with one value replaced
by a generated JSON value of any type.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.factories import (
    entered_by_tables,
    entry_form,
    fresh,
    import_record,
    played_record,
    scorer_client,
    seated_names,
    truncated,
)
from tournament import engine
from tournament.matches.scorers import ScorerActor, table_scorer
from tournament.matches.signatures import round_to_sign, seat_code, seat_path
from tournament.models import AuditEntry, Match, Round, RoundEnd, RoundSignature, Turn

# slow: Hypothesis's values posted to every field of the recording
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

FUZZ = settings(max_examples=examples(40), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

#: Text values that broke or may break a field's parsing.
NASTY = st.sampled_from([
    "", " ", "²", "³", "٣", "１２", "⑤", "-1", "-0", "0", "4", "-2147483649", "2147483648",
    "32768", "9" * 50, "9" * 5000, "-" + "9" * 5000, "1e9", "nan", "inf", "0x10", "١٢٣",
    "U(2147483648,0)", "U(0,-2147483649)", "U(" + "9" * 5000 + ",0)", "D(²,0)", "U(0,0)",
    "5-5-5", "9-9-9", "²-5-5", "5--5", "x" * 5000, "é" * 300, "\x00", "<script>", "{}", "[]",
    "engine", "claim", "A", "Z", "h", "hhhh",
])
VALUES = st.one_of(
    NASTY,
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=40),
    st.lists(NASTY, min_size=2, max_size=3),  # several values for one field
)

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**60), max_value=10**60),
              st.floats(allow_nan=False), st.text(max_size=20),
              st.sampled_from(["9" * 5000, "²", "U(2147483648,0)"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=5,
)


def _written(match: Match) -> tuple:
    match = fresh(match)
    return (
        match.revision,
        Turn.objects.filter(round__match=match).count(),
        Round.objects.filter(match=match).count(),
        RoundEnd.objects.filter(round__match=match).count(),
        AuditEntry.objects.filter(match=match).count(),
        RoundSignature.objects.filter(round__match=match).count(),
    )


def _url(match: Match, name: str, **kwargs: Any) -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def _post(client: Client, match: Match, url: str, data: dict[str, Any], **extra: Any) -> None:
    """Post ``data``; never a 5xx, and nothing written when refused."""
    before = _written(match)
    response = client.post(url, data, **extra)
    assert response.status_code < 500, (url, data)
    if response.status_code >= 400:
        assert _written(match) == before, (url, data, response.status_code)


@pytest.fixture
def played(tournament, referee, referee_client):
    """Table 1's match: round 1 closed with its racks, round 2 in play with six turns."""
    match = Match.objects.filter(table__session__tournament=tournament,
                                 table__number=1).get()
    record = played_record(match=match, seed=3)
    import_record(match, referee, truncated(record, rounds=1, turns=6))
    return fresh(match)


@contextlib.contextmanager
def example() -> Iterator[None]:
    """One generated example, undone at its end: every example starts from the match as the
    fixture made it (a correction that strikes a turn out would otherwise leave the next
    examples fewer turns)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def _turn(match: Match, round_index: int = 1, position: int = 2) -> Turn:
    return list(Turn.objects.current().filter(round__match=match, round__index=round_index)
                .order_by("index"))[position]


def _fuzzed(base: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    data = dict(base)
    data[field] = value
    return data


def _board_turn(match: Match) -> dict[str, str]:
    """A legal next turn of round 2 as the entry screen posts it."""
    view = engine.simulated_match_record(names=seated_names(match), seed=3)
    return entry_form(view["rounds"][1]["turns"][6], match.revision)


TURN_FIELDS = ["revision", "player", "tile", "cell", "corners", "draws", "claimed"]


@FUZZ
@given(field=st.sampled_from(TURN_FIELDS + ["pass"]), value=VALUES)
def test_turn_add(played, referee_client, field, value):
    with example():
        match = fresh(played)
        _post(referee_client, match, _url(match, "match_turn_add"),
              _fuzzed(_board_turn(match), field, value), HTTP_HX_REQUEST="true")


@FUZZ
@given(field=st.sampled_from(TURN_FIELDS), value=VALUES)
def test_turn_preview(played, referee_client, field, value):
    with example():
        match = fresh(played)
        _post(referee_client, match, _url(match, "match_turn_preview"),
              _fuzzed(_board_turn(match), field, value), HTTP_HX_REQUEST="true")


@FUZZ
@given(value=VALUES)
def test_turn_undo_and_round_confirm(played, referee_client, value):
    with example():
        match = fresh(played)
        for name, kwargs in (("match_turn_undo", {}), ("match_round_confirm", {"number": 1})):
            _post(referee_client, match, _url(match, name, **kwargs), {"revision": value})


CORRECTION_FIELDS = ["revision", "player", "draws", "tile", "cell", "corners", "bonus_claimed",
                     "claimed", "reason", "not_played"]


def _correction(match: Match, turn: Turn) -> dict[str, str]:
    return {"revision": str(match.revision), "player": str(turn.player),
            "draws": str(turn.draws), "tile": turn.tile, "cell": turn.cell,
            "corners": turn.corners, "bonus_claimed": turn.bonus_claimed,
            "claimed": "" if turn.points_claimed is None else str(turn.points_claimed),
            "reason": "read again"}


@FUZZ
@given(name=st.sampled_from(["match_turn_correct", "match_turn_insert"]),
       field=st.sampled_from(CORRECTION_FIELDS), value=VALUES)
def test_turn_correct_and_insert(played, referee_client, name, field, value):
    with example():
        match = fresh(played)
        turn = _turn(match)
        _post(referee_client, match, _url(match, name, turn_id=turn.pk),
              _fuzzed(_correction(match, turn), field, value))


@FUZZ
@given(field=st.sampled_from(["revision", "decision", "reason"]), value=VALUES)
def test_turn_decide(played, referee_client, field, value):
    with example():
        match = fresh(played)
        turn = _turn(match)
        base = {"revision": str(match.revision), "decision": "claim", "reason": "agreed"}
        _post(referee_client, match, _url(match, "match_turn_decide", turn_id=turn.pk),
              _fuzzed(base, field, value), HTTP_HX_REQUEST="true")


@FUZZ
@given(field=st.sampled_from(["revision", "decision", "reason"]), value=VALUES)
def test_settlement_decide(played, referee_client, field, value):
    with example():
        match = fresh(played)
        base = {"revision": str(match.revision), "decision": "claim", "reason": "agreed"}
        _post(referee_client, match, _url(match, "match_round_settlement_decide", number=1),
              _fuzzed(base, field, value), HTTP_HX_REQUEST="true")


@FUZZ
@given(field=st.sampled_from(["revision", "reason", "rack_0", "rack_3", "total_1",
                              "settlement_2", "page"]), value=VALUES)
def test_round_end(played, referee_client, field, value):
    with example():
        match = fresh(played)
        base = {"revision": str(match.revision), "rack_0": "", "rack_1": "012", "rack_2": "",
                "rack_3": "", "reason": "recounted"}
        _post(referee_client, match, _url(match, "match_round_end", number=1),
              _fuzzed(base, field, value))


SHEET_FIELDS = ["revision", "mismatches_seen", "line-TOTAL_FORMS", "line-INITIAL_FORMS",
                "line-0-who", "line-0-tile", "line-0-draws", "line-0-bonus", "line-0-points",
                "line-0-decision", "line-0-reason", "line-1-who", "line-1-draws"]


@FUZZ
@given(action=st.sampled_from(["check", "save", "more"]), field=st.sampled_from(SHEET_FIELDS),
       value=VALUES)
def test_sheet_mode(played, referee_client, action, field, value):
    with example():
        match = fresh(played)
        base = {"revision": str(match.revision), "line-TOTAL_FORMS": "2", "line-INITIAL_FORMS": "0",
                "line-0-who": "", "line-0-tile": "555", "line-0-draws": "0", "line-0-points": "25",
                action: "1"}
        _post(referee_client, match, _url(match, "match_sheet_mode"), _fuzzed(base, field, value))


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*path, index))
    return found


def _replaced(document: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


@FUZZ
@given(data=st.data())
def test_record_upload(tournament, referee, referee_client, data):
    match = Match.objects.filter(table__session__tournament=tournament, table__number=2).get()
    record = played_record(match=match, seed=5)
    record = {**record, "rounds": record["rounds"][:2]}
    path = data.draw(st.sampled_from(_paths(record)))
    value = data.draw(JSON_VALUES)
    content = json.dumps(_replaced(record, path, value)).encode()
    match = fresh(match)
    before = _written(match)
    with transaction.atomic():  # a savepoint: what an example saved is undone after it
        response = referee_client.post(_url(match, "match_record_upload"), {
            "revision": str(match.revision), "names_in_seat_order": "on",
            "record": SimpleUploadedFile("record.json", content, content_type="application/json"),
        }, HTTP_HX_REQUEST="true")
        assert response.status_code < 500, (path, value)
        if response.status_code >= 400:
            assert _written(match) == before
        transaction.set_rollback(True)


# -- the values once seen to answer 500, each with its field's message -------------------------


def _record_with(match: Match, change) -> bytes:
    record = played_record(match=match, seed=5)
    record = {**record, "rounds": record["rounds"][:1]}
    change(record["rounds"][0]["turns"][1])
    text = json.dumps(record)
    return text.replace('"__digits__"', "9" * 5000).encode()


@pytest.mark.parametrize("change", [
    lambda turn: turn.update(bonus={"x": 1}),
    lambda turn: turn.update(place={**turn.get("place", {}), "cell": [0, 0, [1]]}),
    lambda turn: turn.update(draws="__digits__"),
    lambda turn: turn.update(place={"cell": [2147483648, 0, "U"], "corners": [5, 5, 5]}),
], ids=["bonus-object", "cell-list", "draws-5000-digits", "cell-out-of-range"])
def test_a_malformed_record_is_refused_next_to_its_field(tournament, referee_client, change):
    match = fresh(Match.objects.filter(table__session__tournament=tournament,
                                       table__number=2).get())
    before = _written(match)
    response = referee_client.post(_url(match, "match_record_upload"), {
        "revision": str(match.revision), "names_in_seat_order": "on",
        "record": SimpleUploadedFile("r.json", _record_with(match, change)),
    }, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert response.context["upload_form"].has_error("record")
    assert _written(match) == before


@pytest.mark.parametrize("field", ["draws", "player", "revision"])
def test_a_superscript_digit_in_the_turn_form_is_a_field_error(played, referee_client, field):
    with example():
        match = fresh(played)
        response = referee_client.post(_url(match, "match_turn_add"),
                                       _fuzzed(_board_turn(match), field, "²"), HTTP_HX_REQUEST="true")
        assert response.status_code == 400
        assert response.context["turn_form"].has_error(field)


@pytest.mark.parametrize("field", ["line-0-who", "line-0-draws"])
def test_a_superscript_digit_in_sheet_mode_is_a_field_error(played, referee_client, field):
    with example():
        match = fresh(played)
        base = {"revision": str(match.revision), "line-TOTAL_FORMS": "1", "line-INITIAL_FORMS": "0",
                "line-0-tile": "555", "line-0-points": "25", "check": "1"}
        response = referee_client.post(_url(match, "match_sheet_mode"), _fuzzed(base, field, "²"))
        assert response.status_code == 400
        assert response.context["formset"].forms[0].has_error(field.removeprefix("line-0-"))


def test_sheet_modes_more_lines_with_a_bad_count_is_refused(played, referee_client):
    with example():
        match = fresh(played)
        response = referee_client.post(_url(match, "match_sheet_mode"), {
            "revision": str(match.revision), "line-TOTAL_FORMS": "abc", "line-INITIAL_FORMS": "0",
            "more": "1"})
        assert response.status_code == 400
        assert response.context["formset"].non_form_errors()


@pytest.mark.parametrize("cell", ["U(2147483648,0)", "U(" + "9" * 5000 + ",0)"])
def test_a_cell_out_of_range_in_a_correction_is_a_field_error(played, referee_client, cell):
    with example():
        match = fresh(played)
        turn = _turn(match)
        before = _written(match)
        response = referee_client.post(_url(match, "match_turn_correct", turn_id=turn.pk),
                                       _fuzzed(_correction(match, turn), "cell", cell))
        assert response.status_code == 400
        assert response.context["form"].has_error("cell")
        assert _written(match) == before


@pytest.mark.parametrize("name", ["match_turn_add", "match_turn_preview"])
def test_a_5000_digit_cell_on_the_entry_screen_is_refused(played, referee_client, name):
    with example():
        match = fresh(played)
        before = _written(match)
        response = referee_client.post(_url(match, name), _fuzzed(
            _board_turn(match), "cell", "U(" + "9" * 5000 + ",0)"), HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 400)  # the preview answers what it can show
        if name == "match_turn_add":
            assert response.status_code == 400 and response.context["turn_form"].has_error("cell")
        assert _written(match) == before


@FUZZ
@given(field=st.sampled_from(["revision", "names_in_seat_order", "submission_key", "record"]),
       value=VALUES)
def test_record_upload_fields(tournament, referee_client, field, value):
    match = fresh(Match.objects.filter(table__session__tournament=tournament,
                                       table__number=2).get())
    record = played_record(match=match, seed=5)
    data = {"revision": str(match.revision), "names_in_seat_order": "on",
            "record": SimpleUploadedFile(
                "r.json", json.dumps({**record, "rounds": record["rounds"][:1]}).encode())}
    data[field] = value
    before = _written(match)
    with transaction.atomic():  # a savepoint: what an example saved is undone after it
        response = referee_client.post(_url(match, "match_record_upload"), data,
                                       HTTP_HX_REQUEST="true")
        assert response.status_code < 500, (field, value)
        if response.status_code >= 400:
            assert _written(match) == before
        transaction.set_rollback(True)


@pytest.fixture
def signing(tournament):
    """Table 1's match, entered by the table: round 1 closed by its scorer phone; that phone
    (a bound client) and the round's signing form as the phone posts it for seat 0."""
    entered_by_tables(tournament=tournament)
    match = Match.objects.filter(table__session__tournament=tournament, table__number=1).get()
    phone = scorer_client(match)
    phone_actor = ScorerActor(scorer_device=phone.session["table_scorer"]["device"])
    import_record(match, phone_actor, truncated(played_record(match=match, seed=3), rounds=1))
    match = fresh(match)
    state = round_to_sign(match=match)
    form = {"round": "1", "digest": state.digest, "word": "agree", "reason": "",
            "seat": "0", "code": seat_code(table_scorer(match=match), 0)}
    return match, phone, form


def _signatures_written(match: Match) -> int:
    return RoundSignature.objects.filter(round__match=match).count()


@FUZZ
@given(field=st.sampled_from(["round", "digest", "word", "reason", "seat", "code"]),
       value=VALUES)
def test_round_sign_on_the_scorer_phone_and_by_a_seat_link(signing, field, value):
    match, phone, form = signing
    with example():
        _post(phone, match, _url(match, "match_round_sign"), _fuzzed(form, field, value))
        own = {key: form[key] for key in ("round", "digest", "word", "reason")}
        if field in own:
            _post(Client(REMOTE_ADDR="10.0.0.2"), match,
                  seat_path(table_scorer(match=match), 1), _fuzzed(own, field, value))
        assert _signatures_written(match) <= 2
