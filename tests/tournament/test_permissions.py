"""Who may do what: organisers, referees (maybe limited to some tables), everyone else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError

from tournament.core.permissions import can_referee, can_view, is_organiser, is_referee
from tournament.models import Table
from tournament.validators import parse_table_numbers

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(tournament):
    return {table.number: table for table in Table.objects.filter(session__tournament=tournament)}


def test_organiser_may_do_everything_in_their_tournament(tournament, organiser, tables, make_tournament):
    assert is_organiser(organiser, tournament)
    assert is_referee(organiser, tournament)
    assert all(can_referee(organiser, table) for table in tables.values())
    other = make_tournament(slug="other-cup")
    assert not is_organiser(organiser, other)
    assert not can_referee(organiser, other.sessions.get().tables.first())


def test_referee_enters_matches_but_does_not_organise(tournament, referee, tables):
    assert not is_organiser(referee, tournament)
    assert is_referee(referee, tournament)
    assert can_referee(referee, tables[1]) and can_referee(referee, tables[2])


def test_referee_limited_to_some_tables(tournament, referee_of_table_2, tables):
    assert is_referee(referee_of_table_2, tournament)
    assert not can_referee(referee_of_table_2, tables[1])
    assert can_referee(referee_of_table_2, tables[2])


def test_anonymous_and_outsiders_have_no_role(tournament, outsider, tables):
    for user in (AnonymousUser(), outsider):
        assert not is_organiser(user, tournament)
        assert not is_referee(user, tournament)
        assert not can_referee(user, tables[1])


def test_superuser_organises_every_tournament(tournament, make_user, tables):
    admin = make_user("root", is_superuser=True, is_staff=True)
    assert is_organiser(admin, tournament) and can_referee(admin, tables[2])


def test_a_deactivated_account_loses_its_role(tournament, organiser):
    organiser.is_active = False
    assert not is_organiser(organiser, tournament)


def test_private_tournaments_are_seen_by_their_staff_only(make_tournament, referee, outsider):
    private = make_tournament(slug="club-night", is_public=False)
    assert not can_view(AnonymousUser(), private)
    assert not can_view(outsider, private)
    assert not can_view(referee, private)  # referee of another tournament
    from tournament.core.tournaments import staff_role_grant

    staff_role_grant(tournament=private, user=referee, role="referee", tables="1")
    assert can_view(referee, private)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("", None), ("  ", None), ("3", {3}), ("1-4,7", {1, 2, 3, 4, 7}), (" 2 - 3 , 9 ", {2, 3, 9})],
)
def test_table_lists(text, numbers):
    parsed = parse_table_numbers(text)
    assert (parsed if parsed is None else set(parsed)) == numbers


@pytest.mark.parametrize("text", ["a", "1-", "4-2", "0", "1,,2", "1;2", "10000", "1-1000000000"])
def test_bad_table_lists_are_refused(text):
    with pytest.raises(ValidationError):
        parse_table_numbers(text)


def test_table_numbers_go_up_to_9999():
    assert max(parse_table_numbers("9990-9999")) == 9999
    with pytest.raises(ValidationError) as refused:
        parse_table_numbers("1-99999999999")
    assert refused.value.code == "table-max"


def test_the_referee_mixin_for_the_entry_pages_to_come(rf, tournament, referee, organiser, outsider):
    from django.core.exceptions import PermissionDenied
    from django.http import HttpResponse
    from django.views import View

    from tournament.core.permissions import RefereeRequiredMixin

    class EntryView(RefereeRequiredMixin, View):
        def get(self, request, *args, **kwargs):
            return HttpResponse(self.tournament.slug)

    def get_as(user):
        request = rf.get("/t/spring-open/entry/")
        request.user = user
        return EntryView.as_view()(request, slug="spring-open")

    assert get_as(referee).content == b"spring-open"
    assert get_as(organiser).status_code == 200
    with pytest.raises(PermissionDenied):
        get_as(outsider)
    anonymous = get_as(AnonymousUser())
    assert anonymous.status_code == 302
    assert anonymous["Location"] == "/login/?next=/t/spring-open/entry/"
