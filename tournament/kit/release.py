"""The release a server runs: a digest of its code and templates, read once per process.

A copy kept in the shared cache and made by the templates (a match page's closed rounds'
log, ``tournament/matches/views/logs.py``) puts it in what it keys on: a server of another
release (an upgrade during an event, or its rollback) makes its own copies and never takes
those of the other, with no number to raise by hand when a template changes.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings

#: The package's code and templates.
PACKAGE = Path(__file__).resolve().parents[1]
#: What a page is made of: modules, templates, compiled translations.
SUFFIXES = frozenset({".py", ".html", ".txt", ".js", ".xml", ".mo"})


def release_files() -> list[Path]:
    """The files whose bytes make the release: the package's Python modules and templates,
    those of the site's template directories and its compiled translations, in a fixed
    order."""
    roots = [PACKAGE, *(Path(folder) for engine in settings.TEMPLATES
                        for folder in engine.get("DIRS", [])),
             *(Path(folder) for folder in settings.LOCALE_PATHS)]
    return sorted({path for root in roots for path in root.rglob("*")
                   if path.is_file() and path.suffix in SUFFIXES})


@cache
def release_digest() -> str:
    """The digest of :func:`release_files`' paths and bytes (a few milliseconds, once)."""
    digest = hashlib.sha256()
    for path in release_files():
        digest.update(str(path.relative_to(path.anchor)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
