"""Every write address outside the matches, posted generated values as the role that may write
there: the answer is never a 5xx, and a refused write writes nothing.

The values are those a keyboard, a copy-paste or a hand-made request give: unicode digits
(``²`` passes ``str.isdigit()`` but not ``int()``), huge and negative numbers, empty, very long
strings, NUL characters, several values for one field, a file where text is expected, and
valid values now and then so that the checks behind the form's are reached too. Each example
runs in a transaction rolled back at its end: every example starts from the same tournament.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.tournament import writes
from tests.tournament.writes import ADDRESSES, PLAYER, SETTINGS, old_archive, refused
from tournament.archive.export import INDEX_NAME
from tournament.models import Registration, Tournament

# slow: Hypothesis's values posted to every field of every address
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HUGE = "9" * 5000

#: Values that broke, or could break, a form or a service: each is posted to every field.
NASTY_VALUES = [
    "", "²", "١-٤", "-1", "1.5", "40000", "9223372036854775808", HUGE, "1-" + HUGE,
    "\x00", "[]", "2025-02-30", "10000-01-01", "x" * 20_000,
]

#: More of them, generated.
NASTY_TEXT = st.one_of(
    st.sampled_from(NASTY_VALUES),
    st.integers().map(str),
    st.text(max_size=30),
    st.text(min_size=200, max_size=3000),
)

#: A field's value: one string, or several values under one name (a list), or left out.
MISSING = object()


def field_values(valid: str):
    return st.one_of(
        st.just(valid),
        NASTY_TEXT,
        st.lists(NASTY_TEXT, min_size=2, max_size=3),
        st.just(MISSING),
    )


def form_data(valid: dict[str, str]):
    """Every field of the form: its valid value, a nasty one, several, or none."""
    return st.fixed_dictionaries({name: field_values(value) for name, value in valid.items()})


def zip_files():
    """The old archive, cut short, or with its entries replaced; other bytes; a ZIP of
    generated entries."""
    entry_names = st.sampled_from([INDEX_NAME, "tournament.json",
                                   "session-01/table-01-match-7.json", "other.txt"])
    entry_data = st.one_of(st.binary(max_size=200),
                           NASTY_TEXT.map(lambda value: value.encode("utf-8")))

    def zipped(entries: dict[str, bytes]) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as target:
            for name, data in entries.items():
                target.writestr(name, data)
        return buffer.getvalue()

    def cut(length: int) -> bytes:
        return old_archive()[:length]

    def replaced(entries: dict[str, bytes]) -> bytes:
        source = zipfile.ZipFile(io.BytesIO(old_archive()))
        kept = {info.filename: source.read(info) for info in source.infolist()}
        return zipped({**kept, **entries})

    contents = st.one_of(
        st.builds(old_archive),
        st.integers(min_value=0, max_value=len(old_archive()) - 1).map(cut),
        st.dictionaries(entry_names, entry_data, max_size=2).map(replaced),
        st.dictionaries(entry_names, entry_data, max_size=4).map(zipped),
        st.binary(max_size=400),
    )
    return contents.map(
        lambda data: SimpleUploadedFile("old-open-records.zip", data, "application/zip"))


def csv_files():
    text = st.one_of(
        st.text(max_size=400),
        st.lists(
            st.lists(st.one_of(NASTY_TEXT, st.just("Ana"), st.just("Club")), max_size=5)
            .map(lambda cells: ",".join(cells)),
            max_size=20,
        ).map("\n".join),
        st.sampled_from(["name;club\nAna;X\nBo,Y\n", "nom\nBob;Club B;L-77\n", "\"open\nx"]),
    )
    contents = st.one_of(
        text.map(lambda value: value.encode("utf-8")),
        text.map(lambda value: value.encode("utf-16")),
        st.binary(max_size=400),
    )
    return contents.map(lambda data: SimpleUploadedFile("players.csv", data, "text/csv"))


def data_strategy(address: str):
    valid = ADDRESSES[address][2]
    if address == "import players":
        return st.fixed_dictionaries(
            {"file": st.one_of(csv_files(), NASTY_TEXT, st.just(MISSING))})
    if address == "import a past tournament":
        return st.fixed_dictionaries({
            "file": st.one_of(zip_files(), NASTY_TEXT, st.just(MISSING)),
            "name": field_values(valid["name"]),
            "start_date": field_values(valid["start_date"]),
        })
    return form_data(valid)


#: Numbers in addresses: the real one, or one the database cannot hold.
ADDRESS_NUMBERS = st.sampled_from(["real", "0", "99999", "2147483648", "9" * 40])


def database_snapshot():
    from django.apps import apps
    from django.contrib.auth import get_user_model

    models = list(apps.get_app_config("tournament").get_models())
    models += [get_user_model()]
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in models
    }


@pytest.fixture
def world(tournament, organiser, referee, make_tournament):
    """The tournament the addresses are posted to (``tests/tournament/writes.py``)."""
    return writes.world(tournament=tournament, organiser=organiser, referee=referee,
                        make_tournament=make_tournament)


def post_data(data: dict) -> dict:
    return {name: value for name, value in data.items() if value is not MISSING}


@pytest.mark.parametrize("address", list(ADDRESSES))
def test_no_generated_value_gives_a_5xx_nor_a_half_write(address, world, organiser):
    role, path, _valid = ADDRESSES[address]
    client = Client(raise_request_exception=False)
    if role == "organiser":
        client.force_login(organiser)
    before = database_snapshot()  # every example is rolled back to it

    @settings(
        max_examples=examples(25),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        derandomize=True,
    )
    @given(data=data_strategy(address), number=ADDRESS_NUMBERS)
    def post(data, number):
        values = dict(world)
        if number != "real":
            values.update(registration=number, number=number, role_id=number, player=number,
                          invitation=number, own_invitation=number)
        url = path.format(**values)
        with transaction.atomic():
            response = client.post(url, post_data(data))
            assert response.status_code < 500, (url, data, response.status_code)
            if refused(response):
                assert database_snapshot() == before, (url, data)
            transaction.set_rollback(True)

    post()


@pytest.mark.parametrize(
    ("address", "field"),
    [(address, field) for address, (_r, _p, valid) in ADDRESSES.items() for field in valid],
)
def test_every_nasty_value_in_every_field(address, field, world, organiser):
    """The other fields valid, so that this field's value is what the answer depends on."""
    role, path, valid = ADDRESSES[address]
    client = Client(raise_request_exception=False)
    if role == "organiser":
        client.force_login(organiser)
    url = path.format(**world)
    before = database_snapshot()  # every example is rolled back to it

    def post(value):
        data = dict(valid, **{field: value})
        with transaction.atomic():
            response = client.post(url, data)
            assert response.status_code < 500, (url, field, str(value)[:80], response.status_code)
            if refused(response):
                assert database_snapshot() == before, (url, field, str(value)[:80])
            transaction.set_rollback(True)

    for value in [*NASTY_VALUES, [NASTY_VALUES[1], HUGE]]:
        post(value)

    @settings(max_examples=examples(4), deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(value=st.one_of(NASTY_TEXT, st.lists(NASTY_TEXT, min_size=2, max_size=3)))
    def generated(value):
        post(value)

    generated()


def test_the_addresses_cover_every_write_outside_the_matches():
    """A new write address outside tournament/matches/ fails here until it is fuzzed."""
    from tests.tournament.test_roles import named_patterns

    known_reads = {
        "tournament:home", "tournament:detail", "tournament:organise", "tournament:session_organise",
        # Django's own login form (our view adds the tries left): it writes no tournament data,
        # and test_login_lockout.py posts wrong, over-long and locked-out credentials to it
        "login",
        # the logout (its page lists the turns the tablet has not sent yet): it ends the
        # session and writes no tournament data; test_shared_tablet.py posts to it
        "logout",
    }
    writes = set()
    for name, pattern in named_patterns():
        view = getattr(pattern.callback, "view_class", None)
        if view is None or name in known_reads or "post" not in getattr(
                view, "http_method_names", []):
            continue
        module = view.__module__
        if module.startswith("tournament.matches") or not module.startswith("tournament"):
            continue
        if not any(hasattr(view, method) for method in ("post", "form_valid")):
            continue
        writes.add(name)
    fuzzed = {
        "tournament:tournament_create", "tournament:tournament_import", "tournament:tournament_edit",
        "tournament:organise_players", "tournament:players_import",
        "tournament:registration_edit", "tournament:registration_withdraw",
        "tournament:registration_reinstate", "tournament:session_open",
        "tournament:session_seat", "tournament:seating_swap", "tournament:session_start",
        "tournament:session_close", "tournament:session_reopen", "tournament:staff",
        "tournament:league_create", "tournament:league_edit", "tournament:league_tournament_add",
        "tournament:league_tournament_remove",
        "tournament:staff_revoke", "tournament:staff_unlock", "tournament:player_merge",
        "tournament:staff_invitation_cancel", "tournament:invitation_accept",
        "tournament:invitation_decline",
        "tournament:session_clock", "tournament:session_match_entry", "tournament:room_settings", "tournament:table_call",
        "tournament:room_call_answer", "tournament:final_open", "tournament:session_check_in",
        "tournament:practice", "tournament:practice_reset",
    }
    assert writes == fuzzed, writes ^ fuzzed


def test_a_valid_post_of_each_kind_is_accepted(world, organiser):
    """The base values are valid: the refusals above come from the generated values."""
    client = Client()
    client.force_login(organiser)
    response = client.post("/t/{slug}/organise/players/".format(**world), PLAYER)
    assert response.status_code == 302
    assert Registration.objects.filter(player__name="Zoé Zed").exists()
    settings_data = dict(SETTINGS, start_date=datetime.date(2025, 5, 17).isoformat())
    assert client.post("/t/{slug}/organise/settings/".format(**world), settings_data
                       ).status_code == 302
    _role, path, archive_data = ADDRESSES["import a past tournament"]
    assert client.post(path, archive_data).status_code == 302
    assert Tournament.objects.filter(name="Old Open", start_date=datetime.date(2025, 3, 8)
                                     ).exists()


#: Every field of a manifest (``tournament.json``), by its path in the manifest built by
#: ``bench.hostile_archives.manifest_and_records``.
MANIFEST_FIELDS = [
    ("format",),
    *[("tournament", name) for name in (
        "name", "slug", "start_date", "end_date", "venue", "rules", "target", "opening_bonus",
        "match_rounds", "ranking_criteria", "keep_clubs_apart", "is_rated", "final_size")],
    *[("players", 0, name) for name in (
        "id", "name", "club", "licence", "status", "first_session")],
    *[("sessions", 0, name) for name in ("number", "status", "seed", "seating", "is_final",
                                                     "tables")],
    *[("sessions", 0, "tables", 0, name) for name in ("number", "players", "match")],
    *[("sessions", 0, "tables", 0, "match", name) for name in (
        "status", "entry", "confirmed_at", "totals", "winners")],
    *[("archive", name) for name in ("installation", "tournament_id", "matches_digest")],
]

#: JSON values a hand-made or damaged manifest may hold where any field is expected.
NASTY_JSON = [
    None, True, 0, -1, 1000, 2**31, -(2**31) - 1, 2**63, 10**30, 1.5, float("nan"),
    float("inf"), "", "\x00", "Zoé\x00", "\udfff", "x" * 5000, "2025-02-30", "0001-01-01",
    "9999-12-31", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "confirmed",
    "finished", [], [None], [2**63], ["\x00"], {}, {"a": []}, [[[[]]]],
]
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), NASTY_TEXT),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.text(max_size=5), children, max_size=3)),
    max_leaves=6,
)


