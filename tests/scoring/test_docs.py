"""The project's own docs: the record example of docs/reference/record-format.md checks to the output
printed under it, every docs/... file that code, docstrings and READMEs name exists, and every
link of the README and docs/ leads to a file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from scoring import check_record, load_record

ROOT = Path(__file__).resolve().parents[2]
FORMAT_DOC = ROOT / "docs" / "reference" / "record-format.md"


def test_the_record_example_gives_the_output_shown() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    record = re.search(r"## The record\n\n```json\n(.*?)```", text, re.S)
    output = re.search(r"The example record above, whose round is cut short, gives:\n\n```json\n"
                       r"(.*?)```", text, re.S)
    assert record is not None and output is not None
    assert check_record(load_record(record.group(1))).to_text() == output.group(1)


def tracked_files() -> list[Path]:
    """The files git tracks: what a clone holds, and nothing a developer's tree adds beside it
    (a virtual environment, the databases, the caches)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True, timeout=60).stdout.decode()
    return [ROOT / name for name in listed.split("\0")
            if name and (ROOT / name).is_file()]


def test_every_docs_reference_names_a_file_of_the_repository() -> None:
    named: dict[str, list[str]] = {}
    for path in tracked_files():
        if path.suffix not in (".py", ".md", ".html"):
            continue
        for match in re.finditer(r"(?<![\w/.])docs/[\w./-]*\w", path.read_text(encoding="utf-8")):
            named.setdefault(match.group(0), []).append(str(path.relative_to(ROOT)))
    assert "docs/reference/record-format.md" in named and "docs/reference/rules.md" in named
    missing = {ref: where for ref, where in named.items() if not (ROOT / ref).exists()}
    assert not missing


def test_every_link_of_the_manual_names_a_file_and_the_readme_reaches_every_doc() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).is_file():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [page.name for page in pages[1:]
                if f"](docs/{page.relative_to(ROOT / 'docs').as_posix()})" not in readme]
    assert not unlinked
