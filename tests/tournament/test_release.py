"""The release a server runs (``tournament.kit.release``): its digest moves with any template
or module of the site, so that a copy kept by another release is never taken for this one's."""

from __future__ import annotations

from tournament.kit.release import release_digest, release_files


def test_the_digest_moves_with_a_template_and_with_nothing_else(settings, tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>{{ round }}</p>")
    (tmp_path / "notes.bin").write_bytes(b"not a template")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    try:
        release_digest.cache_clear()
        assert page in release_files() and tmp_path / "notes.bin" not in release_files()
        first = release_digest()
        release_digest.cache_clear()
        assert release_digest() == first  # the same files: the same release
        page.write_text("<p>{{ round.number }}</p>")
        assert release_digest() == first  # read once per process
        release_digest.cache_clear()
        assert release_digest() != first
    finally:
        release_digest.cache_clear()


def test_the_site_s_own_templates_and_modules_make_it():
    files = {path.name for path in release_files()}
    assert {"_kept_log.html", "_round_log.html", "logs.py", "release.py", "django.mo"} <= files
