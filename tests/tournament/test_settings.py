"""Settings come from the environment, with a safe development default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tests.conftest import STAFF_PASSWORD

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'debug': settings.DEBUG, 'hosts': settings.ALLOWED_HOSTS, "
    "'engine': settings.DATABASES['default']['ENGINE'], "
    "'storage': settings.STORAGES['staticfiles']['BACKEND']}))"
)


def load_settings(probe: str = PROBE, **environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("TRIOMINOS_") and key != "DATABASE_URL"}
    env.update(environment, DJANGO_SETTINGS_MODULE="tournament.settings")
    return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                          cwd=Path(settings.BASE_DIR), timeout=60)


def test_development_defaults():
    result = load_settings()
    values = json.loads(result.stdout)
    assert values["debug"] is True
    assert values["hosts"] == ["localhost", "127.0.0.1", "[::1]"]
    assert values["engine"] == "django.db.backends.sqlite3"


def test_production_needs_a_secret_key_and_hosts():
    result = load_settings(TRIOMINOS_PRODUCTION="1")
    assert result.returncode != 0 and "set TRIOMINOS_SECRET_KEY" in result.stderr
    result = load_settings(TRIOMINOS_PRODUCTION="1", TRIOMINOS_SECRET_KEY="x" * 50)
    assert result.returncode != 0 and "set TRIOMINOS_ALLOWED_HOSTS" in result.stderr


def test_production():
    result = load_settings(
        TRIOMINOS_PRODUCTION="yes",
        TRIOMINOS_SECRET_KEY="x" * 50,
        TRIOMINOS_ALLOWED_HOSTS="192.168.1.10, scores.local",
        DATABASE_URL="postgres://triominos:secret@127.0.0.1:5432/triominos",
    )
    values = json.loads(result.stdout)
    assert values["debug"] is False
    assert values["hosts"] == ["192.168.1.10", "scores.local"]
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_debug_cannot_be_forced_on_in_production_and_bad_values_are_named():
    result = load_settings(TRIOMINOS_PRODUCTION="1", TRIOMINOS_DEBUG="1")
    assert result.returncode != 0 and "TRIOMINOS_DEBUG cannot be on" in result.stderr
    result = load_settings(TRIOMINOS_DEBUG="maybe")
    assert result.returncode != 0 and "TRIOMINOS_DEBUG='maybe'" in result.stderr


CACHE_PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "from django.core.cache import caches; "
    "print(json.dumps({'backend': settings.CACHES['default']['BACKEND'], "
    "'location': settings.CACHES['default']['LOCATION'], 'class': type(caches['default']).__name__}))"
)


def test_the_shared_cache_is_the_database_unless_a_redis_is_named():
    values = json.loads(load_settings(CACHE_PROBE).stdout)
    assert values["backend"] == "tournament.kit.db_cache.DatabaseCache"
    values = json.loads(load_settings(
        CACHE_PROBE, TRIOMINOS_CACHE_URL="redis://10.0.0.5:6379/2").stdout)
    assert values == {"backend": "django.core.cache.backends.redis.RedisCache",
                      "location": "redis://10.0.0.5:6379/2", "class": "RedisCache"}
    refused = load_settings(CACHE_PROBE, TRIOMINOS_CACHE_URL="memcached://10.0.0.5:11211")
    assert refused.returncode != 0 and "TRIOMINOS_CACHE_URL" in refused.stderr


# A view that fails, as Django's request handler answers it: the 500 page, and the error logged.
FAILING_VIEW = (
    "import django; django.setup(); "
    "from django.core.handlers.exception import response_for_exception; "
    "from django.test import RequestFactory\n"
    "try:\n    raise RuntimeError('the view failed')\n"
    "except RuntimeError as error:\n"
    "    print(response_for_exception(RequestFactory().get('/t/demo/'), error).status_code)"
)


@pytest.mark.slow  # a server in a subprocess
@pytest.mark.parametrize("environment", [
    {"TRIOMINOS_DEBUG": "0"},
    {"TRIOMINOS_PRODUCTION": "1", "TRIOMINOS_SECRET_KEY": "x" * 50,
     "TRIOMINOS_ALLOWED_HOSTS": "192.168.1.10"},
])
def test_with_debug_off_a_servers_error_is_logged_on_standard_error(environment):
    """The 500 page says the error was logged: gunicorn's log must hold its traceback once."""
    result = load_settings(FAILING_VIEW, **environment)
    assert result.stdout.strip() == "500", result.stderr
    assert result.stderr.count("Traceback") == 1, result.stderr
    assert "RuntimeError: the view failed" in result.stderr
    assert "Internal Server Error: /t/demo/" in result.stderr


