"""``PythonBodyTable.table_html``: a table written as ``{% render_table %}`` writes it, its frame
(wrapper, headers, sorting links) rendered once a process for what it shows, its body each time."""

from __future__ import annotations

import django_tables2 as tables2
import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation
from django_tables2 import RequestConfig

from tests.factories import match_at, recorded_match
from tournament.kit import tables as kit_tables
from tournament.kit.tables import PythonBodyTable
from tournament.matches.reading.replay import match_replay
from tournament.matches.tables import TurnLogTable
from tournament.public import selectors
from tournament.public.tables import PlayerMatchesTable
from tournament.seating.selectors import session_seating
from tournament.seating.tables import SeatingTable

pytestmark = pytest.mark.django_db


def tag_rendered(table, request) -> str:
    """What ``{% render_table table %}`` writes."""
    template = Template("{% load django_tables2 %}{% render_table table %}")
    return template.render(Context({"table": table, "request": request}))


@pytest.mark.parametrize("query", ["", "?sort=-number", "?table-sort=-number&seat-sort=club"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_polled_tables_are_written_as_render_table_writes_them(tournament, query, language):
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
        for _time in range(2):  # the frame made, then the frame kept
            for table, expected in zip(tables(), tables(), strict=True):
                assert table.table_html(request) == tag_rendered(expected, request)


@pytest.mark.parametrize("options", [{}, {"body_id": "round-1-turns"},
                                     {"body_id": "round-1-turns", "kept_rows": {1}}])
def test_a_turn_log_is_written_as_render_table_writes_it(tournament, options):
    match = recorded_match(match=match_at(tournament=tournament), in_play=True)
    turns = match_replay(match=match).rounds[-1].turns
    assert turns
    for language in ("fr", "en", "fr"):
        with translation.override(language):
            table = TurnLogTable(turns, orderable=False, **options)
            expected = TurnLogTable(turns, orderable=False, **options)
            assert table.table_html() == tag_rendered(expected, None)


class _Fruits(PythonBodyTable):
    name = tables2.Column(verbose_name="name")
    colour = tables2.Column(verbose_name="colour")

    class Meta(PythonBodyTable.Meta):
        pass


class _CellTemplates(_Fruits):
    """Rendered by django-tables2's own template, cell by cell: nothing to keep."""

    class Meta:
        template_name = "django_tables2/table.html"


def test_a_frame_is_kept_apart_for_what_it_shows():
    """Columns left out, another order, headers named otherwise: another frame, never the
    one kept for another table of the same class."""
    rows = [{"name": "pear", "colour": "green"}, {"name": "fig", "colour": "purple"}]
    request = RequestFactory().get("/")
    variants = [{}, {"exclude": ("colour",)}, {"order_by": "-name"}, {"order_by": "name"},
                {"extra_columns": [("weight", tables2.Column(verbose_name="weight"))]},
                {"attrs": {"class": "fruit"}}, {}]
    for kind in (_Fruits, _CellTemplates):
        for options in variants:
            data = [dict(row, weight=1) for row in rows]
            table, expected = kind(data, **options), kind(data, **options)
            assert table.table_html(request) == tag_rendered(expected, request), options


def test_the_frames_kept_are_bounded(monkeypatch):
    """Tables headed by names without end (a league's columns are its tournaments'): the
    frames kept stay at ``KEPT_FRAMES`` at most, each still written as its tag writes it."""
    monkeypatch.setattr(kit_tables, "KEPT_FRAMES", 5)
    monkeypatch.setattr(kit_tables, "_frames", {})
    request = RequestFactory().get("/")
    rows = [{"name": "pear", "colour": "green", "weight": 1}]
    for number in range(12):
        extra = [(f"t{number}", tables2.Column(verbose_name=f"tournament {number}"))]
        data = [dict(row, **{f"t{number}": number}) for row in rows]
        table, expected = _Fruits(data, extra_columns=extra), _Fruits(data, extra_columns=extra)
        assert table.table_html(request) == tag_rendered(expected, request)
        assert len(kit_tables._frames) <= 5
