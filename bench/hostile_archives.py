"""Archives built to hurt the past-results import (``tournament/archive/``): small uploads that
unpack into a lot, manifests that parse into millions of objects or nest deeply, entries that
lie about their size, and a well-formed archive to compare with. Each is bytes, made in memory
with the standard library (no database): ``bench_archive`` measures what reading them costs,
``tests/tournament/archive/test_hostile_archives.py`` holds the import to its limits with them.

- ``manifest_and_records(matches)``: a manifest (a dict) and ``matches`` one-round records
  (bytes by entry), as an export writes them (players, closed sessions, confirmed matches),
  without the archive's identity; ``zipped(entries)`` puts entries in a ZIP.
- ``well_formed(matches)``: them, zipped.
- ``big_entry(size)``: the well-formed archive whose first record is ``size`` bytes of spaces
  (a record's JSON, padded): it compresses a thousand times.
- ``empty_objects(count)``: a manifest listing ``count`` empty objects as players.
- ``deep_nesting(depth)``: a manifest nested ``depth`` lists deep.
- ``lying_size(size, declared)``: a record of ``size`` bytes (at least its own length) whose
  headers declare ``declared`` bytes.
- ``many_entries(count)``: ``count`` tiny entries beside the well-formed ones.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile

from tournament import engine

MANIFEST = "tournament.json"
PLAYERS = ["Ana", "Bo", "Cy", "Di"]


def zipped(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def manifest_and_records(matches: int) -> tuple[dict, dict[str, bytes]]:
    """A manifest (as a dict) and its records: ``matches`` one-round matches of four players,
    one a session."""
    records: dict[str, bytes] = {}
    sessions = []
    for number in range(1, matches + 1):
        entry = f"session-{number:02d}/table-01-match-{number}.json"
        record = engine.simulated_match_record(names=PLAYERS, seed=number, rounds=1)
        records[entry] = json.dumps(record, ensure_ascii=False).encode()
        sessions.append({"number": number, "status": "finished", "seed": number,
                         "seating": "random", "tables": [{
                             "number": 1, "players": [1, 2, 3, 4],
                             "match": {"status": "confirmed", "entry": entry,
                                       "confirmed_at": f"2025-03-08T{9 + number % 10:02d}:00:00"
                                                       "+00:00"}}]})
    manifest = {
        "format": "triominos-tournament/1",
        "tournament": {"name": "Hostile Open", "slug": "hostile-open",
                       "start_date": "2025-03-08", "rules": "goliath-tournament",
                       "match_rounds": 1},
        "players": [{"id": index, "name": name} for index, name in enumerate(PLAYERS, 1)],
        "sessions": sessions,
    }
    return manifest, records


def well_formed(matches: int = 3) -> bytes:
    manifest, records = manifest_and_records(matches)
    return zipped({MANIFEST: json.dumps(manifest).encode(), **records})


def big_entry(size: int) -> bytes:
    manifest, records = manifest_and_records(1)
    entry = next(iter(records))
    record = records[entry]
    records[entry] = record[:-1] + b" " * max(0, size - len(record)) + record[-1:]
    return zipped({MANIFEST: json.dumps(manifest).encode(), **records})


def unread_big_entry(size: int) -> bytes:
    """The well-formed archive with one more entry, named by nothing, of ``size`` bytes."""
    manifest, records = manifest_and_records(1)
    return zipped({MANIFEST: json.dumps(manifest).encode(), **records,
                    "padding.bin": b"\0" * size})


def empty_objects(count: int) -> bytes:
    head = b'{"format": "triominos-tournament/1", "tournament": {"name": "x", ' \
        b'"start_date": "2025-03-08"}, "sessions": [], "players": ['
    body = b",".join([b"{}"] * count)
    return zipped({MANIFEST: head + body + b"]}"})


def deep_nesting(depth: int) -> bytes:
    head = b'{"format": "triominos-tournament/1", "players": '
    return zipped({MANIFEST: head + b"[" * depth + b"]" * depth + b"}"})


def lying_size(size: int, declared: int) -> bytes:
    """The well-formed archive of one match whose record is ``size`` bytes, its local header
    and central directory both declaring ``declared`` bytes."""
    data = big_entry(size)
    info = next(info for info in zipfile.ZipFile(io.BytesIO(data)).infolist()
                if info.filename != MANIFEST)
    entry = info.filename.encode()
    real = struct.pack("<L", info.file_size)
    lie = struct.pack("<L", declared)
    # The uncompressed size sits 22 bytes into a local header, 24 into a directory entry.
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = 0
        while (at := data.find(signature, at)) >= 0:
            name_at = data.find(entry, at)
            if 0 <= name_at - at <= 46 and data[at + offset:at + offset + 4] == real:
                data = data[:at + offset] + lie + data[at + offset + 4:]
            at += 4
    return data


def many_entries(count: int) -> bytes:
    manifest, records = manifest_and_records(1)
    extra = {f"x/{number}": b"" for number in range(count)}
    return zipped({MANIFEST: json.dumps(manifest).encode(), **records, **extra})
