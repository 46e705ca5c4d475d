"""Real servers for the tests that ask one over HTTP.

- :func:`free_port`: a port nobody listens on.
- :func:`served_on_thread`: an ASGI application served by uvicorn, as gunicorn's ASGI worker
  serves it, on a thread of the tests' process (the same database as the tests). Each request
  runs on a thread made for it, which closes its connection when it ends, as the settings
  have it under ASGI (``CONN_MAX_AGE`` 0 meanwhile).
- :func:`readme_server_command` and :class:`AppServer`: the README's ``gunicorn`` line run as
  a process of its own, on a port and with the environment given (a database, a cache): what
  a site runs, once or several times behind a proxy.
- :class:`RoundRobinProxy`: that proxy, on a thread: each connection it takes goes to the next
  server in turn, as a balancing proxy's round robin sends them.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from django.conf import settings
from django.db import connections


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served_on_thread(application) -> Iterator[str]:
    """``application`` served by uvicorn on a thread of the tests' process: its address."""
    import uvicorn

    database = connections.settings["default"]
    kept, database["CONN_MAX_AGE"] = database["CONN_MAX_AGE"], 0
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=free_port(),
                                           lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(10)
        database["CONN_MAX_AGE"] = kept


def readme_server_command() -> list[str]:
    """The README's server command (its ``gunicorn`` line), as a list of arguments."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("gunicorn "))
    return shlex.split(line)


def server_environment(**settings_: str) -> dict[str, str]:
    """The tests' environment without the app's settings (``TRIOMINOS_*``, ``DATABASE_URL``,
    gunicorn's trusted proxies), then ``settings_``."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("TRIOMINOS_", "FORWARDED_ALLOW_IPS"))
                   and key != "DATABASE_URL"}
    environment.update(DJANGO_SETTINGS_MODULE="tournament.settings", TRIOMINOS_BENCH="0",
                       **settings_)
    return environment


class AppServer:
    """The README's ``gunicorn`` line on ``127.0.0.1:port`` with ``workers`` workers, in a
    process of its own, under ``environment``; :meth:`start` returns once it answers."""

    def __init__(self, environment: dict[str, str], *, workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = readme_server_command()
        command[command.index("--bind") + 1] = f"127.0.0.1:{self.port}"
        command[command.index("--workers") + 1] = str(workers)
        self.command = [str(Path(sys.executable).with_name("gunicorn")), *command[1:]]
        self.environment = environment
        self.process: subprocess.Popen | None = None
        self.log = b""

    def start(self, *, seconds: float = 60) -> AppServer:
        # a session of its own: its workers are stopped with it, never left holding the pipe
        self.process = subprocess.Popen(self.command, env=self.environment,
                                        cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                requests.get(f"{self.url}/login/", timeout=30)
                return self
            except requests.ConnectionError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"the server did not answer: {self.log.decode(errors='replace')}")

    def stop(self) -> None:
        """Stopped at once (gunicorn's quick shutdown: its streams are not waited for), its
        workers killed with it after 10 s; its standard error kept in ``log``."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.log = self.process.communicate(timeout=10)[1]
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.log = self.process.communicate(timeout=30)[1]
        self.process = None

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class RoundRobinProxy:
    """A TCP proxy on ``127.0.0.1`` in front of ``servers`` (their addresses): each connection
    it accepts is carried to the next server in turn, the bytes as they are, both ways, until
    either side closes. ``chosen`` lists, connection by connection, the index of the server
    it went to. The servers see every client at the proxy's address, as behind a proxy."""

    def __init__(self, servers: tuple[str, ...] | list[str]) -> None:
        self.servers = [(url.split("//", 1)[1].rsplit(":", 1)[0], int(url.rsplit(":", 1)[1]))
                        for url in servers]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.chosen: list[int] = []
        self._turns = itertools.cycle(range(len(self.servers)))
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._listening: asyncio.Server | None = None

    @staticmethod
    async def _carry(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        index = next(self._turns)
        self.chosen.append(index)
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.servers[index])
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._carry(reader, server_writer),
                             self._carry(server_reader, writer))

    def start(self) -> RoundRobinProxy:
        self._thread.start()
        self._listening = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._connection, "127.0.0.1", self.port), self._loop
        ).result(10)
        return self

    def stop(self) -> None:
        async def close() -> None:
            if self._listening is not None:
                self._listening.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
