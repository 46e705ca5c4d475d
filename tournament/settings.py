"""Settings of the Triominos referee tool.

Everything that differs between a laptop and a real event comes from the environment:

- ``TRIOMINOS_PRODUCTION=1``: production mode. DEBUG is off and cannot be turned on,
  ``TRIOMINOS_SECRET_KEY`` and ``TRIOMINOS_ALLOWED_HOSTS`` must be set, static files are
  served hashed and compressed (run ``collectstatic`` first).
- ``TRIOMINOS_DEBUG=0|1``: DEBUG outside production (on by default there).
- ``TRIOMINOS_SECRET_KEY``: the secret key (a fixed development key otherwise).
- ``TRIOMINOS_ALLOWED_HOSTS``: comma-separated host names or addresses, e.g.
  ``192.168.1.10,scores.local`` (``localhost,127.0.0.1,[::1]`` otherwise).
- ``TRIOMINOS_CSRF_TRUSTED_ORIGINS``: comma-separated origins, only needed behind a proxy
  that changes the scheme or port, e.g. ``https://scores.example.org``.
- ``TRIOMINOS_HTTPS=1``: every browser reaches the site through an HTTPS reverse proxy that
  sets ``X-Forwarded-Proto``: Secure cookies, HSTS, HTTP redirected to HTTPS (what
  ``manage.py check --deploy`` asks for; docs/guides/operations.md says when).
- ``DATABASE_URL``: e.g. ``postgres://user:password@127.0.0.1:5432/triominos``
  (SQLite in ``db.sqlite3`` at the project root otherwise).
- ``TRIOMINOS_CACHE_URL``: the shared cache of several app servers, Redis or Valkey, e.g.
  ``redis://127.0.0.1:6379/0`` (Django's ``RedisCache``); the database cache otherwise.
- ``TRIOMINOS_BENCH=0|1``: the benchmarks' app (``bench/``, development only: not in the
  wheel) in ``INSTALLED_APPS``; on by default outside production when it can be imported,
  off in production unless set to 1 (the room benchmark's setup, docs/development/benchmarks.md;
  docs/guides/operations.md lists every setting).
"""

import datetime
import importlib.util
import os
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no setting: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected 1 or 0 (or true/false, yes/no, on/off)")


def env_list(name: str) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


PRODUCTION = env_bool("TRIOMINOS_PRODUCTION", False)
DEBUG = env_bool("TRIOMINOS_DEBUG", not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("TRIOMINOS_DEBUG cannot be on when TRIOMINOS_PRODUCTION is on")

SECRET_KEY = os.environ.get("TRIOMINOS_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("TRIOMINOS_PRODUCTION is on: set TRIOMINOS_SECRET_KEY")
    SECRET_KEY = "development-only-key-never-use-it-for-a-real-event"

ALLOWED_HOSTS = env_list("TRIOMINOS_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "TRIOMINOS_PRODUCTION is on: set TRIOMINOS_ALLOWED_HOSTS (e.g. 192.168.1.10)"
        )
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
CSRF_TRUSTED_ORIGINS = env_list("TRIOMINOS_CSRF_TRUSTED_ORIGINS")

# Behind an HTTPS reverse proxy (docs/guides/operations.md, "Behind an HTTPS proxy"): the proxy says
# the request came over HTTPS (X-Forwarded-Proto, which it must overwrite, and gunicorn must
# listen on 127.0.0.1 only); the cookies travel over HTTPS only; browsers remember for a year
# to use HTTPS (HSTS, this host only); a request over plain HTTP is redirected. Off by default:
# the venue's own network serves the tablets over plain HTTP, where all this would lock them
# out.
HTTPS = env_bool("TRIOMINOS_HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    # Left to the domain's owner, not to the tool: HSTS for every subdomain (W005) would bind
    # the other sites of the club's domain, and the browsers' preload list (W021) cannot be
    # left in a hurry.
    SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]

# The benchmarks (bench/ at the top of a checkout: its management commands) are a development
# app: an installed wheel has no bench package, and production leaves it out unless asked.
BENCH = env_bool("TRIOMINOS_BENCH", not PRODUCTION)
if BENCH and importlib.util.find_spec("bench") is None:
    if os.environ.get("TRIOMINOS_BENCH", "").strip():
        raise ImproperlyConfigured(
            "TRIOMINOS_BENCH is on but there is no bench package: run from a checkout"
        )
    BENCH = False

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "tournament",
    "axes",
    *(["bench"] if BENCH else []),
]

# GZipMiddleware first: it compresses what every other middleware and view wrote (HTML, htmx
# fragments, JSON; PDFs and static files are already compressed). Its answers to BREACH:
# docs/guides/operations.md, "Compressed pages".
MIDDLEWARE = [
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tournament.kit.content_security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Whose login each answer was made for, for the tablet's service worker (a page kept
    # offline is shown only to the login that kept it).
    "tournament.kit.kept_for.KeptForMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with its page.
    "axes.middleware.AxesMiddleware",
]
if BENCH:
    # each answer's CPU time in Server-Timing, for the load benchmark (bench/server_timing.py)
    MIDDLEWARE.insert(0, "bench.server_timing.ServerTimingMiddleware")

# What a page may load and run (tournament/kit/content_security.py): the site's own scripts,
# styles, images (and data: images: the QR codes, the charts), requests (htmx, the matches'
# streams, the tablet's queue) and service worker; no inline script, no eval, no other
# origin, no frame around a page. Style attributes stay allowed (a few templates and
# django-tables2 set one); a <style> element does not (htmx's own is turned off in
# base.html's htmx-config).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Connections kept open by each worker (a new PostgreSQL connection costs some 4 ms a
# request), checked before each request reuses them (a database restarted under load costs
# one reconnection, not an error).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    )
}

