"""Reads whose SQL is compiled once per process.

Django compiles a queryset's SQL anew at each evaluation: for the one-row reads that decide
a poll's 304 (a tournament's versions by its slug, with a sum of match revisions in a
subquery; a session's clock with its table's open call), compiling costs several times the
query (about 1 ms of CPU against 0.1 ms on the development machine: ``python manage.py
bench_room_requests``). :class:`PreparedRead` builds its queryset once per database with
stand-in arguments, keeps its SQL and the conversions of its columns (a date and time from
SQLite's text, a JSON field), and runs it again with each call's own arguments through the
connection's cursor (its execute wrappers included), converting the row as Django would;
``all()`` reads every row so (a match's seats, rounds and turns: ``match_rows``, which every
save that finds no kept replay reads). :class:`PreparedChain` reads so a model's row with the
rows it refers to (a match with its table, session and tournament), as model instances.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet

#: The stand-in of the ``n``-th integer argument (minus n), and of a text one: values no query
#: holds as a constant. An integer one is within the range of every integer field (Django
#: compiles a lookup out of a field's range, or a negative one on a positive field, as an
#: empty result).
_INT_STAND_IN = 32_719
_TEXT_STAND_IN = "\x00prepared-read-argument-{}"
#: The largest integer a column holds (a signed 64-bit one): an integer argument beyond it
#: (an address of any length: ``/players/99999999999999999999/``) names no row, and SQLite
#: would not take it.
LARGEST_INTEGER = 2**63 - 1


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: list[Any]
    #: where each argument goes in ``params``
    positions: dict[str, int]
    #: column index: (its converters, its expression), as ``SQLCompiler.get_converters``
    converters: dict[int, tuple[list[Callable], Any]]


class PreparedRead:
    """``build(**arguments)``, a ``values_list`` queryset, compiled once per database and read
    with each call's arguments: ``read(slug="...", number=3)`` is its first row, or None;
    ``read.all(...)`` every row, in the queryset's order."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type) -> None:
        if any(kind not in (int, str) for kind in kinds.values()):
            raise TypeError("a prepared read's arguments are integers or text")
        self.build = build
        self.kinds = kinds
        self.compiled: dict[str, _Compiled] = {}

    def stand_ins(self) -> dict[str, int | str]:
        return {name: (_INT_STAND_IN - index if kind is int else _TEXT_STAND_IN.format(index))
                for index, (name, kind) in enumerate(self.kinds.items())}

    def compile(self, using: str) -> _Compiled:
        """The SQL, its parameters with the stand-ins, where each argument goes, and the
        columns' conversions."""
        stand_ins = self.stand_ins()
        compiler = self.build(**stand_ins).query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        positions: dict[str, int] = {}
        for name, stand_in in stand_ins.items():
            found = [index for index, param in enumerate(params) if param == stand_in]
            if len(found) != 1:
                raise ValueError(f"argument {name!r} is not one parameter of the query")
            positions[name] = found[0]
        columns = [selected[0] for selected in compiler.select[:compiler.col_count]]
        return _Compiled(sql=sql, params=list(params), positions=positions,
                         converters=compiler.get_converters(columns))

    def __call__(self, **arguments: int | str) -> tuple[Any, ...] | None:
        """The first row of the query with these arguments (in the ``default`` database);
        None, without a query, for an integer argument no column holds."""
        rows = self.rows(arguments, first=True)
        return rows[0] if rows else None

    def all(self, **arguments: int | str) -> list[tuple[Any, ...]]:
        """Every row of the query with these arguments, in its order (none, without a query,
        for an integer argument no column holds)."""
        return self.rows(arguments, first=False)

    def rows(self, arguments: dict[str, int | str], *, first: bool) -> list[tuple[Any, ...]]:
        using = "default"
        if arguments.keys() != self.kinds.keys():
            raise TypeError(f"a prepared read takes {sorted(self.kinds)}")
        if any(kind is int and abs(int(arguments[name])) > LARGEST_INTEGER
               for name, kind in self.kinds.items()):
            return []
        compiled = self.compiled.get(using)
        if compiled is None:
            compiled = self.compiled[using] = self.compile(using)
        params = list(compiled.params)
        for name, value in arguments.items():
            at = compiled.positions[name]
            # the stand-in's own type: the database driver's, where Django wraps an integer
            # to say its size (psycopg's Int2, Int4)
            params[at] = type(params[at])(self.kinds[name](value))
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            if first:
                row = cursor.fetchone()
                read = [] if row is None else [row]
            else:
                read = cursor.fetchall()
        if not compiled.converters:
            return [tuple(row) for row in read]
        converted = []
        for row in read:
            values = list(row)
            for index, (converters, expression) in compiled.converters.items():
                for converter in converters:
                    values[index] = converter(values[index], expression, connection)
            converted.append(tuple(values))
        return converted


class PreparedChain:
    """``build(**arguments)``, a queryset of ``model``, read as one instance with the rows of
    ``path``'s relations loaded (as ``select_related("a__b")``) and the ``annotations`` the
    queryset makes set on it: one query, its SQL compiled once per process
    (:class:`PreparedRead`). ``read(id=3, slug="...")`` is the instance, or None; with
    ``ordered`` (the queryset's order kept), ``read.all(...)`` is every instance."""

    def __init__(self, model: type[Model], path: tuple[str, ...],
                 build: Callable[..., QuerySet], *, annotations: tuple[str, ...] = (),
                 ordered: bool = False, **kinds: type) -> None:
        self.path = path
        self.annotations = annotations
        self.models: list[type[Model]] = [model]
        prefixes = [""]
        for name in path:
            self.models.append(self.models[-1]._meta.get_field(name).related_model)
            prefixes.append(f"{prefixes[-1]}{name}__")
        self.columns = [[field.attname for field in each._meta.concrete_fields]
                        for each in self.models]
        selected = [f"{prefix}{column}" for prefix, columns in zip(prefixes, self.columns)
                    for column in columns] + list(annotations)
        self.read = PreparedRead(
            (lambda **arguments: build(**arguments).values_list(*selected)) if ordered else
            (lambda **arguments: build(**arguments).order_by().values_list(*selected)), **kinds)

    def __call__(self, **arguments: int | str) -> Model | None:
        row = self.read(**arguments)
        return None if row is None else self.instance(row)

    def all(self, **arguments: int | str) -> list[Model]:
        """Every row so read, in the queryset's order (built with ``ordered``)."""
        return [self.instance(row) for row in self.read.all(**arguments)]

    def instance(self, row: tuple[Any, ...]) -> Model:
        instances, start = [], 0
        for each, columns in zip(self.models, self.columns):
            instances.append(each.from_db("default", columns, row[start:start + len(columns)]))
            start += len(columns)
        for instance, name, related in zip(instances, self.path, instances[1:]):
            setattr(instance, name, related)
        for name, value in zip(self.annotations, row[start:]):
            setattr(instances[0], name, value)
        return instances[0]
