"""One prize per player on the prize list (docs/guides/categories.md): a tournament setting, off for
every tournament that exists, as it was before the setting."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0018_player_name_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="prize_one_per_player",
            field=models.BooleanField(
                default=False,
                help_text="A player who takes a prize higher on the list (overall first, then "
                          "the categories by name) is left out of the next categories' prizes.",
                verbose_name="prize list: one prize per player",
            ),
        ),
    ]
