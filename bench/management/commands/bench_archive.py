"""``python manage.py bench_archive``: what reading a records.zip costs in memory, for a
well-formed archive and for the hostile ones of ``bench/hostile_archives.py``.

For each archive, built in memory first (untimed), reads it as the import does
(``tournament.archive.reading.archive_read``: the archive opened, the manifest or index read,
the records it names read and digested; nothing is written, no database is used) and
prints whether it was read or refused (with the refusal's code), the upload's size, the peak
of memory allocated above the start while reading (``tracemalloc``: every Python object,
the unpacked bytes included) and the CPU time (``time.process_time``).

Options: ``--matches`` (50) for the well-formed archive, ``--scale`` (1.0) to shrink the
hostile ones (the tests run it small).
"""

from __future__ import annotations

import gc
import time
import tracemalloc

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand

from bench import hostile_archives as hostile
from tournament.archive.reading import archive_read

MB = 1024 * 1024


def measure(data: bytes) -> tuple[str, float, float]:
    """(outcome, peak MB, CPU ms) of reading ``data`` as the import does."""
    gc.collect()
    tracemalloc.start()
    start = time.process_time()
    try:
        archive_read(data)
        outcome = "read"
    except ValidationError as error:
        errors = getattr(error, "error_dict", {}).get("archive") or error.error_list
        outcome = f"refused ({errors[0].code})"
    cpu = (time.process_time() - start) * 1000
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return outcome, peak / MB, cpu


class Command(BaseCommand):
    help = "Peak memory and CPU time of reading well-formed and hostile records.zip archives."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--scale", type=float, default=1.0)

    def handle(self, *args, **options):
        scale = options["scale"]

        def scaled(value: int) -> int:
            return max(1, int(value * scale))

        cases = [
            (f"well-formed, {options['matches']} matches", hostile.well_formed(options["matches"])),
            (f"a record of {scaled(190 * MB) // MB} MB", hostile.big_entry(scaled(190 * MB))),
            (f"an entry of {scaled(190 * MB) // MB} MB named by nothing",
             hostile.unread_big_entry(scaled(190 * MB))),
            (f"a manifest of {scaled(10_000_000):,} empty objects",
             hostile.empty_objects(scaled(10_000_000))),
            (f"a manifest of {scaled(2_500_000):,} empty objects (under the byte limit)",
             hostile.empty_objects(scaled(2_500_000))),
            (f"a manifest nested {scaled(100_000):,} deep", hostile.deep_nesting(scaled(100_000))),
            (f"a record of {scaled(50 * MB) // MB} MB declaring 1,000 bytes",
             hostile.lying_size(scaled(50 * MB), 1000)),
            ("a record of 1 KB declaring 300 MB", hostile.lying_size(1000, 300 * MB)),
            (f"{scaled(30_000):,} entries", hostile.many_entries(scaled(30_000))),
        ]
        self.stdout.write("Reading an archive as the import does (archive_read): the outcome, "
                          "the upload, the peak memory above the start (tracemalloc), the CPU")
        for label, data in cases:
            outcome, peak, cpu = measure(data)
            self.stdout.write(f"  {label}: {outcome}; upload {len(data) / 1024:,.0f} KB, "
                              f"peak {peak:,.1f} MB, CPU {cpu:,.0f} ms")
