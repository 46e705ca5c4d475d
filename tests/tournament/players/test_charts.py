"""The charts: valid SVG with a title and a description, one marker per rating, one bar per
session, the text kept as text, and the same bytes for the same data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from tournament.kit import charts as charts_module
from tournament.kit.charts import Span, points_chart, rating_chart

# Charts are kept in the shared cache, which is the database.
pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def element(root: ET.Element, element_id: str) -> ET.Element:
    found = root.find(f".//*[@id='{element_id}']")
    assert found is not None, element_id
    return found


def rating(values, spans=()):
    return rating_chart(values=values, spans=spans, title="Rating <of> Ana",
                        description="Her rating & more", x_label="Rated matches")


@pytest.mark.parametrize("values", [[1.5], [3.0, -2.5, 4.25], [float(n % 7) for n in range(60)]])
def test_one_marker_per_rating(values):
    root = parsed(rating(values))
    line = element(root, "rating-chart-line")
    assert len(line.findall(f".//{SVG}use")) == len(values)


@pytest.mark.parametrize("count", [1, 4, 45])
def test_one_bar_per_session(count):
    values = [50 * (n % 5) + 10 for n in range(count)]
    svg = points_chart(values=values, labels=[str(n + 1) for n in range(count)],
                       spans=[Span("Open", 0, count)], title="Points", description="Per session")
    root = parsed(svg)
    bars = [node for node in root.iter() if node.get("id", "").startswith("points-chart-bar-")]
    assert len(bars) == count
    assert {bar.get("id") for bar in bars} == {f"points-chart-bar-{n}" for n in range(count)}


def test_title_description_and_role():
    root = parsed(rating([1.0, 2.0]))
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    title, desc = element(root, "rating-chart-title"), element(root, "rating-chart-desc")
    assert (title.tag, title.text) == (f"{SVG}title", "Rating <of> Ana")
    assert (desc.tag, desc.text) == (f"{SVG}desc", "Her rating & more")
    assert root.get("aria-labelledby") == "rating-chart-title rating-chart-desc"


def test_text_stays_text_and_spans_are_named():
    spans = [Span("Spring Open", 0, 2), Span("Autumn Cup", 2, 3)]
    root = parsed(rating([1.0, 2.0, 3.0], spans))
    texts = {"".join(node.itertext()) for node in root.iter(f"{SVG}text")}
    assert {"Spring Open", "Autumn Cup", "Rated matches"} <= texts
    assert element(root, "rating-chart-span-1") is not None
    assert not root.findall(f".//{SVG}image")  # nothing to fetch


def test_same_data_same_bytes_and_other_data_other_bytes():
    spans = [Span("Spring Open", 0, 3)]
    assert rating([1.0, 2.0, 3.0], spans) == rating([1.0, 2.0, 3.0], spans)
    assert rating([1.0, 2.0, 3.0], spans) != rating([1.0, 2.0, 3.5], spans)


def test_every_id_under_the_chart_prefix_so_two_charts_share_none():
    one = parsed(rating([1.0, 2.0]))
    two = parsed(points_chart(values=[10, 20], labels=["1", "2"], title="P", description="D"))
    ids_one = [node.get("id") for node in one.iter() if node.get("id")]
    ids_two = [node.get("id") for node in two.iter() if node.get("id")]
    assert all(i == "rating-chart" or i.startswith("rating-chart-") for i in ids_one)
    assert all(i == "points-chart" or i.startswith("points-chart-") for i in ids_two)
    assert len(ids_one) == len(set(ids_one))
    assert not set(ids_one) & set(ids_two)
    # Every reference inside a chart names one of its own ids.
    for root, ids in ((one, set(ids_one)), (two, set(ids_two))):
        for node in root.iter():
            href = node.get("{http://www.w3.org/1999/xlink}href")
            if href:
                assert href[1:] in ids


@pytest.mark.parametrize("name", ["Open <script>alert(1)</script> & co", "Prize $x^2$ cup"])
def test_names_are_text_as_written(name):
    root = parsed(rating([1.0, 2.0], [Span(name, 0, 2)]))
    assert not [node for node in root.iter() if node.tag.endswith("script")]
    label = element(root, "rating-chart-span-label-0")
    assert {"".join(node.itertext()) for node in label.iter(f"{SVG}text")} == {name}


def test_every_band_drawn_but_only_the_wide_ones_named():
    """A career of many one-match tournaments and a long one: 61 bands; the narrow ones are
    not named (their names would print over each other), the long one is."""
    spans = [Span(f"Cup {n}", n, n + 1) for n in range(60)] + [Span("League", 60, 120)]
    root = parsed(rating([float(n % 9) for n in range(120)], spans))
    ids = {node.get("id") for node in root.iter()}
    assert {f"rating-chart-span-{n}" for n in range(61)} <= ids
    assert not {f"rating-chart-span-label-{n}" for n in range(60)} & ids
    assert "rating-chart-span-label-60" in ids


def test_a_chart_is_drawn_once_then_kept(monkeypatch):
    drawn = []
    real_svg = charts_module._svg
    monkeypatch.setattr(charts_module, "_svg", lambda *a, **k: drawn.append(1) or real_svg(*a, **k))
    with translation.override("en"):
        first = rating([1.0, 2.0, 3.5])
        again = rating([1.0, 2.0, 3.5])
        assert again == first and len(drawn) == 1
        # other data, or another language (its numbers are written otherwise): another chart
        assert rating([1.0, 2.0, 3.6]) != first
    with translation.override("fr"):
        rating([1.0, 2.0, 3.5])
    assert len(drawn) == 3
