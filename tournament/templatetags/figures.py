"""Figures as a reader writes them: ``{{ value|figure }}`` (one decimal, half away from zero)
and ``{{ change|signed_figure }}`` ("+1.3", "-0.4", "0.0"): ``tournament.kit.formats.figure``."""

from __future__ import annotations

from django import template

from tournament.kit.formats import figure

register = template.Library()


@register.filter("figure")
def figure_filter(value) -> str:
    return "" if value is None or value == "" else figure(float(value))


@register.filter("signed_figure")
def signed_figure_filter(value) -> str:
    return "" if value is None or value == "" else figure(float(value), signed=True)
