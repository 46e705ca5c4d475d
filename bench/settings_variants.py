"""The server's settings with the cache and the database connections changed, to measure them
under the room (docs/development/benchmarks.md, "The server set up for it"):

    DJANGO_SETTINGS_MODULE=bench.settings_variants BENCH_CACHE=file gunicorn tournament.wsgi ...

- ``BENCH_CACHE``: ``database`` (the settings' own: the database cache of
  ``tournament/kit/db_cache.py``), ``django-database`` (Django's own ``DatabaseCache``, whose
  every write counts the table), ``file``
  (Django's ``FileBasedCache`` in ``BENCH_CACHE_DIR``, a folder of the temporary directory by
  default), ``redis`` (Django's ``RedisCache`` at ``redis://127.0.0.1:6379``: needs a Redis
  server and the ``redis`` package, which the project does not install).
- ``BENCH_CONN_MAX_AGE``: seconds a worker keeps its database connection (the settings: 600);
  0 opens one for each request.
"""

import os
import tempfile
from pathlib import Path

from tournament.settings import *  # noqa: F403
from tournament.settings import CACHES, DATABASES

_cache = os.environ.get("BENCH_CACHE", "database")
_options = CACHES["default"].get("OPTIONS", {})
if _cache == "file":
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("BENCH_CACHE_DIR")
        or str(Path(tempfile.gettempdir()) / "triominos-bench-cache"),
        "OPTIONS": _options,
    }}
elif _cache == "django-database":
    CACHES = {"default": {**CACHES["default"],
                          "BACKEND": "django.core.cache.backends.db.DatabaseCache"}}
elif _cache == "redis":
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379",
    }}
elif _cache != "database":
    raise ValueError(f"BENCH_CACHE={_cache!r}: database, django-database, file or redis")

if os.environ.get("BENCH_CONN_MAX_AGE", "").strip():
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ["BENCH_CONN_MAX_AGE"])