BENCH_PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps(['bench' in settings.INSTALLED_APPS, "
    "'bench.server_timing.ServerTimingMiddleware' in settings.MIDDLEWARE]))"
)
# As an installed wheel, which has no bench package.
NO_BENCH_PROBE = "import sys; sys.modules['bench'] = None; " + BENCH_PROBE
PRODUCTION = {"TRIOMINOS_PRODUCTION": "1", "TRIOMINOS_SECRET_KEY": "x" * 50,
              "TRIOMINOS_ALLOWED_HOSTS": "192.168.1.10"}


@pytest.mark.parametrize("probe, environment, installed", [
    (BENCH_PROBE, {}, True),
    (BENCH_PROBE, {"TRIOMINOS_BENCH": "0"}, False),
    (BENCH_PROBE, PRODUCTION, False),
    (BENCH_PROBE, {**PRODUCTION, "TRIOMINOS_BENCH": "1"}, True),
    (NO_BENCH_PROBE, {}, False),
    (NO_BENCH_PROBE, PRODUCTION, False),
], ids=["development", "development, off", "production", "production, asked for",
        "no bench package", "no bench package, production"])
def test_the_benchmarks_app_is_installed_for_development_only(probe, environment, installed):
    result = load_settings(probe, **environment)
    assert result.returncode == 0, result.stderr
    # the answers' CPU time (Server-Timing) comes with the app, and only with it
    assert json.loads(result.stdout) == [installed, installed]


ASGI_PROBE = ("import json, tournament.asgi; from django.conf import settings; "
              "print(json.dumps(settings.DATABASES['default'], default=str))")


def test_under_asgi_postgresql_connections_come_from_a_checked_pool():
    """Django's ASGI handler (tournament/asgi.py; the README's tournament/serving.py sets the
    same) runs each request on a thread made for it:
    its connections come from a pool, checked before each use, not kept by the thread."""
    result = load_settings(ASGI_PROBE,
                           DATABASE_URL="postgres://someone@127.0.0.1:5432/some_event")
    assert result.returncode == 0, result.stderr
    database = json.loads(result.stdout.strip().splitlines()[-1])
    assert database["CONN_MAX_AGE"] == 0 and database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"]["pool"]["max_size"] >= 8


def test_asking_for_the_benchmarks_without_their_package_is_refused():
    result = load_settings(NO_BENCH_PROBE, TRIOMINOS_BENCH="1")
    assert result.returncode != 0 and "there is no bench package" in result.stderr


DEPLOY_CHECK = (
    # The browser tests' Playwright allows async-unsafe calls in this process's environment:
    # not a setting of the server's, and check --deploy would report it.
    "import os; os.environ.pop('DJANGO_ALLOW_ASYNC_UNSAFE', None)\n"
    "import sys, django; django.setup(); from django.core.management import call_command\n"
    "try:\n    call_command('check', deploy=True, fail_level='WARNING')\n"
    "except SystemExit as error:\n    sys.exit(1)\n"
    "except Exception as error:\n    print(error, file=sys.stderr); sys.exit(1)\n"
)
PRODUCTION_ENVIRONMENT = {
    "TRIOMINOS_PRODUCTION": "1", "TRIOMINOS_ALLOWED_HOSTS": "scores.example.org",
    "TRIOMINOS_SECRET_KEY": "k4Jz-secret-of-the-event-" + "q8W2" * 10,
}


def test_behind_an_https_proxy_one_setting_answers_every_deploy_check():
    plain = load_settings(DEPLOY_CHECK, **PRODUCTION_ENVIRONMENT)
    assert plain.returncode != 0
    for check in ("W004", "W008", "W012", "W016"):
        assert f"security.{check}" in plain.stderr
    https = load_settings(DEPLOY_CHECK, TRIOMINOS_HTTPS="1", **PRODUCTION_ENVIRONMENT)
    assert https.returncode == 0, https.stderr


@pytest.mark.django_db
def test_behind_an_https_proxy_http_is_redirected_and_cookies_are_secure(make_user):
    https = {
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
        "SECURE_SSL_REDIRECT": True, "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True, "SECURE_HSTS_SECONDS": 365 * 24 * 3600,
    }
    probe = ("import json, django; from django.conf import settings; django.setup(); "
             f"print(json.dumps({{name: getattr(settings, name, None) for name in {list(https)!r}}}))")
    values = json.loads(load_settings(probe, TRIOMINOS_HTTPS="1").stdout)
    assert values == {name: list(value) if isinstance(value, tuple) else value
                      for name, value in https.items()}
    make_user("lea-https")
    with override_settings(**https):
        client = Client()
        redirected = client.get("/login/")
        assert redirected.status_code == 301
        assert redirected["Location"].startswith("https://")
        page = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
        assert page.status_code == 200
        assert "max-age=31536000" in page["Strict-Transport-Security"]
        logged_in = client.post("/login/", {"username": "lea-https", "password": STAFF_PASSWORD},
                                HTTP_X_FORWARDED_PROTO="https")
        assert logged_in.status_code == 302
        assert logged_in.cookies["sessionid"]["secure"]
