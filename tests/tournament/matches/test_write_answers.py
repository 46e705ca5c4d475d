"""Every write address of a match answers a clumsy user alike (``MatchWriteMixin.written``):
a tab showing the match before the last save is told it is stale (409) and writes nothing;
the same submission sent twice is saved once and told so the second time; a session closed
meanwhile refuses the write (400) and nothing is written.

Each address is taken in a state where its write is accepted, then posted as two tabs would:
the tablet's writes with htmx, the correction, insertion and sheet mode pages as forms."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import add, blocked_racks, blocked_round, fresh, match_at, played_record
from tests.tournament.matches.helpers import settled_with_claim
from tournament import engine
from tournament.matches import services
from tournament.models import AuditEntry, Match, Session, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "0c6f1d2e-7a3b-4c5d-9e8f-a1b2c3d4e5f6"
OTHER_KEY = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"


def opening() -> services.TurnInput:
    return services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                              points_claimed=25)


def passing() -> services.TurnInput:
    return services.TurnInput(draws=3)


def first_turn(match: Match) -> dict[str, int]:
    return {"turn_id": Turn.objects.current().get(round__match=match, index=0).pk}


def second_turn(match: Match) -> dict[str, int]:
    return {"turn_id": Turn.objects.current().get(round__match=match, index=1).pk}


@dataclass(frozen=True)
class WriteAddress:
    """A write address (``name``), the match made ready for its write by ``ready``, which
    returns the address's arguments; ``data``: what its form posts besides the revision and
    the submission's key; ``htmx``: posted by the entry screen's script."""

    name: str
    ready: Callable[[Match, Any], dict[str, int]]
    data: Callable[[Match], dict[str, Any]]
    htmx: bool = True


def _opened_and_passed(match, referee) -> dict[str, int]:
    add(match, referee, opening(), passing())
    return {}


def _claim_to_decide(match, referee) -> dict[str, int]:
    add(match, referee, opening(), services.TurnInput(cell=engine.Cell(0, 0, "D"),
                                                      corners=(5, 5, 4), points_claimed=20))
    return second_turn(match)


def _blocked(match, referee) -> dict[str, int]:
    blocked_round(match, referee)
    return {"number": 1}


def _settled(match, referee) -> dict[str, int]:
    blocked_round(match, referee)
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks())
    return {"number": 1}


def _settled_with_claim(match, referee) -> dict[str, int]:
    settled_with_claim(match, referee)
    return {"number": 1}


def _emptied(match, referee) -> dict[str, int]:
    """A match whose one turn was undone: empty again, at revision 2."""
    add(match, referee, opening())
    services.match_turn_undo(match=fresh(match), user=referee, seen_revision=1)
    return {}


def _correction_ready(match, referee) -> dict[str, int]:
    _opened_and_passed(match, referee)
    return first_turn(match)


def _insertion_ready(match, referee) -> dict[str, int]:
    _opened_and_passed(match, referee)
    return second_turn(match)


def _opened(match, referee) -> dict[str, int]:
    add(match, referee, opening())
    return {}


def _no_data(match) -> dict[str, Any]:
    return {}


def _racks(match) -> dict[str, Any]:
    return {f"rack_{seat}": " ".join(rack) for seat, rack in enumerate(blocked_racks())}


def _record(match) -> dict[str, Any]:
    return {"record": json.dumps(played_record(match=match, seed=3)).encode()}


WRITES = [
    WriteAddress("match_turn_add", _opened_and_passed, lambda match: {"pass": "1", "draws": "3"}),
    WriteAddress("match_turn_undo", _opened_and_passed, _no_data),
    WriteAddress("match_turn_decide", _claim_to_decide, lambda match: {"decision": "engine"}),
    WriteAddress("match_round_end", _blocked, _racks),
    WriteAddress("match_round_settlement_decide", _settled_with_claim,
                 lambda match: {"decision": "engine"}),
    WriteAddress("match_round_confirm", _settled, _no_data),
    WriteAddress("match_record_upload", _emptied, _record),
    WriteAddress("match_turn_correct", _correction_ready, lambda match: {
        "player": "0", "draws": "0", "tile": "4-4-4", "cell": "U(0,0)", "corners": "4-4-4",
        "bonus_claimed": "", "claimed": "22", "reason": "misread"}, htmx=False),
    WriteAddress("match_turn_insert", _insertion_ready, lambda match: {
        "player": "1", "draws": "3", "tile": "", "cell": "", "corners": "",
        "bonus_claimed": "", "claimed": "-25", "reason": "left off the sheet"}, htmx=False),
    WriteAddress("match_sheet_mode", _opened, lambda match: {
        "line-TOTAL_FORMS": "1", "line-INITIAL_FORMS": "0", "line-0-tile": "4-5-5",
        "line-0-points": "14", "save": "1"}, htmx=False),
]

#: Every write address: a submission sent again after its first save is told it was saved,
#: even where a check its first save made fail comes before the write (the racks' form against
#: the revision posted, a correction or an insertion against the turn it names, sheet mode's
#: lines against the table): docs/guides/referee.md promises "already saved", never a 409.
RESENT = [pytest.param(write, id=write.name) for write in WRITES]


def _post(client, match: Match, write: WriteAddress, address: dict[str, int], *,
          revision: int, key: str):
    data = {**write.data(match), "revision": str(revision), "submission_key": key}
    for name, value in data.items():
        if isinstance(value, bytes):
            data[name] = SimpleUploadedFile("match.json", value)
    url = reverse(f"tournament:{write.name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **address})
    if write.htmx:
        return client.post(url, data, **HTMX)
    return client.post(url, data, follow=True)  # a form's write ends on a redirect


def _saved(response, write: WriteAddress) -> bool:
    """The write's answer says it was saved (a page's form: back on its page, said so)."""
    if write.htmx:
        return response.status_code == 200 and response["X-Submission"] == "saved"
    return ([status for _url, status in response.redirect_chain] == [302]
            and response.status_code == 200
            and [m.level_tag for m in response.context["messages"]] == ["success"])


def _written(match: Match) -> tuple[int, list[int]]:
    """What every write changes: the match's revision and its audit entries."""
    return (fresh(match).revision,
            list(AuditEntry.objects.filter(match=match).values_list("pk", flat=True)))


