"""The README's account of the standings says what the code computes."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"


def standings_section() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Standings (`tournament/standings/`)", 1)[1].split("\n### ", 1)[0]
    return " ".join(section.split())


def test_opponents_strength_is_said_exactly():
    """The ranking sums, over each match and each opponent at it, that opponent's match points
    over the whole tournament (``test_ranking.test_opponents_strength_sums_the_opponents_match
    _points`` computes it): "per match" read two ways."""
    section = standings_section()
    assert "per match" not in section
    definition = section.split("opponents' strength:", 1)[1].split(". ", 1)[0]
    assert "each opponent's total over the whole tournament" in definition
    assert "an opponent met twice counts twice" in definition


def test_the_downloads_are_listed():
    section = standings_section()
    for export_format in ("csv", "xlsx", "ods"):
        assert f"`?_export={export_format}`" in section
