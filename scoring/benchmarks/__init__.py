"""The engine's benchmarks, apart from the engine: nothing under ``scoring`` imports them but
the command line, and only when asked (``python -m scoring bench``, ``bench-command``).

- :mod:`scoring.benchmarks.engine`: turns checked per second, legal placements of a rack.
- :mod:`scoring.benchmarks.command`: whole ``python -m scoring check`` processes, start-up
  included, against another checkout.

docs/development/benchmarks.md has the figures.
"""
