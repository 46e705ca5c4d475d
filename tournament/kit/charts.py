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
  above the plot (shortened to the band's width, left out when the band is too narrow);
- ``<prefix>-plot``: the plot's area, which the names stay clear of.

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
from matplotlib.transforms import blended_transform_factory, offset_copy

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
#: A tournament's name above its band: its size (points), the room kept either side of it
#: (points), and the fewest characters shown of a name too long for its band (else none).
NAME_SIZE = 7
NAME_PADDING = 3
MIN_NAME_CHARACTERS = 4

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
#: chart; WeasyPrint gives an inline SVG with a style attribute a square box). 3: the
#: tournaments' names above the plot, no longer written upwards over the line.
MARKUP_VERSION = 3

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
        _style(axes, prefix=prefix, x_label=x_label, y_label=y_label, y_format=_decimal(1))
        _fit_names(figure, axes, spans, first_x=1)

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
        _style(axes, prefix=prefix, x_label=x_label, y_label=y_label, y_format=_decimal(0))
        _fit_names(figure, axes, spans, first_x=0)

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
    its name above the plot, clear of the line and the bars (:func:`_fit_names` shortens it
    to its band's width)."""
    above = offset_copy(blended_transform_factory(axes.transData, axes.transAxes),
                        fig=axes.figure, y=2, units="points")
    for index, span in enumerate(spans):
        left, right = span.start + first_x - 0.5, span.end + first_x - 0.5
        axes.axvspan(left, right, color=BANDS[index % 2], zorder=0, gid=f"{prefix}-span-{index}")
        axes.text(
            (left + right) / 2, 1.0, span.label, transform=above, va="bottom", ha="center",
            fontsize=NAME_SIZE, color=MUTED, clip_on=False, zorder=3, parse_math=False,
            gid=f"{prefix}-span-label-{index}",
        )


def _fit_names(figure: Figure, axes, spans: Sequence[Span], *, first_x: int) -> None:
    """Each band's name shortened ("Championnat de…") to the band's width, and left out
    where not even its first ``MIN_NAME_CHARACTERS`` fit: names side by side above the plot,
    never over each other, at any width the chart is shown (it scales as a whole)."""
    figure.draw_without_rendering()  # the layout: where the plot and the bands are
    renderer = figure._get_renderer()
    names = [text for text in axes.texts if text.get_gid() and "-span-label-" in text.get_gid()]
    for span, text in zip(spans, names, strict=True):
        (x_left, _), (x_right, _) = axes.transData.transform(
            [(span.start + first_x - 0.5, 0), (span.end + first_x - 0.5, 0)])
        shown = _fitted(text, span.label, (x_right - x_left) - 2 * NAME_PADDING * figure.dpi / 72,
                        renderer)
        if shown is None:
            text.remove()
        else:
            text.set_text(shown)


def _fitted(text, name: str, room: float, renderer) -> str | None:
    """``name``, or its longest shortened form, whose ``text`` is at most ``room`` wide
    (display units); None when not even ``MIN_NAME_CHARACTERS`` of it fit."""

    def width(shown: str) -> float:
        text.set_text(shown)
        return text.get_window_extent(renderer).width

    if width(name) <= room:
        return name
    shortest, longest = MIN_NAME_CHARACTERS, len(name) - 1  # characters kept
    if shortest > longest or width(_shortened(name, shortest)) > room:
        return None
    while shortest < longest:  # the most characters whose shortened name fits
        middle = (shortest + longest + 1) // 2
        if width(_shortened(name, middle)) <= room:
            shortest = middle
        else:
            longest = middle - 1
    return _shortened(name, shortest)


def _shortened(name: str, characters: int) -> str:
    return name[:characters].rstrip(" -–—,.’'") + "…"


def _style(axes, *, prefix: str, x_label: str, y_label: str, y_format: FuncFormatter) -> None:
    axes.patch.set_gid(f"{prefix}-plot")
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
