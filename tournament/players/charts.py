"""A career's two charts (``tournament.kit.charts``): the rating after each rated match, and the
points of each session, with each tournament's stretch shaded and named."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.kit import charts
from tournament.kit.formats import figure


def career_charts(career: dict) -> dict[str, str]:
    """The career's two charts as inline SVG (``rating_chart``, ``points_chart``); '' for a
    chart without data."""
    name = career["player"].name
    history = career["rating_history"]
    points = career["session_points"]
    rating_svg = points_svg = ""
    if history:
        values = [rating for rating, _tournament in history]
        rating_svg = charts.rating_chart(
            values=values,
            spans=_spans([tournament for _rating, tournament in history]),
            prefix="rating-chart",
            title=_("Rating of %(name)s over time") % {"name": name},
            description=ngettext(
                "The rating of %(name)s after their rated match: %(last)s.",
                "The rating of %(name)s after each of their %(count)s rated matches, "
                "from %(first)s to %(last)s, tournament by tournament.",
                len(values),
            ) % {
                "name": name, "count": len(values),
                "first": figure(values[0]),
                "last": figure(values[-1]),
            },
            x_label=_("Rated matches, in order"),
            y_label=_("Rating"),
        )
    if points:
        values = [total for _tournament, _session, total in points]
        points_svg = charts.points_chart(
            values=values,
            labels=[str(session) for _tournament, session, _total in points],
            spans=_spans([tournament for tournament, _session, _total in points]),
            prefix="points-chart",
            title=_("Points of %(name)s per session") % {"name": name},
            description=ngettext(
                "The points of %(name)s in their confirmed match: %(best)s.",
                "The points of %(name)s in each of their %(count)s confirmed matches, session "
                "by session, tournament by tournament; best match: %(best)s points.",
                len(values),
            ) % {"name": name, "count": len(values), "best": max(values)},
            x_label=_("Sessions"),
            y_label=_("Points"),
        )
    return {"rating_chart": rating_svg, "points_chart": points_svg}


def _spans(tournaments: list) -> list[charts.Span]:
    """The runs of consecutive points of one tournament."""
    spans: list[charts.Span] = []
    for index, tournament in enumerate(tournaments):
        if spans and index == spans[-1].end and tournaments[spans[-1].start] == tournament:
            spans[-1] = charts.Span(spans[-1].label, spans[-1].start, index + 1)
        else:
            spans.append(charts.Span(tournament.name, index, index + 1))
    return spans
