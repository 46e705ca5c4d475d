"""Lists of players read in the order a reader looks a name up: accents and case aside.

The databases sort names code point by code point ("Élodie" and "Łukasz" after "Zoé"); every
page that lists players by name sorts them with ``tournament.names.name_sort_key``.
"""

from __future__ import annotations

import doctest
import re

import pytest

from tests.factories import ACCENTED_NAMES, accented_tournament
from tournament import names
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffRole

pytestmark = pytest.mark.django_db

BY_NAME = sorted(ACCENTED_NAMES, key=names.name_sort_key)


def test_the_examples_hold():
    result = doctest.testmod(names)
    assert result.attempted > 0 and result.failed == 0


def test_accents_and_case_aside_then_exactly():
    assert BY_NAME[:3] == ["Anaïs Morel", "Chloé Martin", "Élodie Faure"]
    assert BY_NAME[-2:] == ["Núria Puig", "Zoé Garnier"]
    assert sorted(["zoé", "Zoé", "Zoe"], key=names.name_sort_key) == ["Zoe", "Zoé", "zoé"]


def names_in_table(html: str, table_id: str) -> list[str]:
    """The players' names in the order the table with this id lists them."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', html, re.S)
    assert table, f"no table {table_id}"
    found = [(table.group().find(f">{name}<"), name) for name in ACCENTED_NAMES]
    assert all(position >= 0 for position, _name in found), found
    return [name for _position, name in sorted(found)]


@pytest.fixture
def lyon(make_user, client):
    tournament = accented_tournament()
    user = make_user("olga-organiser")
    staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    client.force_login(user)
    return tournament


@pytest.mark.parametrize(("address", "table_id"), [
    ("/t/open-de-lyon/sessions/1/", "seats"),
    ("/t/open-de-lyon/", "players"),
    ("/t/open-de-lyon/organise/players/", "organiser-players"),
    ("/t/open-de-lyon/standings/", "standings"),  # no match played: all tied, listed by name
])
def test_pages_list_players_by_name(lyon, client, address, table_id):
    response = client.get(address)
    assert response.status_code == 200
    assert names_in_table(response.content.decode(), table_id) == BY_NAME


@pytest.mark.parametrize(("address", "table_id", "sort"), [
    ("/t/open-de-lyon/sessions/1/", "seats", "seat-sort"),
    ("/t/open-de-lyon/", "players", "player-sort"),
    ("/t/open-de-lyon/organise/players/", "organiser-players", "sort"),
    ("/t/open-de-lyon/standings/", "standings", "sort"),
])
def test_sorting_by_the_name_column_too(lyon, client, address, table_id, sort):
    html = client.get(f"{address}?{sort}=-name").content.decode()
    assert names_in_table(html, table_id) == BY_NAME[::-1]
    html = client.get(f"{address}?{sort}=name").content.decode()
    assert names_in_table(html, table_id) == BY_NAME


def test_surnames_sort_as_french_lists_sort_them():
    """docs/reference/glossary.md, "Sorting by surname": "de" and "d'" are passed over, the
    articles "Le", "La", "Les", "Du", "Des" belong to the surname."""
    players = ["Gaël Le Goff", "Zoé Abel", "Jean d'Alembert", "Marie de La Fontaine",
             "Anne de Villiers", "Luc Du Bellay", "Inès Gauthier", "Paul des Essarts",
             "Lise Les Aubiers", "Pieter van Dijk", "Rosa Di Maria", "Yves d’Ormesson"]
    assert sorted(players, key=names.surname_sort_key) == [
        "Zoé Abel", "Jean d'Alembert", "Paul des Essarts", "Rosa Di Maria", "Pieter van Dijk",
        "Luc Du Bellay", "Inès Gauthier", "Marie de La Fontaine", "Gaël Le Goff",
        "Lise Les Aubiers", "Yves d’Ormesson", "Anne de Villiers"]
