"""The project's own docs: the record example of docs/record-format.md checks to the output
printed under it, and every docs/... file that code, docstrings and READMEs name exists."""

from __future__ import annotations

import re
from pathlib import Path

from scoring import check_record, load_record

ROOT = Path(__file__).resolve().parents[2]
FORMAT_DOC = ROOT / "docs" / "record-format.md"


def test_the_record_example_gives_the_output_shown() -> None:
    text = FORMAT_DOC.read_text(encoding="utf-8")
    record = re.search(r"## The record\n\n```json\n(.*?)```", text, re.S)
    output = re.search(r"The example record above, whose round is cut short, gives:\n\n```json\n"
                       r"(.*?)```", text, re.S)
    assert record is not None and output is not None
    assert check_record(load_record(record.group(1))).to_text() == output.group(1)


def test_every_docs_reference_names_a_file_of_the_repository() -> None:
    named: dict[str, list[str]] = {}
    for path in ROOT.rglob("*"):
        if path.suffix not in (".py", ".md", ".html") or ".git" in path.parts:
            continue
        for match in re.finditer(r"(?<![\w/.])docs/[\w./-]*\w", path.read_text(encoding="utf-8")):
            named.setdefault(match.group(0), []).append(str(path.relative_to(ROOT)))
    assert "docs/record-format.md" in named and "docs/rules.md" in named
    missing = {ref: where for ref, where in named.items() if not (ROOT / ref).is_file()}
    assert not missing
