"""The kit: tools the app's features share that know nothing of a tournament.

Kept copies and their ETags (``cache``, ``cached_pages``, ``db_cache``), PDFs (``pdf``),
lighter markup (``markup``), spreadsheets and tables (``spreadsheet``, ``tables``), charts
(``charts``), forms (``forms``), numbers as a request writes them (``digits``), a request's
text bounded for a response header (``header_values``), dates and figures as a reader writes
them (``formats``, ``locale_formats``), seat letters (``seats``), addresses and short names
(``addresses``), the table cards' codes and the wrong tries' limits (``table_codes``,
``attempts``), the deadlock retry (``transactions``), the login each answer names for the
tablet's offline pages (``kept_for``) and the pages' Content-Security-Policy
(``content_security``). It sits in the ground layer: it imports no model, no feature, no
engine (``pyproject.toml``'s contracts).
What every feature shares about the tournament itself lives in ``tournament/core/``.
"""
