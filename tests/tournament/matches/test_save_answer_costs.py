"""What a turn's save answer no longer makes each time: the turn form's widgets are rendered
once per context (``WidgetRenderer``), the same HTML as Django's own renderer, and the tiles'
grid and the table's placements are not made when the tablet keeps its own."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from tests.factories import fresh, match_at
from tournament.matches.forms.parsing import WidgetRenderer
from tournament.matches.reading.replayed_match import LiveRound


class _Sample(forms.Form):
    revision = forms.IntegerField(widget=forms.HiddenInput)
    tile = forms.CharField(max_length=12, widget=forms.TextInput(attrs={"placeholder": "345"}))
    draws = forms.TypedChoiceField(choices=[(str(n), str(n)) for n in range(4)], coerce=int,
                                   initial="0", widget=forms.RadioSelect)
    claimed = forms.IntegerField(min_value=-1000, max_value=1000, required=False)


def _html(form: forms.Form) -> list[str]:
    return [str(form["revision"]), str(form["tile"]), str(form["claimed"]),
            *(radio.tag() for radio in form["draws"])]


@pytest.mark.parametrize("data", [None, {"revision": "7", "tile": "x" * 20, "draws": "2"}])
def test_the_widgets_render_as_django_renders_them_and_once(monkeypatch, data):
    renderer = WidgetRenderer()
    made: list[str] = []
    real = DjangoTemplates.render

    def counted(self, template_name, context, request=None):
        made.append(template_name)
        return real(self, template_name, context, request)

    monkeypatch.setattr(DjangoTemplates, "render", counted)
    expected = _html(_Sample(data, initial={"revision": 3}, renderer=DjangoTemplates()))
    made.clear()
    assert _html(_Sample(data, initial={"revision": 3}, renderer=renderer)) == expected
    assert len(made) == len(expected)
    made.clear()
    assert _html(_Sample(data, initial={"revision": 3}, renderer=renderer)) == expected
    assert made == []  # the second form's widgets all came from the renderer's copies


def test_what_renders_apart_is_kept_apart():
    renderer = WidgetRenderer()
    template = "django/forms/widgets/text.html"

    def widget(**changes):
        return {"widget": {"name": "x", "is_hidden": False, "required": False, "value": "a<b",
                           "attrs": {"id": "id_x"}, "template_name": template,
                           "type": "text", **changes}}

    plain = renderer.render(template, widget())
    assert renderer.render(template, widget(value=mark_safe("a<b"))) != plain  # not escaped
    assert renderer.render(template, widget(attrs={"id": "id_x", "size": True})) != (
        renderer.render(template, widget(attrs={"id": "id_x", "size": 1})))
    assert renderer.render(template, widget(attrs={"size": "5", "id": "id_x"})) != (
        renderer.render(template, widget(attrs={"id": "id_x", "size": "5"})))  # their order
    renderer.render(template, widget(value=gettext_lazy("Tile")))  # rendered, not kept
    assert len(renderer._kept) == 6


@pytest.mark.django_db
def test_a_save_the_tablet_keeps_its_tiles_for_makes_no_tile_grid(tournament, referee_client,
                                                                   monkeypatch):
    match = match_at(tournament=tournament, started=True)
    url = reverse("tournament:match_turn_add", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})
    revision = fresh(match).revision
    opening = {"revision": revision, "player": "0", "tile": "555", "cell": "U(0,0)",
               "draws": "0", "claimed": "25"}
    referee_client.post(url, opening, HTTP_HX_REQUEST="true")
    grids: list[LiveRound] = []
    real = LiveRound.tile_grid
    monkeypatch.setattr(LiveRound, "tile_grid", lambda self: grids.append(self) or real(self))
    revision = fresh(match).revision
    second = {"revision": revision, "tile": "455", "cell": "D(0,0)", "corners": "5-5-4",
              "draws": "0", "claimed": "14"}
    response = referee_client.post(url, second, HTTP_HX_REQUEST="true",
                                   HTTP_X_MATCH_SHOWN=str(revision))
    assert response.status_code in (200, 400)
    body = response.content.decode()
    assert 'id="tile-grid" hx-preserve' in body and "data-placements" not in body
    assert grids == []
    whole = referee_client.get(reverse("tournament:match", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk}))
    assert 'class="tile-button' in whole.content.decode() and len(grids) == 1
