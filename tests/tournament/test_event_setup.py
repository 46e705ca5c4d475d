"""The README's "Running a real event" commands, run as written on PostgreSQL.

A newcomer types that block into a shell on an empty installation: the role and its password
are created, the database given to it, the tables made by that role, the server started. The
test runs the block's lines through bash, in a copy of the project, with these differences
only, each standing for what the newcomer does by hand:

- ``pip install -e .`` is left out: the package running this test is installed already;
- the role and the database are named apart (``triominos`` is the name the CI's own database
  already has), and the administrator is reached as this machine allows (``PGHOST`` and
  ``PGUSER``, where the README says ``sudo -u postgres``);
- the passwords ``createuser`` and ``createsuperuser`` ask for are given on their input and in
  the environment, as the newcomer types them;
- the server listens on a free port of 127.0.0.1 and is stopped once it has answered.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings

from bench.management.commands.bench_room_knee import Command as KneeCommand

pytestmark = pytest.mark.slow  # migrations, collectstatic and a server, in subprocesses

ROOT = Path(settings.BASE_DIR)
ADMIN = {"PGHOST": "127.0.0.1", "PGPORT": "5432", "PGUSER": "postgres"}


def event_block() -> list[str]:
    """The shell lines of the README's "Running a real event" section."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Running a real event", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the section has no shell block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def administrator_reachable() -> bool:
    if not (shutil.which("createuser") and shutil.which("pg_isready")):
        return False
    answer = subprocess.run(["pg_isready", "-q"], env={**os.environ, **ADMIN}, check=False)
    return answer.returncode == 0


def psql(query: str) -> str:
    return subprocess.run(["psql", "-tAc", query], env={**os.environ, **ADMIN}, check=True,
                          capture_output=True, text=True, timeout=60).stdout.strip()


def test_the_block_creates_the_role_and_gives_it_the_database():
    lines = event_block()
    assert any(line.startswith("createuser ") and "--pwprompt" in line for line in lines)
    assert any(line.startswith("createdb ") and "--owner triominos" in line for line in lines)
    first_use = next(i for i, line in enumerate(lines) if "manage.py" in line)
    created = [i for i, line in enumerate(lines) if line.startswith(("createuser ", "createdb "))]
    assert created and max(created) < first_use


def test_the_server_runs_the_pages_on_threads_and_the_streams_in_the_loop():
    """The block's server is ``tournament.serving`` (tournament/serving.py) under uvicorn's
    worker, which the room's benchmarks measured cheaper than Django's ASGI handler alone;
    the operations guide shows the same command."""
    server = next(line for line in event_block() if line.startswith("gunicorn "))
    arguments = server.split()
    assert arguments[1] == "tournament.serving"
    assert arguments[arguments.index("-k") + 1] == "uvicorn_worker.UvicornWorker"
    guide = (ROOT / "docs" / "guides" / "operations.md").read_text()
    assert server in guide.splitlines()


def test_the_server_keeps_a_devices_connection_between_its_requests():
    """gunicorn closes a connection idle for 2 s by default: each poll (every 15 s), clock
    (20 s) and turn (8 to 30 s) would open one anew, to either worker, whose kept replay and
    pages are then the other's. The README's server keeps it at least as long as a clock's
    period, and the benchmark's server is the README's."""
    server = next(line for line in event_block() if line.startswith("gunicorn "))
    arguments = server.split()
    assert int(arguments[arguments.index("--keep-alive") + 1]) >= 20
    parser = KneeCommand().create_parser("manage.py", "bench_room_knee")
    options = parser.parse_args([]).gunicorn.split()
    assert options == [argument for argument in arguments[2:]
                       if not argument.startswith(("--bind", "--forwarded", "0.0.0.0"))]


@pytest.mark.skipif(not administrator_reachable(), reason="needs PostgreSQL on 127.0.0.1:5432")
def test_the_readme_event_commands_run_as_written(tmp_path):
    name = f"triominos_readme_{secrets.token_hex(4)}"
    lines = event_block()
    password = re.search(r"postgres://triominos:([^@]+)@", "\n".join(lines)).group(1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    script: list[str] = ["set -euo pipefail"]
    for line in lines:
        if line.startswith("pip install"):
            continue
        line = re.sub(r"\btriominos\b", name, line)
        if line.startswith("python manage.py createsuperuser"):
            line += " --noinput"  # the answers the newcomer types, from the environment
        if line.startswith("gunicorn "):
            line = line.replace("--bind 0.0.0.0:8000", f"--bind 127.0.0.1:{port}")
            line = f"exec {line}"
        script.append(line)
    assert script[-1].startswith("exec gunicorn "), "the block ends by starting the server"
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(
        ".venv", ".git", "staticfiles", "node_modules", "__pycache__", "*.sqlite3", "tests", "bench"))
    (project / "event.sh").write_text("\n".join(script) + "\n")
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("TRIOMINOS_", "DJANGO_", "PG")) and key != "DATABASE_URL"}
    environment.update(ADMIN, PATH=f"{Path(sys.executable).parent}:{environment['PATH']}",
                       DJANGO_SUPERUSER_USERNAME="head", DJANGO_SUPERUSER_EMAIL="head@example.org",
                       DJANGO_SUPERUSER_PASSWORD="a-long-password-42")
    server = subprocess.Popen(["bash", "event.sh"], cwd=project, env=environment,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        # createuser --pwprompt reads the password twice, from its input with no terminal.
        server.stdin.write(f"{password}\n{password}\n")
        server.stdin.close()
        answer = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and server.poll() is None:
            try:
                answer = requests.get(f"http://127.0.0.1:{port}/", timeout=30,
                                      headers={"Host": "localhost"})
                break
            except (requests.ConnectionError, requests.Timeout):  # starting, or a busy machine
                time.sleep(0.5)
        assert server.poll() is None, server.stdout.read()
        assert answer is not None and answer.status_code == 200
        assert psql(f"SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '{name}'") == name
        assert psql(f"SELECT rolcanlogin AND NOT rolsuper FROM pg_roles WHERE rolname = '{name}'") == "t"
        assert psql(f"SELECT passwd IS NOT NULL FROM pg_shadow WHERE usename = '{name}'") == "t"
        tables = subprocess.run(
            ["psql", "-tAc", "SELECT tableowner FROM pg_tables WHERE tablename = 'auth_user'", name],
            env={**os.environ, **ADMIN}, check=True, capture_output=True, text=True).stdout.strip()
        assert tables == name
    finally:
        if server.poll() is None:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        psql(f'DROP ROLE IF EXISTS "{name}"')
