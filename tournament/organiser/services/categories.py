"""The players' categories (docs/guides/categories.md): given from the players' CSV file, when a
player is added, or on a player's page. A category is made the first time a player carries
it, found again whatever the case of its name, and deleted once no player carries it.

Every write runs in the caller's ``transaction.atomic()`` (the registrations' services) with
the tournament's row locked, so that two tabs naming one new category make it once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.models import Category, Registration, Tournament
from tournament.organiser.players_csv import category_names_problem


def _categories_for(*, tournament: Tournament, names: set[str]) -> dict[str, Category]:
    """The tournament's categories by their names' casefold, those of ``names`` made if
    missing; refused (``categories-too-many``) past ``Category.MAX_PER_TOURNAMENT``."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
    categories = {category.name.casefold(): category
                  for category in Category.objects.filter(tournament=tournament)}
    missing: dict[str, str] = {}
    for name in sorted(names):
        if name.casefold() not in categories:
            missing.setdefault(name.casefold(), name)
    if missing and len(categories) + len(missing) > Category.MAX_PER_TOURNAMENT:
        raise ValidationError({"categories": ValidationError(
            _("A tournament has at most %(max)s categories.")
            % {"max": Category.MAX_PER_TOURNAMENT}, code="categories-too-many")})
    made = Category.objects.bulk_create(
        Category(tournament=tournament, name=name) for name in missing.values())
    categories.update((category.name.casefold(), category) for category in made)
    return categories


def registrations_categorise(
    *, tournament: Tournament, categories: Mapping[int, Sequence[str]]
) -> None:
    """Give each registration (by id, of ``tournament``) exactly the categories named (an
    empty list takes them all away); the categories left without a player are deleted.

    Refused (``ValidationError`` keyed ``categories``): a registration of another tournament
    (``registration-elsewhere``), a name too long (``category-too-long``), more categories
    than ``Category.MAX_PER_TOURNAMENT`` (``categories-too-many``)."""
    with tournament_write(tournament_id=tournament.pk):
        if not categories:
            return
        ids = set(categories)
        if Registration.objects.filter(pk__in=ids).exclude(tournament=tournament).exists():
            raise ValidationError({"categories": ValidationError(
                _("This player is not registered in this tournament."),
                code="registration-elsewhere")})
        names = {name for chosen in categories.values() for name in chosen}
        if problem := category_names_problem(sorted(names)):
            raise ValidationError({"categories": ValidationError(
                problem.message[:1].upper() + problem.message[1:], code=problem.code)})
        by_key = _categories_for(tournament=tournament, names=names)
        through = Category.registrations.through
        through.objects.filter(registration_id__in=ids).delete()
        through.objects.bulk_create(
            through(category_id=by_key[name.casefold()].pk, registration_id=registration_id)
            for registration_id, chosen in categories.items()
            for name in {name.casefold(): name for name in chosen}.values()
        )
        Category.objects.filter(tournament=tournament, registrations__isnull=True).delete()

