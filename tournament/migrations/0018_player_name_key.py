"""A player's name as a search compares it (``tournament.names.search_key``: accents, case and
ligatures aside), stored and indexed so that the likely same person of an import is found by
the database on SQLite as on PostgreSQL (SQLite's ``lower()`` folds ASCII letters only). Filled
here for the records that exist; ``Player.save()`` and ``bulk_create()`` keep it."""

from django.db import migrations, models

from tournament.names import search_key


def fill(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    players = list(Player.objects.only("id", "name"))
    for player in players:
        player.name_search_key = search_key(player.name)
    Player.objects.bulk_update(players, ["name_search_key"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0017_final_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_search_key",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name_search_key"], name="player_name_search_key"),
        ),
    ]