def _ready(tournament, referee, write: WriteAddress) -> tuple[Match, dict[str, int], int]:
    match = match_at(tournament=tournament, started=True)
    address = write.ready(match, referee)
    return match, address, fresh(match).revision


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.name)
def test_a_tab_showing_the_match_before_the_last_save_is_stale_and_writes_nothing(
        tournament, referee, referee_client, write):
    match, address, revision = _ready(tournament, referee, write)
    before = _written(match)
    response = _post(referee_client, match, write, address, revision=revision - 1,
                     key=OTHER_KEY)
    assert response.status_code == 409
    assert _written(match) == before
    if write.htmx:
        assert response["X-Submission"] == "stale"
        assert response.context["revision"] == revision  # the match as it is now
    else:  # the form again, with what was typed, at the revision now shown
        assert response.context["form"]["revision"].value() == str(revision)
    # what the stale tab sends again from the match now shown is saved
    again = _post(referee_client, match, write, address, revision=revision, key=OTHER_KEY)
    assert _saved(again, write)
    assert _written(match)[0] == revision + 1


def _sent_twice(client, tournament, referee, write: WriteAddress):
    """The write posted, and posted again as it was (its answer lost, the tablet's queue or
    an impatient user sends it again); the two answers, the second written nothing."""
    match, address, revision = _ready(tournament, referee, write)
    first = _post(client, match, write, address, revision=revision, key=KEY)
    assert _saved(first, write)
    saved = _written(match)
    assert saved[0] == revision + 1
    again = _post(client, match, write, address, revision=revision, key=KEY)
    assert _written(match) == saved
    return first, again


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.name)
def test_the_same_submission_sent_twice_is_saved_once(tournament, referee, referee_client,
                                                      write):
    _sent_twice(referee_client, tournament, referee, write)


@pytest.mark.parametrize("write", RESENT)
def test_the_same_submission_sent_twice_is_told_it_was_saved(tournament, referee,
                                                             referee_client, write):
    first, again = _sent_twice(referee_client, tournament, referee, write)
    if write.htmx:
        assert again.status_code == 200 and again["X-Submission"] == "already-saved"
        assert again.context["revision"] == first.context["revision"]
    else:  # back on the page the write returns to, said so
        assert again.redirect_chain == first.redirect_chain
        assert [str(m) for m in again.context["messages"]] == [
            services.already_saved_message()]


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.name)
def test_a_session_closed_meanwhile_refuses_every_write(tournament, referee, referee_client,
                                                        write):
    match, address, revision = _ready(tournament, referee, write)
    Session.objects.filter(pk=match.table.session_id).update(status=Session.Status.FINISHED)
    before = _written(match)
    response = _post(referee_client, match, write, address, revision=revision, key=KEY)
    assert response.status_code == 400
    assert _written(match) == before
    if write.htmx:
        assert response["X-Submission"] == "refused"
