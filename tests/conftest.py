"""Shared fixtures: users with roles and a small seated tournament, built through the services.

- ``staff_password``: the password of the accounts below.
- ``make_user(username, password=STAFF_PASSWORD)``: an account.
- ``make_tournament(slug=..., players=8, sessions=1, table_size=4, is_public=True,
  started=False, **settings)``: a tournament with registered players (clubs "Club A", "Club
  B", "Club C"), and ``sessions`` sessions seated at tables of ``table_size`` (a smaller last
  table), started when asked (``tests/factories.py`` builds them; ``settings``: the other
  arguments of ``tournament_create``, such as ``match_rounds``).
- ``tournament``: ``make_tournament()`` — 8 players, session 1 seated at 2 tables of 4.
- ``grant_organiser(user, *tournaments)``: makes ``user`` an organiser of each; returns it.
- ``organiser``, ``referee``, ``referee_of_table_2`` (a referee limited to table 2),
  ``outsider`` (an account without a role): users of ``tournament``, password STAFF_PASSWORD.
- ``organiser_client``, ``referee_client``: Django test clients logged in as them.
- ``in_english``: the test runs with English active (for a service's message read outside a
  request); a module asks for it with ``pytest.mark.usefixtures("in_english")``.
- ``BOTH_CACHES``: a module's mark that runs each of its tests twice, on the database cache
  (the laptop's) and on Redis (``TRIOMINOS_CACHE_URL``: several app servers'), through the
  ``cache_backend`` fixture. Redis is the one at ``TRIOMINOS_TEST_REDIS_URL``
  (``redis://127.0.0.1:6379/0`` by default; keys under a prefix of the test process, removed
  after each test). Without a Redis answering there, the Redis runs are skipped with the
  reason, and fail under ``CI`` (.ci/run starts one).

Hypothesis runs under one of two profiles, registered here: ``ci``, thorough (each test's own
number of examples, ``tests/examples.py``), and ``dev``, quick (a tenth of it).
``HYPOTHESIS_PROFILE=ci|dev`` chooses; without it, ``ci`` when ``CI`` is set (as CI runs the
suite), else ``dev``. pytest's header names the profile loaded.

Every test under ``tests/browser/`` is marked ``browser`` (``pytest_collection_modifyitems``
below), so that ``-m "not slow and not browser"`` is the quick inner loop
(docs/development/contributing.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.utils import translation
from hypothesis import settings

from tests.factories import players_of, seated_session, tournament_with_players
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffRole

STAFF_PASSWORD = "tiles-and-hexagons-9"

# The profiles' max_examples is the scale tests/examples.py applies to each test's thorough
# count: 100 (per cent) keeps it, 10 takes a tenth. No deadline: a shared machine's timing
# must not fail an example.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI") else "dev"
)
settings.load_profile(HYPOTHESIS_PROFILE)


def pytest_report_header(config):
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (HYPOTHESIS_PROFILE=ci|dev)"

BROWSER_TESTS = Path(__file__).parent / "browser"

TEST_REDIS_URL = os.environ.get("TRIOMINOS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_unanswered(url: str = TEST_REDIS_URL) -> str | None:
    """Why the Redis at ``url`` cannot serve the tests, or None when it answers."""
    import redis

    try:
        redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError) as error:
        return f"no Redis answering at {url} ({error}): install and start redis-server"
    return None


def redis_needed(url: str = TEST_REDIS_URL) -> None:
    """Skip the test when no Redis answers at ``url``; fail it under CI, which starts one."""
    reason = redis_unanswered(url)
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI starts it: .ci/run)")
        pytest.skip(reason)


def redis_cache_settings(url: str = TEST_REDIS_URL, *, prefix: str) -> dict:
    """``settings.CACHES`` as ``TRIOMINOS_CACHE_URL=url`` makes it, the keys under ``prefix``."""
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": url, "KEY_PREFIX": prefix}}


def redis_forget(prefix: str, url: str = TEST_REDIS_URL) -> None:
    """Every key under ``prefix`` removed (not the others': Redis may serve other runs)."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


BOTH_CACHES = [pytest.mark.usefixtures("cache_backend"),
               pytest.mark.parametrize("cache_backend", ["database", "redis"], indirect=True)]


@pytest.fixture
def cache_backend(request):
    """The shared cache the test runs on: the database's (the settings'), or Redis."""
    if request.param == "database":
        yield "database"
        return
    redis_needed()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"tests-{os.getpid()}-{worker}"
    redis_forget(prefix)
    with override_settings(CACHES=redis_cache_settings(prefix=prefix)):
        yield "redis"
    redis_forget(prefix)


def pytest_runtest_setup(item):
    """No replay kept by a test (``tournament.matches.reading.replay_cache``, once its writes are
    committed: the browser tests'), no player's row of the standings
    (``tournament.standings.selectors``) and no page kept in the process
    (``tournament.kit.cached_pages``) is served to the next, whose database may reuse its
    ids."""
    kept = sys.modules.get("tournament.matches.reading.replay_cache")
    if kept is not None:
        kept.forget_replays()
    rankings = sys.modules.get("tournament.standings.selectors")
    if rankings is not None:
        rankings.forget_rankings()
    pages = sys.modules.get("tournament.kit.cached_pages")
    if pages is not None:
        pages.forget_kept_pages()


def pytest_addoption(parser):
    parser.addoption(
        "--db-only", action="store_true",
        help="run only the tests that use the database (pytest-django's db, transactional_db, "
             "live_server or the django_db mark): a second database's pass, as .ci/run makes "
             "on PostgreSQL, skips the engine's and the linters' tests already run")


def uses_the_database(item) -> bool:
    """A test reaches the database through pytest-django's helper, which ``db``,
    ``transactional_db`` and ``live_server`` request, or through the ``django_db`` mark."""
    fixtures = getattr(item, "fixturenames", ())
    return "_django_db_helper" in fixtures or item.get_closest_marker("django_db") is not None


def pytest_collection_modifyitems(config, items):
    """Mark every test under tests/browser/ ``browser``; with ``--db-only``, deselect the
    tests that do not use the database."""
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
    if config.getoption("--db-only"):
        kept = [item for item in items if uses_the_database(item)]
        config.hook.pytest_deselected(items=[item for item in items
                                             if not uses_the_database(item)])
        items[:] = kept


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a run with tests of the live server (the browser tests, the Locust room's)
    has its database in a file (one per xdist worker), as at a real event: the live server
    then answers each request on its own connection, in WAL mode with the settings' busy
    timeout, rather than sharing the in-memory database's one connection between its threads
    (which answered "database table is locked"). Without them the database stays in memory
    (the quick loop). On PostgreSQL each xdist worker has its own test database
    (``test_triominos_gw0``...: pytest-django's suffix, which this fixture keeps)."""
    from django.conf import settings as django_settings

    database = django_settings.DATABASES["default"]
    browsing = any("live_server" in getattr(item, "fixturenames", ())
                   for item in request.session.items)
    if database["ENGINE"] == "django.db.backends.sqlite3" and browsing:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        database.setdefault("TEST", {})["NAME"] = str(
            Path(django_settings.BASE_DIR) / f"test-db-{worker}.sqlite3")
        # a test database need not survive a power cut
        database["OPTIONS"] = {**database.get("OPTIONS", {}),
                               "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;"}


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Hashing with the real PBKDF2 costs ~0.3 s per account; tests need no such strength.

    Session-scoped on purpose: a function-scoped autouse fixture would trip Hypothesis's
    health check in the engine's property tests.
    """
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def staff_password():
    """The password of every account the fixtures create."""
    return STAFF_PASSWORD


@pytest.fixture
def make_user(db, django_user_model):
    def make_user(username: str, *, password: str = STAFF_PASSWORD, **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make_user


@pytest.fixture
def make_tournament(db):
    def make_tournament(
        *,
        slug: str = "spring-open",
        name: str | None = None,
        players: int = 8,
        sessions: int = 1,
        table_size: int = 4,
        is_public: bool = True,
        started: bool = False,
        **settings,
    ):
        tournament = tournament_with_players(
            slug=slug, name=name, players=players, is_public=is_public, **settings
        )
        registered = players_of(tournament)
        for session_index in range(sessions):
            rotated = registered[session_index:] + registered[:session_index]
            tables = [rotated[i : i + table_size] for i in range(0, len(rotated), table_size)]
            seated_session(tournament=tournament, tables=tables, seed=session_index,
                           started=started)
        return tournament

    return make_tournament


@pytest.fixture
def tournament(make_tournament):
    return make_tournament()


@pytest.fixture
def grant_organiser(db):
    def grant_organiser(user, *tournaments):
        for tournament in tournaments:
            staff_role_grant(
                tournament=tournament, user=user, role=StaffRole.Role.ORGANISER
            )
        return user

    return grant_organiser


@pytest.fixture
def organiser(tournament, make_user, grant_organiser):
    return grant_organiser(make_user("olga-organiser"), tournament)


@pytest.fixture
def referee(tournament, make_user):
    user = make_user("remi-referee")
    staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
    return user


@pytest.fixture
def referee_of_table_2(tournament, make_user):
    user = make_user("tania-table-two")
    staff_role_grant(
        tournament=tournament, user=user, role=StaffRole.Role.REFEREE, tables="2"
    )
    return user


@pytest.fixture
def outsider(make_user):
    return make_user("oscar-outsider")


@pytest.fixture
def outsider_client(outsider):
    """Logged in without a role: sees what the public sees, made for them alone, never kept."""
    client = Client()
    client.force_login(outsider)
    return client


@pytest.fixture
def organiser_client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def referee_client(referee):
    client = Client()
    client.force_login(referee)
    return client


@pytest.fixture
def in_english():
    with translation.override("en"):
        yield
