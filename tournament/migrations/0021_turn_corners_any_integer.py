"""A turn's corners hold any integer a match record may give (±1,000,000,000, three of them
and their dashes: 35 characters), so that a record whose corner shows no tile (-1, 6, 12) is
kept and flagged as ``python -m scoring check`` flags it, not refused by the upload alone."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0019_prize_one_per_player"),
    ]

    operations = [
        migrations.AlterField(
            model_name="turn",
            name="corners",
            field=models.CharField(
                blank=True, help_text="Values clockwise from the apex, e.g. 2-0-1.",
                max_length=35, verbose_name="corners",
            ),
        ),
    ]