# SQLite (the default, and a laptop's event) never answers "database is locked" to two
# referees saving at once: the journal written ahead (WAL: readers never wait for the
# writer), a write waits its turn up to 20 s rather than failing, and every transaction takes
# the write lock when it begins (IMMEDIATE): a transaction that read first and then wants to
# write cannot be refused halfway (bench/sqlite_writers.py measures it).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# Under ASGI (tournament/asgi.py) each request runs on a thread made for it, which cannot keep
# a connection for the next: PostgreSQL's connections come from a pool of the worker (up to
# 16, checked before each use), SQLite's are opened for each request (they cost little).
ASGI = os.environ.get("TRIOMINOS_ASGI") == "1"
if ASGI:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 2, "max_size": 16}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}

# The public pages and the PDFs kept once made (tournament/kit/cache.py), the wrong tries
# counted (tournament/kit/attempts.py) and the streams held per address
# (tournament/matches/stream/door.py) live in the shared cache: every gunicorn worker, and a
# second app server, share them. By default it is the database (nothing else needs to run at
# the venue; the table is made by the migrations, 0005_cache_table); with
# TRIOMINOS_CACHE_URL (redis://host:6379/0, or rediss:// over TLS) it is Redis or Valkey,
# Django's own backend, for several app servers on one database (docs/guides/operations.md,
# "A federation's server").
CACHE_URL = os.environ.get("TRIOMINOS_CACHE_URL", "").strip()
DATABASE_CACHE = {
    "BACKEND": "tournament.kit.db_cache.DatabaseCache",
    "LOCATION": "tournament_cache",
    "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 4},
}
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        "TRIOMINOS_CACHE_URL: a redis://, rediss:// or unix:// address, e.g. redis://127.0.0.1:6379/0")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL else DATABASE_CACHE
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Logging in: after 5 wrong passwords for one username from one address (the admin's login
# too), that username is locked out from that address for 15 minutes (django-axes), with a
# page in the user's language; an organiser lifts it on the tournament's Staff page, a
# superuser in the admin (Axes > Access attempts).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournament.home.views.login_locked_out"
AXES_USERNAME_CALLABLE = "tournament.home.views.login_attempt_username"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Errors (a 500's traceback, a refused Host header) go to standard error, which gunicorn keeps
# in its log. Django's own logging prints them only with DEBUG on, and otherwise mails them to
# ADMINS, of which there are none: at a real event they would be lost.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
        "startup": {"class": "logging.StreamHandler", "level": "INFO"},
    },
    "root": {"handlers": ["stderr"], "level": "ERROR"},
    # what a worker may serve, said once at its start (tournament/asgi.py: its descriptors)
    "loggers": {"tournament.startup": {"handlers": ["startup"], "level": "INFO",
                                       "propagate": False}},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:my_tables"
LOGOUT_REDIRECT_URL = "tournament:home"

# Languages: French by default, English; chosen from the browser (Accept-Language) or the
# switcher in the header. The compiled catalogues (locale/*/LC_MESSAGES/django.mo) are committed.
LANGUAGE_CODE = "fr"
#: Times as French writes them ("15 h 55"): tournament/kit/locale_formats/fr/formats.py.
FORMAT_MODULE_PATH = ["tournament.kit.locale_formats"]
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TRIOMINOS_TIME_ZONE", "Europe/Paris")
USE_TZ = True

# Static files: our own CSS and django-htmx's bundled script, served by whitenoise.
# No CDN: the tool runs on a venue laptop without internet.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Outside production, whitenoise serves the files straight from the apps (no collectstatic
# needed), and the not-yet-collected STATIC_ROOT is expected to be missing.
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles", category=UserWarning)

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"
