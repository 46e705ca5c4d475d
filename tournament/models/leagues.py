"""A league: tournaments ranked together under one points rule."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    """A season: tournaments grouped so that their final ranks add up to one ranking.

    Each tournament's final rank gives the player points (``points_scale``); a player's
    ranking points are the sum of their best ``best_results`` results (all of them when
    empty). See docs/guides/leagues.md."""

    class PointsScale(models.TextChoices):
        LINEAR = "linear", _("one point per player ranked below, plus one")
        TABLE = "table", _("a table of points per rank")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("address"), unique=True, help_text=_("Used in the league's addresses: /leagues/<address>/.")
    )
    description = models.TextField(_("description"), blank=True)
    points_scale = models.CharField(
        _("points per final rank"),
        max_length=8,
        choices=PointsScale.choices,
        default=PointsScale.LINEAR,
    )
    points_table = models.CharField(
        _("points table"),
        max_length=200,
        blank=True,
        help_text=_("With a table of points: the points of rank 1, 2, 3… separated by commas "
                    "(\"25, 18, 15, 12\"); the ranks after the last get none."),
    )
    best_results = models.PositiveSmallIntegerField(
        _("best results counted"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Only each player's best N tournaments count; empty: all of them."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="leagues",
        verbose_name=_("organisers"),
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(best_results__isnull=True) | Q(best_results__gte=1),
                name="league_best_results_positive",
            ),
            models.CheckConstraint(
                condition=~Q(points_scale="table") | ~Q(points_table=""),
                name="league_points_table_given",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:league", kwargs={"slug": self.slug})
