"""A read of a few numbers, its SQL compiled once per process.

Django compiles a queryset's SQL anew at each evaluation: for the one-row reads that decide
a poll's 304 (a tournament's versions by its slug, with a sum of match revisions in a
subquery), compiling costs ten times the query (about 1 ms of CPU against 0.1 ms on the
development machine: ``python manage.py bench_room_requests``). :class:`PreparedRead` builds
its queryset once per database with stand-in arguments, keeps its SQL, and runs it again with
each call's own arguments, through the connection's cursor (its execute wrappers included).

Its queryset is a ``values_list`` of numbers (integers, booleans as integers on SQLite): the
row is returned as the database sends it, with no field's conversion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet

#: The stand-in of the ``n``-th integer argument (minus n), and of a text one: values no query
#: holds as a constant. An integer one is within the range of every integer field (Django
#: compiles a lookup out of a field's range, or a negative one on a positive field, as an
#: empty result).
_INT_STAND_IN = 32_719
_TEXT_STAND_IN = "\x00prepared-read-argument-{}"


class PreparedRead:
    """``build(**arguments)``, a ``values_list`` queryset, compiled once per database and read
    with each call's arguments: ``read(slug="...", number=3)`` is its first row, or None."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        if any(kind not in (int, str) for kind in kinds.values()):
            raise TypeError("a prepared read's arguments are integers or text")
        self.build = build
        self.kinds = kinds
        self.compiled: dict[str, tuple[str, list[Any], dict[str, int]]] = {}

    def stand_ins(self) -> dict[str, int | str]:
        return {name: (_INT_STAND_IN - index if kind is int else _TEXT_STAND_IN.format(index))
                for index, (name, kind) in enumerate(self.kinds.items())}

    def compile(self, using: str) -> tuple[str, list[Any], dict[str, int]]:
        """The SQL, its parameters with the stand-ins, and where each argument goes."""
        stand_ins = self.stand_ins()
        query = self.build(**stand_ins).query
        sql, params = query.get_compiler(using=using).as_sql()
        positions: dict[str, int] = {}
        for name, stand_in in stand_ins.items():
            found = [index for index, param in enumerate(params) if param == stand_in]
            if len(found) != 1:
                raise ValueError(f"argument {name!r} is not one parameter of the query")
            positions[name] = found[0]
        return sql, list(params), positions

    def __call__(self, using: str = "default", **arguments: int | str) -> tuple | None:
        if arguments.keys() != self.kinds.keys():
            raise TypeError(f"a prepared read takes {sorted(self.kinds)}")
        compiled = self.compiled.get(using)
        if compiled is None:
            compiled = self.compiled[using] = self.compile(using)
        sql, params, positions = compiled
        params = list(params)
        for name, value in arguments.items():
            # the stand-in's own type: the database driver's, where Django wraps an integer
            # to say its size (psycopg's Int2, Int4)
            params[positions[name]] = type(params[positions[name]])(self.kinds[name](value))
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()
