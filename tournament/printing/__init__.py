"""Printing: score sheets, match sheets, standings, seating and table cards as A4 PDFs
(WeasyPrint).

- ``pdf``: one function turning a template into PDF bytes, static files read from disk.
- ``qr``: the QR code of an address, as a small PNG ``data:`` address.
- ``selectors``: what the printed pages show, read in a fixed number of queries.
- ``views``/``urls``: the ``.pdf`` addresses of docs/reference/product.md, in the ``tournament`` namespace.
"""
