"""The benchmarks: a development-only Django app (never in the wheel, never at an event).

Its commands (``python manage.py bench_<what>``) build what they measure, mostly in a
throwaway database, and print their figures; ``harness.py`` holds what they share;
``locustfile.py`` is the load of a room. docs/development/benchmarks.md has the commands and the figures.
"""
