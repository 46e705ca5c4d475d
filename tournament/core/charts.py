"""Charts drawn on the server as SVG (matplotlib), for the pages and the PDFs alike.

A chart function takes the data and the words to show (already translated) and returns the
SVG as a string, to put inline in a page: no image to fetch, no script, no network, and
WeasyPrint draws it in a PDF as vectors. The text stays text (``svg.fonttype: none``, DejaVu
Sans): a screen reader, a search or a PDF's text layer reads the labels. Each chart carries a
``<title>`` and a ``<desc>`` (``role="img"``).

A chart is drawn once: it is kept in the shared cache under a digest of its data, words and
language (``_kept``), so a page read again, or by another worker, takes it from there.

The same data gives the same bytes: matplotlib's ids come from a fixed salt, the SVG carries
no date nor creator, and every id inside a chart starts with the chart's own prefix, so two
charts on one page never share an id. The ids the tests read:

- ``<prefix>-line``: the rating line, one ``<use>`` marker per point;
- ``<prefix>-bar-<i>``: the i-th bar (from 0);
- ``<prefix>-span-<i>``: the i-th tournament's band, and ``<prefix>-span-label-<i>`` its name
  (when the band is wide enough to hold it).

>>> svg = points_chart(values=[120, 80], labels=["1", "2"], spans=[Span("Open", 0, 2)],
...                    prefix="demo", title="Points", description="Two sessions.")
>>> svg.startswith("<svg") and 'id="demo-bar-1"' in svg and "<title" in svg
True
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import matplotlib
from django.core.cache import cache
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.translation import get_language
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator
from matplotlib.transforms import blended_transform_factory

#: Width and height of a chart, in inches (7 in: the width of an A4 page inside its margins).
SIZE = (7.0, 2.6)
FONT = "DejaVu Sans"
INK = "#15191c"
MUTED = "#5b6770"
ACCENT = "#0b5d7a"
BANDS = ("#eef2f4", "#ffffff")
BARS = ("#0b5d7a", "#6f9fb3")
#: At most this many labels along the x axis; more bars than that are labelled every n-th.
MAX_X_LABELS = 30
#: A tournament's band is named when it holds at least this share of the chart's points.
MIN_LABELLED_SHARE = 0.02

_RC = {
    "svg.fonttype": "none",
    "font.family": FONT,
    "font.size": 8,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
}
#: A chart drawn is kept this long in the shared cache, under a digest of what it shows.
KEPT_SECONDS = 7 * 24 * 3600
#: Part of a kept chart's key: changed with the SVG's markup, so that no chart drawn before
#: is served after. 2: no inline style (the page's and the print's stylesheets size the
#: chart; WeasyPrint gives an inline SVG with a style attribute a square box).
MARKUP_VERSION = 2

#: matplotlib keeps its settings in one global: charts are drawn one at a time.
_DRAWING = threading.Lock()

_ID = re.compile(r'\bid="([^"]+)"')
_REFERENCE = re.compile(r'(xlink:href="#|href="#|url\(#)([^")]+)')


@dataclass(frozen=True)
class Span:
    """A run of points or bars from ``start`` to ``end`` (excluded) that belong to one
    tournament, named ``label`` on the chart."""

    label: str
    start: int
    end: int


def rating_chart(
    *,
    values: Sequence[float],
    spans: Sequence[Span] = (),
    prefix: str = "rating-chart",
    title: str,
    description: str,
    x_label: str = "",
    y_label: str = "",
) -> str:
    """A line of ``values`` (the rating after each rated match), one marker per value, at
    x = 1, 2, ... ; each span a band with its name."""

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        _bands(axes, spans, prefix=prefix, first_x=1)
        xs = list(range(1, len(values) + 1))
        axes.plot(
            xs, list(values), color=ACCENT, linewidth=1.4, marker="o", markersize=3,
            gid=f"{prefix}-line",
        )
        axes.set_xlim(0.5, len(values) + 0.5)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
        low, high = min(values), max(values)
        margin = max((high - low) * 0.1, 1.0)
        axes.set_ylim(low - margin, high + margin)
        _style(axes, x_label=x_label, y_label=y_label, y_format=_decimal(1))

    return _kept(
        "rating", [list(values), spans, prefix, title, description, x_label, y_label],
        lambda: _svg(draw, prefix=prefix, title=title, description=description),
    )


def points_chart(
    *,
    values: Sequence[int],
    labels: Sequence[str],
    spans: Sequence[Span] = (),
    prefix: str = "points-chart",
    title: str,
    description: str,
    x_label: str = "",
    y_label: str = "",
) -> str:
    """A bar per value (a player's total in each session), labelled ``labels`` along the x
    axis; the bars of consecutive spans take turns between two colours."""

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        _bands(axes, spans, prefix=prefix, first_x=0)
        colours = [BARS[0]] * len(values)
        for index, span in enumerate(spans):
            for bar in range(span.start, min(span.end, len(values))):
                colours[bar] = BARS[index % 2]
        xs = list(range(len(values)))
        bars = axes.bar(xs, list(values), color=colours, width=0.7, zorder=2)
        for index, bar in enumerate(bars):
            bar.set_gid(f"{prefix}-bar-{index}")
        axes.set_xlim(-0.5, len(values) - 0.5)
        step = math.ceil(len(values) / MAX_X_LABELS) or 1
        axes.set_xticks(xs[::step], [str(label) for label in labels][::step])
        axes.set_ylim(min(0, *values), max(1, *values) * 1.15)
        _style(axes, x_label=x_label, y_label=y_label, y_format=_decimal(0))

    return _kept(
        "points", [list(values), list(labels), spans, prefix, title, description, x_label,
                   y_label],
        lambda: _svg(draw, prefix=prefix, title=title, description=description),
    )


def _kept(kind: str, shown: list, draw: Callable[[], str]) -> str:
    """The chart that shows ``shown``, drawn once: a chart takes a tenth of a second or more
    to draw, and the same data always gives the same bytes, so it is kept in the shared
    cache under a digest of its data, its words and the language its numbers are written in
    (a new match gives a new digest: nothing is ever stale)."""
    data = json.dumps([kind, get_language(), shown], default=_plain, ensure_ascii=False)
    key = f"chart:{MARKUP_VERSION}:{hashlib.sha256(data.encode()).hexdigest()}"
    svg = cache.get(key)
    if svg is None:
        svg = draw()
        cache.set(key, svg, KEPT_SECONDS)
    return svg


def _plain(value):
    if isinstance(value, Span):
        return [value.label, value.start, value.end]
    raise TypeError(f"not chart data: {value!r}")


def _decimal(places: int) -> FuncFormatter:
    """Tick labels in the language of the request (``1,5`` in French)."""
    return FuncFormatter(lambda value, _position: number_format(value, places))


def _bands(axes, spans: Sequence[Span], *, prefix: str, first_x: int) -> None:
    """Each span a band (alternate shades) around its points (the first at x = ``first_x``),
    its name at the top, written upwards, when the band is wide enough for a line of text
    (``MIN_LABELLED_SHARE`` of the chart): narrower ones would only print over each other."""
    at_top = blended_transform_factory(axes.transData, axes.transAxes)
    points = max((span.end for span in spans), default=0)
    for index, span in enumerate(spans):
        left, right = span.start + first_x - 0.5, span.end + first_x - 0.5
        axes.axvspan(left, right, color=BANDS[index % 2], zorder=0, gid=f"{prefix}-span-{index}")
        if (span.end - span.start) < MIN_LABELLED_SHARE * points:
            continue
        label = axes.text(
            left + 0.1, 0.97, span.label, transform=at_top, rotation=90, va="top", ha="left",
            fontsize=6.5, color=MUTED, clip_on=True, zorder=3, parse_math=False,
            gid=f"{prefix}-span-label-{index}",
        )
        label.set_in_layout(False)  # inside the axes: the layout need not measure it


def _style(axes, *, x_label: str, y_label: str, y_format: FuncFormatter) -> None:
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.yaxis.set_major_formatter(y_format)
    axes.grid(axis="y", color="#d5dbdf", linewidth=0.5, zorder=1)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)


def _svg(draw: Callable[[Figure], None], *, prefix: str, title: str, description: str) -> str:
    """Draw on a new figure and return its SVG, ready to put inline (see the module)."""
    settings = {**_RC, "svg.hashsalt": prefix, "svg.id": prefix}
    output = io.StringIO()
    with _DRAWING, matplotlib.rc_context(settings):
        figure = Figure(figsize=SIZE, layout="constrained")
        draw(figure)
        figure.savefig(
            output, format="svg",
            metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
        )
    svg = output.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = _REFERENCE.sub(
        lambda found: f"{found.group(1)}{_prefixed(found.group(2), prefix)}", svg
    )
    svg = _ID.sub(lambda found: f'id="{_prefixed(found.group(1), prefix)}"', svg)
    opening_end = svg.index(">") + 1
    opening = svg[: opening_end - 1] + (
        f' role="img" aria-labelledby="{prefix}-title {prefix}-desc">'
    )
    accessible = (
        f'<title id="{prefix}-title">{escape(title)}</title>'
        f'<desc id="{prefix}-desc">{escape(description)}</desc>'
    )
    return opening + accessible + svg[opening_end:].strip() + "\n"


def _prefixed(identifier: str, prefix: str) -> str:
    """An id of the chart under its prefix (matplotlib's own ids, like ``axes_1``, too)."""
    return identifier if identifier == prefix or identifier.startswith(f"{prefix}-") else (
        f"{prefix}-{identifier}"
    )
