"""``table_html``: the polled pages' tables written as ``{% render_table %}`` writes them, their
shell (headers, sorting links) rendered once a process for a request without a query string."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation
from django_tables2 import RequestConfig

from tests.factories import match_at
from tournament.public import selectors
from tournament.public.tables import PlayerMatchesTable, table_html
from tournament.seating.selectors import session_seating
from tournament.seating.tables import SeatingTable

pytestmark = pytest.mark.django_db


def tag_rendered(table, request) -> str:
    """What ``{% render_table table %}`` writes."""
    template = Template("{% load django_tables2 %}{% render_table table %}")
    return template.render(Context({"table": table, "request": request}))


@pytest.mark.parametrize("query", ["", "?sort=-number", "?table-sort=-number&seat-sort=club"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_tables_are_written_as_render_table_writes_them(tournament, query, language):
    match = match_at(tournament=tournament, started=True)
    player_id = match.table.seats.order_by("order").first().player_id
    request = RequestFactory().get(f"/t/{tournament.slug}/sessions/1/{query}")

    def tables():
        seating = SeatingTable(session_seating(session=match.table.session), prefix="table-")
        page = selectors.player_page(tournament=tournament, player_id=player_id)
        made = [seating, PlayerMatchesTable(page["matches"])]
        for table in made:
            RequestConfig(request, paginate=False).configure(table)
        return made

    with translation.override(language):
        for _time in range(2):  # the shell made, then the shell kept
            for table, expected in zip(tables(), tables(), strict=True):
                assert table_html(table, request) == tag_rendered(expected, request)