def manifest_archive(path: tuple, value) -> SimpleUploadedFile:
    """A one-match archive whose manifest holds ``value`` at ``path``, as a posted file."""
    from bench.hostile_archives import manifest_and_records, zipped

    manifest, records = manifest_and_records(1)
    manifest["sessions"][0]["tables"][0]["match"]["totals"] = None
    manifest["players"][0].update(first_session=None, status="active")
    manifest["archive"] = {"installation": "", "tournament_id": None, "matches_digest": ""}
    place = manifest
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    data = json.dumps(manifest, allow_nan=True).encode("utf-8", "surrogatepass")
    return SimpleUploadedFile("hostile-records.zip", zipped({"tournament.json": data, **records}),
                              "application/zip")


@pytest.mark.parametrize("path", MANIFEST_FIELDS, ids=lambda path: ".".join(map(str, path)))
def test_every_manifest_field_takes_any_value_without_a_5xx(path, organiser):
    """The import's manifest fields, each given nasty JSON (NUL characters, unpaired
    surrogates, numbers no column holds, moments no time zone can show, values of another
    type): never a 5xx, and a refusal writes nothing."""
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    before = database_snapshot()

    def post(value):
        with transaction.atomic():
            response = client.post("/tournaments/import/", {"file": manifest_archive(path, value)})
            assert response.status_code < 500, (path, repr(value)[:80], response.status_code)
            if refused(response):
                assert database_snapshot() == before, (path, repr(value)[:80])
            transaction.set_rollback(True)

    for value in NASTY_JSON:
        post(value)

    @settings(max_examples=6, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(value=JSON_VALUES)
    def generated(value):
        post(value)

    generated()
