"""The rating shown, kept per match: the changes of μ − 3σ, none against the result at the
table (``tournament.ratings.model.shown_change``). Existing rows are filled from the history
as it stands, in its order; ``python manage.py ratings_rebuild`` gives the same figures."""

from django.db import migrations, models

CONSERVATIVE_SIGMAS = 3  # as tournament/ratings/model.py, frozen here


def _change(mu_before, sigma_before, mu, sigma, rank, worst):
    change = (mu - CONSERVATIVE_SIGMAS * sigma) - (mu_before - CONSERVATIVE_SIGMAS * sigma_before)
    if rank == 1:
        return max(change, 0.0)
    if rank == worst:
        return min(change, 0.0) + 0.0
    return change


def fill(apps, schema_editor):
    RatingChange = apps.get_model("tournament", "RatingChange")
    PlayerRating = apps.get_model("tournament", "PlayerRating")
    worst = {}
    for match_id, rank in RatingChange.objects.values_list("match_id", "rank"):
        worst[match_id] = max(rank, worst.get(match_id, 0))
    shown = {}
    first = {}  # (player, tournament): the rating shown before the player's first change there
    last = {}  # player: the tournament of their last change
    updated = []
    for change in RatingChange.objects.order_by("at", "match_id", "player_id"):
        before = shown.get(change.player_id, 0.0)
        after = before + _change(change.mu_before, change.sigma_before, change.mu, change.sigma,
                                 change.rank, worst[change.match_id])
        change.shown_before, change.shown = before, after
        shown[change.player_id] = after
        first.setdefault((change.player_id, change.tournament_id), before)
        last[change.player_id] = change.tournament_id
        updated.append(change)
    RatingChange.objects.bulk_update(updated, ["shown_before", "shown"], batch_size=2000)
    ratings = list(PlayerRating.objects.filter(player_id__in=list(shown)))
    for rating in ratings:
        rating.conservative = shown[rating.player_id]
        start = first[(rating.player_id, last[rating.player_id])]
        rating.last_event_change = shown[rating.player_id] - start
    PlayerRating.objects.bulk_update(ratings, ["conservative", "last_event_change"],
                                     batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_room")]

    operations = [
        migrations.AddField(
            model_name="ratingchange", name="shown_before",
            field=models.FloatField(default=0.0, verbose_name="rating before"),
        ),
        migrations.AddField(
            model_name="ratingchange", name="shown",
            field=models.FloatField(
                default=0.0,
                help_text="The rating shown after the match: never lower after a win, never "
                          "higher after finishing last (docs/guides/ratings.md).",
                verbose_name="rating"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
