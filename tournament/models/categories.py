"""A tournament's categories (women, juniors, a club's best...: the organiser's own list) and
the players who carry them; each category has its standings, derived from the main ranking
(docs/guides/categories.md)."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournament.models.players import Registration
from tournament.models.tournaments import Tournament


class Category(models.Model):
    """A category of one tournament. Its players are registrations of that tournament (the
    services hold it); a player may carry several categories. Names are unique in a
    tournament whatever their case ("Juniors" and "juniors" are one category)."""

    #: How long a name may be, and how many categories a tournament may have.
    NAME_MAX_LENGTH = 40
    MAX_PER_TOURNAMENT = 30

    tournament = models.ForeignKey(
        Tournament, models.CASCADE, related_name="categories", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    registrations = models.ManyToManyField(
        Registration, related_name="categories", blank=True, verbose_name=_("players")
    )

    class Meta:
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        ordering = ["tournament", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                "tournament", Lower("name"), name="category_name_once_per_tournament"
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="category_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name
