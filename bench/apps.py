from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmarks' commands; installed outside production only (tournament/settings.py:
    ``TRIOMINOS_BENCH``)."""

    name = "bench"
    verbose_name = "Benchmarks"
