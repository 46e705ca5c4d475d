"""The table of Django's database cache (settings.CACHES): the pages and PDFs kept once made.

Made here, so that ``migrate`` (and ``manage.py demo``) is all a new database needs; the same
as ``manage.py createcachetable``, which skips a table that exists.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    from django.conf import settings

    for cache in settings.CACHES.values():
        if cache["BACKEND"].endswith("DatabaseCache"):
            schema_editor.execute(
                "DROP TABLE IF EXISTS %s" % schema_editor.quote_name(cache["LOCATION"])
            )


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0004_match_options'),
    ]

    operations = [
        migrations.RunPython(create_cache_table, drop_cache_table),
    ]
